/**
 * The cloud-idling plans (membership products): each with its period and
 * price, bought once (an order paid on the pay page) or with auto-renewal (an
 * agreement whose first period is paid, and signed, on the pay page). A plan
 * runs from payment; buying again adds to the time left.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { formatMonths, formatPrice } from '#contract/facts.ts';
import { NoticeLine } from '@/components/island.tsx';
import { formatDay } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { browserEnvironment } from './environment.ts';
import { createPlans } from './plans-store.ts';
import './Plans.css';

interface Props {
  strings: Strings<KeysUnder<'plans' | FailureMessageKey>>;
  locale: LocaleCode;
}

export default function Plans({ strings, locale }: Props) {
  const t = translator(strings);
  const [store] = useState(() => createPlans(browserEnvironment, { locale }));
  const plans = useStore(store.$plans);
  const until = useStore(store.$until);
  const busy = useStore(store.$busy);
  const notice = useStore(store.$notice);
  // Beside another island's live status, the plans wait quietly: no second status line while they load.
  if (!plans) return <NoticeLine notice={notice} t={t} />;

  return (
    <section className="card" aria-labelledby="plans-heading">
      <h2 id="plans-heading">{t('plans.title')}</h2>
      <p className="muted">{t('plans.intro')}</p>
      {until && <p data-plan-until>{t('plans.until', { date: formatDay(until, locale) })}</p>}
      <ul className="plan-grid">
        {plans.map((plan) => (
          <li key={plan.Code} className="plan" data-plan={plan.Code}>
            <strong>{t('plans.period', { period: formatMonths(plan.Months ?? 0, locale) })}</strong>
            <button type="button" className="button" disabled={busy} onClick={() => void store.buy(plan)}>
              {t('plans.buy', { price: formatPrice(plan.Price ?? 0, locale) })}
            </button>
            {plan.AutoRenew && (
              <button type="button" className="button button-secondary" disabled={busy} onClick={() => void store.subscribe(plan)}>
                {t('plans.subscribe')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {plans.some((plan) => plan.AutoRenew) && (
        <p className="muted">
          {t('plans.autoRenewNote')} <a href={localizePath(locale, '/account/center/agreements')}>{t('plans.manageAgreements')}</a>
        </p>
      )}
      <NoticeLine notice={notice} t={t} />
    </section>
  );
}
