/** The redemption history (account centre `redemption`): each cdkey redeemed, masked, with what it granted; 24 a page. */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { grantText } from '@/lib/grant-text.ts';
import { Pager } from '@/components/Pager.tsx';
import { centerEnvironment } from './center-environment.ts';
import { createRedemptionList } from './redemptions-store.ts';

interface Props {
  strings: Strings<KeysUnder<'account.redemption' | 'account.wallet' | FailureMessageKey | 'common'>>;
  locale: LocaleCode;
}

export default function AccountRedemptions({ strings, locale }: Props) {
  const t = translator(strings);
  const [list] = useState(() => createRedemptionList(centerEnvironment));
  const page = useStore(list.$page);
  const notice = useStore(list.$notice);
  if (!page) return notice ? <NoticeLine notice={notice} t={t} /> : <Loading text={t('common.loading')} />;

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
      <Pager page={page.Page} total={page.Total} go={(number) => void list.show(number)} t={t} />
      <NoticeLine notice={notice} t={t} />
      <p>
        <a className="button button-secondary" href={localizePath(locale, '/activate/cdkey')}>
          {t('account.redemption.redeem')}
        </a>
      </p>
    </section>
  );
}
