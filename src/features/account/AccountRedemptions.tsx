/** The redemption history (account centre `redemption`): each cdkey redeemed, masked, with what it granted; 24 a page. */
import { useEffect, useState } from 'react';
import { activationCalls, type Redemption } from '#contract/activation.ts';
import { Loading, NoticeLine, useAction } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { grantText } from '@/lib/grant-text.ts';
import { Pager } from '@/components/Pager.tsx';

interface Props {
  strings: Strings<KeysUnder<'account.redemption' | 'account.wallet' | 'api' | 'common'>>;
  locale: LocaleCode;
}

interface RedemptionPage {
  Items: Redemption[];
  Total: number;
  Page: number;
}

export default function AccountRedemptions({ strings, locale }: Props) {
  const t = translator(strings);
  const [page, setPage] = useState<RedemptionPage | null>(null);
  const action = useAction(t);
  const show = (number: number) => void action.run(async () => setPage(await authCall(activationCalls.redemptions, { params: { page: number } })));

  useEffect(() => show(1), []);
  if (!page) return action.notice ? <NoticeLine notice={action.notice} t={t} /> : <Loading text={t('common.loading')} />;

  return (
    <section className="card" aria-labelledby="redemption-history">
      <h2 id="redemption-history">{t('account.redemption.history')}</h2>
      {page.Items.length === 0 ? (
        <p className="muted">{t('account.redemption.empty')}</p>
      ) : (
        <ul className="item-list" data-redemptions>
          {page.Items.map((redemption) => (
            <li key={`${redemption.Key}-${redemption.At}`}>
              <span className="item-main">
                <strong>{grantText(redemption.Grant, locale, t)}</strong>
                <span className="muted">
                  <span className="order-key">{redemption.Key}</span> · <time dateTime={redemption.At}>{formatDateTime(redemption.At, locale)}</time>
                  {redemption.Order && (
                    <>
                      {' · '}
                      <a href={`${localizePath(locale, '/account/center/order/detail')}?key=${redemption.Order}`}>
                        {t('account.wallet.forOrder', { key: redemption.Order })}
                      </a>
                    </>
                  )}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page.Page} total={page.Total} go={show} t={t} />
      <p>
        <a className="button button-secondary" href={localizePath(locale, '/activate/cdkey')}>
          {t('account.redemption.redeem')}
        </a>
      </p>
    </section>
  );
}
