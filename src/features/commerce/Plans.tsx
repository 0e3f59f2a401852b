/**
 * The cloud-idling plans (membership products): each with its period and
 * price, bought once (an order paid on the pay page) or with auto-renewal (an
 * agreement whose first period is paid, and signed, on the pay page). A plan
 * runs from payment; buying again adds to the time left.
 */
import { useEffect, useState } from 'react';
import { agreementCalls } from '#contract/agreements.ts';
import { commerceCalls, type Product } from '#contract/commerce.ts';
import { formatMonths, formatPrice } from '#contract/facts.ts';
import { authCall, NoticeLine, useAction } from '@/components/island.tsx';
import { formatDay } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { call } from '@/lib/api/client.ts';
import './Plans.css';

interface Props {
  strings: Strings<KeysUnder<'plans' | 'api'>>;
  locale: LocaleCode;
}

export default function Plans({ strings, locale }: Props) {
  const t = translator(strings);
  const [plans, setPlans] = useState<Product[] | null>(null);
  const [until, setUntil] = useState<string | null>(null);
  const action = useAction(t);

  useEffect(() => {
    void action.run(async () => setPlans((await call(commerceCalls.products)).filter((product) => product.Kind === 'membership')));
    authCall(commerceCalls.summary).then(
      (summary) => setUntil(summary.MembershipUntil),
      () => {},
    );
  }, []);
  // Beside another island's live status, the plans wait quietly: no second status line while they load.
  if (!plans) return <NoticeLine notice={action.notice} />;

  async function buy(plan: Product) {
    const order = await action.run(() => authCall(commerceCalls.createOrder, { body: { Product: plan.Code } }));
    if (order) location.assign(`${localizePath(locale, '/payment')}?key=${order.Key}`);
  }

  async function subscribe(plan: Product) {
    const started = await action.run(() => authCall(agreementCalls.create, { body: { Product: plan.Code } }));
    if (started) location.assign(`${localizePath(locale, '/payment')}?key=${started.Order.Key}`);
  }

  return (
    <section className="card" aria-labelledby="plans-heading">
      <h2 id="plans-heading">{t('plans.title')}</h2>
      <p className="muted">{t('plans.intro')}</p>
      {until && <p data-plan-until>{t('plans.until', { date: formatDay(until, locale) })}</p>}
      <ul className="plan-grid">
        {plans.map((plan) => (
          <li key={plan.Code} className="plan" data-plan={plan.Code}>
            <strong>{t('plans.period', { period: formatMonths(plan.Months ?? 0, locale) })}</strong>
            <button type="button" className="button" disabled={action.busy} onClick={() => void buy(plan)}>
              {t('plans.buy', { price: formatPrice(plan.Price ?? 0, locale) })}
            </button>
            {plan.AutoRenew && (
              <button type="button" className="button button-secondary" disabled={action.busy} onClick={() => void subscribe(plan)}>
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
      <NoticeLine notice={action.notice} />
    </section>
  );
}
