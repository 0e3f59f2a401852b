/**
 * /bindorder (no layout): the desktop client opens an order's signed
 * link here. Logged out, the page offers login and comes back to the same
 * link; logged in, it names the order and the account, links them when the
 * user confirms, and then offers to pay or view the order. A forged, expired
 * or used link shows the server's message.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { BindLink, commerceCalls, type Order } from '#contract/commerce.ts';
import { LoginLink, NoticeLine, useAction } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { $isLoggedIn, $user } from '@/stores/session.ts';

interface Props {
  strings: Strings<KeysUnder<'bindorder' | 'api' | 'nav.login'>>;
  locale: LocaleCode;
}

export default function BindOrder({ strings, locale }: Props) {
  const t = translator(strings);
  const loggedIn = useStore($isLoggedIn);
  const user = useStore($user);
  const [bound, setBound] = useState<Order | null>(null);
  const action = useAction(t);
  const link = BindLink.safeParse(Object.fromEntries(new URLSearchParams(location.search)));

  if (!link.success) return <p className="notice notice-error">{t('bindorder.incomplete')}</p>;
  if (!loggedIn || !user) {
    return (
      <div className="card" data-bind-login>
        <p>{t('bindorder.signIn')}</p>
        <LoginLink locale={locale} text={t('nav.login')} />
      </div>
    );
  }

  if (bound) {
    const payable = bound.State === 'created' || bound.State === 'paying';
    return (
      <div className="card" data-bound>
        <p className="notice notice-ok" role="status">
          {t('bindorder.done', { order: bound.Key })}
        </p>
        <div className="form-actions">
          {payable && (
            <a className="button" href={`${localizePath(locale, '/payment')}?key=${bound.Key}`}>
              {t('bindorder.pay')}
            </a>
          )}
          <a className={payable ? 'button button-secondary' : 'button'} href={`${localizePath(locale, '/account/center/order/detail')}?key=${bound.Key}`}>
            {t('bindorder.view')}
          </a>
        </div>
      </div>
    );
  }

  async function bind() {
    const order = await action.run(() => authCall(commerceCalls.bindOrder, { body: link.data! }));
    if (order) setBound(order);
  }

  return (
    <div className="card">
      <p>{t('bindorder.confirm', { order: link.data.order, account: user.NickName })}</p>
      <div className="form-actions">
        <button type="button" className="button" disabled={action.busy} onClick={() => void bind()} data-bind>
          {t('bindorder.bind')}
        </button>
      </div>
      <NoticeLine notice={action.notice} t={t} />
    </div>
  );
}
