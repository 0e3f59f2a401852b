/**
 * The auto-renewal agreements island (account centre `agreements`): each
 * agreement with its plan, price per period, state, next charge and failed
 * charges, and a button to cancel one that is pending or active.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { Agreement } from '#contract/agreements.ts';
import { formatMonths, formatPrice } from '#contract/facts.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { formatDay } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { createAgreements } from './agreements-store.ts';
import { centerEnvironment } from './center-environment.ts';

interface Props {
  strings: Strings<KeysUnder<'account.agreements' | FailureMessageKey | 'common'>>;
  locale: LocaleCode;
}

const stateBadge: Record<Agreement['State'], string> = { pending: 'badge-blue', active: 'badge-green', canceled: '', lapsed: 'badge-orange' };

export default function AccountAgreements({ strings, locale }: Props) {
  const t = translator(strings);
  const [store] = useState(() => createAgreements(centerEnvironment));
  const agreements = useStore(store.$agreements);
  const busy = useStore(store.$busy);
  const notice = useStore(store.$notice);
  if (!agreements) return notice ? <NoticeLine notice={notice} t={t} /> : <Loading text={t('common.loading')} />;

  const cancel = (agreement: Agreement) => {
    if (confirm(t('account.agreements.cancelConfirm'))) void store.cancel(agreement.Key);
  };

  const date = (iso: string) => formatDay(iso, locale);
  return (
    <div className="account-sections">
      {agreements.length === 0 ? (
        <section className="card">
          <p className="muted">{t('account.agreements.empty')}</p>
          <a className="button" href={localizePath(locale, '/account/center/steam/cloudidea')}>
            {t('account.agreements.seePlans')}
          </a>
        </section>
      ) : (
        <ul className="item-list card" data-agreements>
          {agreements.map((agreement) => (
            <li key={agreement.Key} data-agreement={agreement.Key} data-state={agreement.State}>
              <span className="item-main">
                <strong>{t('account.agreements.plan', { price: formatPrice(agreement.Price, locale), period: formatMonths(agreement.Months, locale) })}</strong>
                <span className={`badge ${stateBadge[agreement.State]}`}>{t(`account.agreements.state.${agreement.State}`)}</span>
                <span className="muted">
                  {t('account.agreements.number')} <span className="order-key">{agreement.Key}</span>
                </span>
                {agreement.SignedAt && <span className="muted">{t('account.agreements.signedAt', { date: date(agreement.SignedAt) })}</span>}
                {agreement.NextChargeAt && agreement.FailedCharges === 0 && (
                  <span data-next-charge>{t('account.agreements.nextCharge', { date: date(agreement.NextChargeAt) })}</span>
                )}
                {agreement.NextChargeAt && agreement.FailedCharges > 0 && (
                  <span className="notice notice-warn">
                    {t('account.agreements.retrying', { count: String(agreement.FailedCharges), date: date(agreement.NextChargeAt) })}
                  </span>
                )}
                {agreement.EndedAt && <span className="muted">{t('account.agreements.endedAt', { date: date(agreement.EndedAt) })}</span>}
              </span>
              {store.cancellable(agreement) && (
                <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => cancel(agreement)}>
                  {t('account.agreements.cancel')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <NoticeLine notice={notice} t={t} />
    </div>
  );
}
