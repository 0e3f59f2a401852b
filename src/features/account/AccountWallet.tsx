/** The wallet island (account centre `wallet`): the balance and the ledger, newest first, 24 entries a page. */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { formatPrice } from '#contract/facts.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { Pager } from '@/components/Pager.tsx';
import { centerEnvironment } from './center-environment.ts';
import { createWallet } from './wallet-store.ts';
import './AccountWallet.css';

interface Props {
  strings: Strings<KeysUnder<'account.wallet' | FailureMessageKey | 'common'>>;
  locale: LocaleCode;
}

export default function AccountWallet({ strings, locale }: Props) {
  const t = translator(strings);
  const [list] = useState(() => createWallet(centerEnvironment));
  const wallet = useStore(list.$page);
  const notice = useStore(list.$notice);
  if (!wallet) return notice ? <NoticeLine notice={notice} t={t} /> : <Loading text={t('common.loading')} />;

  const signed = (delta: number) => `${delta > 0 ? '+' : '−'}${formatPrice(Math.abs(delta), locale)}`;
  return (
    <div className="account-sections">
      <section className="card" aria-labelledby="wallet-balance">
        <h2 id="wallet-balance">{t('account.wallet.balance')}</h2>
        <p className="pay-amount" data-balance>
          {formatPrice(wallet.Balance, locale)}
        </p>
      </section>
      <section className="card" aria-labelledby="wallet-history">
        <h2 id="wallet-history">{t('account.wallet.history')}</h2>
        {wallet.Items.length === 0 ? (
          <p className="muted">{t('account.wallet.empty')}</p>
        ) : (
          <ul className="item-list" data-ledger>
            {wallet.Items.map((entry) => (
              <li key={entry.Id}>
                <span className="item-main">
                  <strong>{t(`account.wallet.reason.${entry.Reason}`)}</strong>
                  <span className="muted">
                    <time dateTime={entry.At}>{formatDateTime(entry.At, locale)}</time>
                    {entry.Order && (
                      <>
                        {' · '}
                        <a href={`${localizePath(locale, '/account/center/order/detail')}?key=${entry.Order}`}>
                          {t('account.wallet.forOrder', { key: entry.Order })}
                        </a>
                      </>
                    )}
                  </span>
                </span>
                <span className="item-main">
                  <span className={entry.Delta > 0 ? 'ledger-delta-in' : 'ledger-delta-out'}>{signed(entry.Delta)}</span>
                  <span className="muted">{t('account.wallet.balanceAfter', { balance: formatPrice(entry.BalanceAfter, locale) })}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pager page={wallet.Page} total={wallet.Total} go={(page) => void list.show(page)} t={t} />
      </section>
      <NoticeLine notice={notice} t={t} />
    </div>
  );
}
