/**
 * /bindorder (no layout): the desktop client opens an order's signed
 * link here. Logged out, the page offers login and comes back to the same
 * link; logged in, it names the order and the account, links them when the
 * user confirms, and then offers to pay or view the order. A forged, expired
 * or used link shows the server's message.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { LoginLink, NoticeLine } from '@/components/island.tsx';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { createBindOrder } from './bind-order-store.ts';
import { browserEnvironment } from './environment.ts';

interface Props {
  strings: Strings<KeysUnder<'bindorder' | FailureMessageKey | 'nav.login'>>;
  locale: LocaleCode;
}

export default function BindOrder({ strings, locale }: Props) {
  const t = translator(strings);
  const [binding] = useState(() => createBindOrder(browserEnvironment));
  const account = useStore(binding.$account);
  const bound = useStore(binding.$bound);
  const busy = useStore(binding.$busy);
  const notice = useStore(binding.$notice);
  const { link } = binding;

  if (!link) return <p className="notice notice-error">{t('bindorder.incomplete')}</p>;
  if (account === null) {
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

  return (
    <div className="card">
      <p>{t('bindorder.confirm', { order: link.order, account })}</p>
      <div className="form-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void binding.bind()} data-bind>
          {t('bindorder.bind')}
        </button>
      </div>
      <NoticeLine notice={notice} t={t} />
    </div>
  );
}
