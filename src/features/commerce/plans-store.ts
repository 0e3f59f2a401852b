/**
 * The cloud-idling plans' logic, free of any framework: the membership
 * products, until when the customer's plan runs, and buying one — once (an
 * order) or with auto-renewal (an agreement whose first period is an order) —
 * which goes on to the pay page for that order.
 */
import { atom, onMount } from 'nanostores';
import { agreementCalls } from '#contract/agreements.ts';
import { commerceCalls, type Product } from '#contract/commerce.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import type { Call } from '@/lib/api/client.ts';
import { createAction } from '@/stores/action.ts';

export interface PlansEnvironment {
  /** Public calls (the catalogue). */
  call: Call;
  /** Calls as the logged-in user. */
  authCall: Call;
  location: { assign(url: string): void };
}

export function createPlans(env: PlansEnvironment, options: { locale: LocaleCode }) {
  const action = createAction();
  /** The membership products, once read. */
  const $plans = atom<Product[] | null>(null);
  /** Until when the customer's plan runs; null while unknown or when there is none. */
  const $until = atom<string | null>(null);

  onMount($plans, () => {
    void action.run(async () => $plans.set((await env.call(commerceCalls.products)).filter((product) => product.Kind === 'membership')));
    // Only a line beside the plans: without it they are still offered.
    env.authCall(commerceCalls.summary).then(
      (summary) => $until.set(summary.MembershipUntil),
      () => {},
    );
  });

  /** Goes on to the pay page for the new order. */
  const toPayment = (key: string) => env.location.assign(`${localizePath(options.locale, '/payment')}?key=${key}`);

  async function buy(plan: Product): Promise<void> {
    const order = await action.run(() => env.authCall(commerceCalls.createOrder, { body: { Product: plan.Code } }));
    if (order) toPayment(order.Key);
  }

  async function subscribe(plan: Product): Promise<void> {
    const started = await action.run(() => env.authCall(agreementCalls.create, { body: { Product: plan.Code } }));
    if (started) toPayment(started.Order.Key);
  }

  return { $plans, $until, $busy: action.$busy, $notice: action.$notice, buy, subscribe };
}
