/**
 * The auto-renewal agreements island (account centre `agreements`): each
 * agreement with its plan, price per period, state, next charge and failed
 * charges, and a button to cancel one that is pending or active.
 */
import { useEffect, useState } from 'react';
import { agreementCalls, type Agreement } from '#contract/agreements.ts';
import { formatMonths, formatPrice } from '#contract/facts.ts';
import { Loading, NoticeLine, useAction } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';
import { formatDay } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';

interface Props {
  strings: Strings<KeysUnder<'account.agreements' | 'api' | 'common'>>;
  locale: LocaleCode;
}

const stateBadge: Record<Agreement['State'], string> = { pending: 'badge-blue', active: 'badge-green', canceled: '', lapsed: 'badge-orange' };

export default function AccountAgreements({ strings, locale }: Props) {
  const t = translator(strings);
  const [agreements, setAgreements] = useState<Agreement[] | null>(null);
  const action = useAction(t);
  const load = () => void action.run(async () => setAgreements(await authCall(agreementCalls.list)));

  useEffect(load, []);
  if (!agreements) return action.notice ? <NoticeLine notice={action.notice} t={t} /> : <Loading text={t('common.loading')} />;

  async function cancel(agreement: Agreement) {
    if (!confirm(t('account.agreements.cancelConfirm'))) return;
    const ended = await action.run(() => authCall(agreementCalls.cancel, { params: { key: agreement.Key } }), t('account.agreements.canceled'));
    if (ended) setAgreements(agreements!.map((known) => (known.Key === ended.Key ? ended : known)));
  }

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
              {(agreement.State === 'active' || agreement.State === 'pending') && (
                <button type="button" className="button button-secondary button-small" disabled={action.busy} onClick={() => void cancel(agreement)}>
                  {t('account.agreements.cancel')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <NoticeLine notice={action.notice} t={t} />
    </div>
  );
}
