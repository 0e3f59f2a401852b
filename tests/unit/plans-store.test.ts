/**
 * The cloud-idling plans (src/features/commerce/plans-store.ts) in Node: the
 * membership products read publicly, the plan's end read as the user, and
 * buying once or with auto-renewal, which goes on to the pay page.
 */
import { describe, expect, it } from 'vitest';
import { agreementCalls } from '#contract/agreements.ts';
import { commerceCalls, type Product } from '#contract/commerce.ts';
import { createPlans } from '@/features/commerce/plans-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { getCommerceWorld, order } from './commerce-world.ts';

const plan = (code: string, months: number, autoRenew = false): Product => ({
  Code: code,
  Kind: 'membership',
  Months: months,
  Price: 1500 * months,
  Currency: null,
  Region: null,
  RatePpm: null,
  Presets: [],
  MinAmount: null,
  MaxAmount: null,
  AutoRenew: autoRenew,
});
const recharge: Product = { ...plan('steam-usd', 1), Kind: 'steamRecharge', Months: null, Price: null, Currency: 'USD', RatePpm: 7_300_000 };

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

async function openPlans(world = getCommerceWorld(), locale: 'en' | 'zh-CN' = 'en') {
  world.replies.set(commerceCalls.products, () => [recharge, plan('idle-1m', 1, true), plan('idle-12m', 12)]);
  if (!world.replies.has(commerceCalls.summary)) world.replies.set(commerceCalls.summary, () => ({ Balance: 0, MembershipUntil: '2026-03-01T00:00:00.000Z' }));
  const plans = createPlans(world.env, { locale });
  plans.$plans.listen(() => {});
  await flush();
  return { world, plans };
}

describe('the cloud-idling plans', () => {
  it('offers the membership products and says until when the plan runs', async () => {
    const { world, plans } = await openPlans();
    expect(plans.$plans.get()?.map((offered) => offered.Code)).toEqual(['idle-1m', 'idle-12m']);
    expect(plans.$until.get()).toBe('2026-03-01T00:00:00.000Z');
    expect(world.calls.map(({ route, auth }) => ({ route, auth }))).toEqual([
      { route: commerceCalls.products, auth: false },
      { route: commerceCalls.summary, auth: true },
    ]);
  });

  it('offers the plans all the same when the plan’s end cannot be read', async () => {
    const world = getCommerceWorld();
    world.replies.set(commerceCalls.summary, () => Promise.reject(new ApiFailure('network')));
    const { plans } = await openPlans(world);
    expect(plans.$plans.get()).toHaveLength(2);
    expect(plans.$until.get()).toBeNull();
    expect(plans.$notice.get()).toBeNull();
  });

  it('says why the plans could not be read', async () => {
    const world = getCommerceWorld();
    world.replies.set(commerceCalls.summary, () => ({ Balance: 0, MembershipUntil: null }));
    const plans = createPlans(world.env, { locale: 'en' });
    world.replies.set(commerceCalls.products, () => Promise.reject(new ApiFailure('network')));
    plans.$plans.listen(() => {});
    await flush();
    expect(plans.$plans.get()).toBeNull();
    expect(plans.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });

  it('buys a plan once and goes on to pay its order, in the page’s language', async () => {
    const { world, plans } = await openPlans(undefined, 'zh-CN');
    world.replies.set(commerceCalls.createOrder, () => order);
    await plans.buy(plans.$plans.get()![1]!);
    expect(world.calls.at(-1)).toEqual({ route: commerceCalls.createOrder, params: undefined, body: { Product: 'idle-12m' }, auth: true });
    expect(world.env.location.assign).toHaveBeenCalledWith(`/payment?key=${order.Key}`);
  });

  it('starts an auto-renewal agreement and goes on to pay its first period', async () => {
    const { world, plans } = await openPlans();
    world.replies.set(agreementCalls.create, () => ({ Agreement: {}, Order: { ...order, Key: 'BT-FIRST-PERIOD', Agreement: 'AG1' } }));
    await plans.subscribe(plans.$plans.get()![0]!);
    expect(world.calls.at(-1)).toMatchObject({ route: agreementCalls.create, body: { Product: 'idle-1m' }, auth: true });
    expect(world.env.location.assign).toHaveBeenCalledWith('/en/payment?key=BT-FIRST-PERIOD');
  });

  it('stays on the page with the server’s words when buying is refused', async () => {
    const { world, plans } = await openPlans();
    world.replies.set(commerceCalls.createOrder, () => Promise.reject(new ApiFailure('server', { code: 4022, serverMessage: 'Shop closed for maintenance' })));
    await plans.buy(plans.$plans.get()![0]!);
    expect(plans.$notice.get()).toEqual({ kind: 'error', text: 'Shop closed for maintenance' });
    expect(world.env.location.assign).not.toHaveBeenCalled();
    expect(plans.$busy.get()).toBe(false);
  });
});
