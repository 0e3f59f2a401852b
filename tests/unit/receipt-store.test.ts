/**
 * A paid order's receipt page (src/features/account/receipt-store.ts) in
 * Node: the key comes from the address, the receipt is read once the page
 * shows it, and an order with no receipt for this account is "no receipt".
 */
import { describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { commerceCalls, type Receipt } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { createReceipt } from '@/features/account/receipt-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';

const key = '20260101000000000001';
const receipt: Receipt = {
  Seller: { Name: 'Beacon Ltd.', Address: null, TaxId: '91310000TEST00000X', Contact: null },
  Key: key,
  State: 'paid',
  Item: { Kind: 'membership', Product: 'cloud-idle-monthly', Months: 1, Amount: null, Currency: null, RatePpm: null, SteamId: null },
  Price: 1500,
  Method: 'alipay',
  PaidAt: '2026-01-01T00:05:00.000Z',
  Transaction: '2026010122001400000000000001',
  Refunded: 0,
};

/** A page at `search` whose receipt reads answer with `reply`. */
function getTestEnvironment(search: string, reply: () => Receipt) {
  const calls: Array<{ route: ApiRoute; params: unknown }> = [];
  const call = vi.fn(async (route: ApiRoute, options?: { params?: unknown }) => {
    calls.push({ route, params: options?.params });
    return reply();
  });
  return { env: { call: call as never, location: { search } }, calls };
}

describe('a receipt’s page', () => {
  it('reads the receipt of the address’s order once the page shows it, and keeps the key for the way back', async () => {
    const world = getTestEnvironment(`?key=${key}`, () => receipt);
    const store = createReceipt(world.env);
    expect(world.calls).toEqual([]);
    store.$receipt.listen(() => {});
    await vi.waitFor(() => expect(store.$receipt.get()).toEqual(receipt));
    expect(world.calls).toEqual([{ route: commerceCalls.receipt, params: { key } }]);
    expect(store.key).toBe(key);
    expect(store.$missing.get()).toBeNull();
  });

  it('says the address names no order, and asks for nothing', () => {
    const world = getTestEnvironment('?other=1', () => receipt);
    const store = createReceipt(world.env);
    store.$receipt.listen(() => {});
    expect(store.$missing.get()).toBe('account.receipt.missing');
    expect(world.calls).toEqual([]);
  });

  it.each([ErrorCode.NotFound, ErrorCode.BadRequest])(
    'says there is no receipt when the server answers %i: unpaid, unknown or not this account’s',
    async (code) => {
      const world = getTestEnvironment(`?key=${key}`, () => {
        throw new ApiFailure('server', { code, serverMessage: 'This order has not been paid, so it has no receipt.' });
      });
      const store = createReceipt(world.env);
      store.$receipt.listen(() => {});
      await vi.waitFor(() => expect(store.$missing.get()).toBe('account.receipt.notFound'));
      expect(store.$notice.get()).toBeNull();
    },
  );

  it('says why the receipt could not be read otherwise, in the server’s words or ours', async () => {
    let failure = new ApiFailure('server', { code: 500, serverMessage: 'The server is busy.' });
    const world = getTestEnvironment(`?key=${key}`, () => {
      throw failure;
    });
    const store = createReceipt(world.env);
    const stop = store.$receipt.listen(() => {});
    await vi.waitFor(() => expect(store.$notice.get()).toEqual({ kind: 'error', text: 'The server is busy.' }));
    expect(store.$receipt.get()).toBeNull();
    stop();

    failure = new ApiFailure('network');
    const again = createReceipt(world.env);
    again.$receipt.listen(() => {});
    await vi.waitFor(() => expect(again.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' }));
    expect(again.$missing.get()).toBeNull();
  });
});
