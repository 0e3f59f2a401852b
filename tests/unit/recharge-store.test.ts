/**
 * The Steam wallet recharge form (src/features/commerce/recharge-store.ts) in
 * Node: the products read publicly, the amount and the Steam account checked
 * in the order the customer meets them, the price, and the new order, which
 * goes on to the pay page.
 */
import { describe, expect, it } from 'vitest';
import { commerceCalls, type Product } from '#contract/commerce.ts';
import { createRechargeForm } from '@/features/commerce/recharge-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { getCommerceWorld, order, user } from './commerce-world.ts';

const product = (code: string, currency: string, presets: number[]): Product => ({
  Code: code,
  Kind: 'steamRecharge',
  Months: null,
  Price: null,
  Currency: currency,
  Region: currency === 'USD' ? 'US' : 'CN',
  RatePpm: currency === 'USD' ? 7_300_000 : 1_000_000,
  Presets: presets,
  MinAmount: 100,
  MaxAmount: 50_000,
  AutoRenew: false,
});
const membership: Product = { ...product('idle-1m', 'CNY', []), Kind: 'membership', Months: 1, Price: 1500, Currency: null, RatePpm: null };
const steamAccount = { Id: 1, Provider: 'steam', Subject: '76561197960287930', DisplayName: 'gaben', BoundAt: '2026-01-01T00:00:00.000Z' };

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

async function openForm(options: { linked?: boolean } = {}) {
  const world = getCommerceWorld();
  world.env.session.$user.set({ ...user, ExternalAccounts: options.linked ? [steamAccount] : [] });
  world.replies.set(commerceCalls.products, () => [membership, product('steam-usd', 'USD', [500, 1000, 2000]), product('steam-cny', 'CNY', [3000])]);
  const form = createRechargeForm(world.env, { locale: 'en' });
  form.$choice.listen(() => {});
  form.$products.listen(() => {});
  await flush();
  return { world, form };
}

describe('the recharge form', () => {
  it('offers the recharge products, the first with its first preset, and prices it at the product’s rate', async () => {
    const { world, form } = await openForm();
    expect(world.calls).toEqual([{ route: commerceCalls.products, params: undefined, body: undefined, auth: false }]);
    expect(form.$products.get()?.map(({ Code }) => Code)).toEqual(['steam-usd', 'steam-cny']);
    expect(form.$code.get()).toBe('steam-usd');
    expect(form.$preset.get()).toBe(500);
    expect(form.$choice.get()).toMatchObject({ amount: 500, amountOk: true, price: 3650, linked: false, steam: null });
  });

  it('takes a custom amount within the bounds, and rounds its price up', async () => {
    const { form } = await openForm();
    form.$preset.set(null);
    form.$custom.set('12.35');
    expect(form.$choice.get()).toMatchObject({ amount: 1235, amountOk: true, price: 9016 });
    form.$custom.set('0.99');
    expect(form.$choice.get()).toMatchObject({ amount: 99, amountOk: false, price: null });
    form.$custom.set('twelve');
    expect(form.$choice.get()).toMatchObject({ amount: null, amountOk: false });
  });

  it('starts another currency at its first preset, with nothing typed', async () => {
    const { form } = await openForm();
    form.$preset.set(null);
    form.$custom.set('7');
    form.selectProduct('steam-cny');
    expect(form.$code.get()).toBe('steam-cny');
    expect(form.$preset.get()).toBe(3000);
    expect(form.$custom.get()).toBe('');
    expect(form.$choice.get()).toMatchObject({ amount: 3000, price: 3000 });
  });

  it('says why the products could not be read', async () => {
    const world = getCommerceWorld();
    world.replies.set(commerceCalls.products, () => Promise.reject(new ApiFailure('network')));
    const form = createRechargeForm(world.env, { locale: 'en' });
    form.$products.listen(() => {});
    await flush();
    expect(form.$products.get()).toBeNull();
    expect(form.$choice.get()).toBeNull();
    expect(form.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });
});

describe('checks before the order is made', () => {
  it('refuses an amount out of bounds, naming the bounds in the wallet’s currency', async () => {
    const { world, form } = await openForm({ linked: true });
    form.$preset.set(null);
    form.$custom.set('500.01');
    await form.submit();
    expect(form.$notice.get()).toEqual({ kind: 'error', key: 'recharge.amountInvalid', params: { min: 'US$1', max: 'US$500' } });
    expect(world.calls).toHaveLength(1);
  });

  it('asks for a Steam account without a linked one, and for a valid one when another is typed', async () => {
    const unlinked = await openForm();
    await unlinked.form.submit();
    expect(unlinked.form.$notice.get()).toEqual({ kind: 'error', key: 'recharge.noLinked' });

    const linked = await openForm({ linked: true });
    linked.form.$toLinked.set(false);
    linked.form.$target.set('https://example.com/tradeoffer/new/?partner=22202&token=abcdefgh');
    await linked.form.submit();
    expect(linked.form.$notice.get()).toEqual({ kind: 'error', key: 'recharge.targetInvalid' });
    expect([...unlinked.world.calls, ...linked.world.calls].map(({ route }) => route)).not.toContain(commerceCalls.createOrder);
  });
});

describe('making the order', () => {
  it('recharges the linked account and goes on to pay the order', async () => {
    const { world, form } = await openForm({ linked: true });
    world.replies.set(commerceCalls.createOrder, () => order);
    form.$preset.set(1000);
    const making = form.submit();
    expect(form.$busy.get()).toBe(true);
    await making;
    expect(world.calls.at(-1)).toEqual({ route: commerceCalls.createOrder, params: undefined, body: { Product: 'steam-usd', Amount: 1000 }, auth: true });
    expect(world.env.location.assign).toHaveBeenCalledWith(`/en/payment?key=${order.Key}`);
  });

  it('recharges the account typed, as typed but trimmed', async () => {
    const { world, form } = await openForm();
    world.replies.set(commerceCalls.createOrder, () => order);
    form.$target.set('  22202 ');
    expect(form.$choice.get()?.steamId).toBe('76561197960287930');
    await form.submit();
    expect(world.calls.at(-1)?.body).toEqual({ Product: 'steam-usd', Amount: 500, Target: '22202' });
  });

  it('stays on the form with the server’s words, or our message for a network failure', async () => {
    const { world, form } = await openForm({ linked: true });
    world.replies.set(commerceCalls.createOrder, () =>
      Promise.reject(new ApiFailure('server', { code: 400, serverMessage: 'This Steam account cannot receive gifts' })),
    );
    await form.submit();
    expect(form.$notice.get()).toEqual({ kind: 'error', text: 'This Steam account cannot receive gifts' });
    world.replies.set(commerceCalls.createOrder, () => Promise.reject(new ApiFailure('network')));
    await form.submit();
    expect(form.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    expect(world.env.location.assign).not.toHaveBeenCalled();
  });
});
