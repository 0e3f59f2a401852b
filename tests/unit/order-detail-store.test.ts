/**
 * One order's page (src/features/account/order-detail-store.ts) in Node: the
 * key comes from the address, the order is read whenever following says it
 * may have changed, and an order that is not the account's is not found.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { commerceCalls, type OrderDetail } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { createOrderDetail } from '@/features/account/order-detail-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';

const key = 'O20260101000000000001';
const order = (State: OrderDetail['State']): OrderDetail => ({
  Key: key,
  State,
  Outcome: null,
  Item: { Kind: 'membership', Product: 'cloud-idle-monthly', Months: 1, Amount: null, Currency: null, RatePpm: null, SteamId: null },
  Price: 1500,
  Method: null,
  CreatedAt: '2026-01-01T00:00:00.000Z',
  ExpiresAt: '2026-01-01T00:15:00.000Z',
  Agreement: null,
  Timeline: [{ At: '2026-01-01T00:00:00.000Z', State: 'created', Note: 'created', Source: 'customer' }],
  PayWith: [],
});

/** A page at `search` whose order reads answer with `reply`; `changed()` is what following the order calls. */
function getTestEnvironment(search: string, reply: () => OrderDetail) {
  const calls: Array<{ route: ApiRoute; params: unknown }> = [];
  const call = vi.fn(async (route: ApiRoute, options?: { params?: unknown }) => {
    calls.push({ route, params: options?.params });
    return reply();
  });
  const following = { key: null as string | null, changed: () => {}, stopped: false };
  const followOrder = vi.fn((followed: string, changed: () => void) => {
    Object.assign(following, { key: followed, changed });
    return () => void (following.stopped = true);
  });
  return { env: { call: call as never, location: { search } }, followOrder, calls, following };
}

afterEach(() => {
  vi.useRealTimers();
});

const reads = (calls: Array<{ route: ApiRoute; params: unknown }>) => calls.filter((made) => made.route === commerceCalls.order);

describe('an order’s page', () => {
  it('follows the order of the address, reads it each time following says so, and lets go when nothing shows it', async () => {
    vi.useFakeTimers();
    let state: OrderDetail['State'] = 'created';
    const world = getTestEnvironment(`?key=${key}`, () => order(state));
    const store = createOrderDetail(world.env, world.followOrder);
    expect(world.followOrder).not.toHaveBeenCalled();

    const stop = store.$order.listen(() => {});
    expect(world.following.key).toBe(key);
    world.following.changed();
    await vi.waitFor(() => expect(store.$order.get()).toEqual(order('created')));
    expect(reads(world.calls)).toEqual([{ route: commerceCalls.order, params: { key } }]);

    state = 'paid';
    world.following.changed();
    await vi.waitFor(() => expect(store.$order.get()?.State).toBe('paid'));
    expect(store.$missing.get()).toBeNull();

    stop();
    // Nano Stores unmount a store a second after its last listener left.
    await vi.advanceTimersByTimeAsync(1000);
    expect(world.following.stopped).toBe(true);
  });

  it('says the address names no order, and follows none', () => {
    const world = getTestEnvironment('?other=1', () => order('created'));
    const store = createOrderDetail(world.env, world.followOrder);
    store.$order.listen(() => {});
    expect(store.$missing.get()).toBe('account.orderDetail.missing');
    expect(world.followOrder).not.toHaveBeenCalled();
  });

  it.each([ErrorCode.NotFound, ErrorCode.BadRequest])('says an order the server answers %i for is not found', async (code) => {
    const world = getTestEnvironment(`?key=${key}`, () => {
      throw new ApiFailure('server', { code, serverMessage: 'No such order.' });
    });
    const store = createOrderDetail(world.env, world.followOrder);
    store.$order.listen(() => {});
    world.following.changed();
    await vi.waitFor(() => expect(store.$missing.get()).toBe('account.orderDetail.notFound'));
    expect(store.$notice.get()).toBeNull();
  });

  it('says why the order could not be read otherwise, in the server’s words or ours', async () => {
    let failure = new ApiFailure('server', { code: 500, serverMessage: 'The server is busy.' });
    const world = getTestEnvironment(`?key=${key}`, () => {
      throw failure;
    });
    const store = createOrderDetail(world.env, world.followOrder);
    store.$order.listen(() => {});
    world.following.changed();
    await vi.waitFor(() => expect(store.$notice.get()).toEqual({ kind: 'error', text: 'The server is busy.' }));
    failure = new ApiFailure('network');
    world.following.changed();
    await vi.waitFor(() => expect(store.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' }));
    expect(store.$order.get()).toBeNull();
    expect(store.$missing.get()).toBeNull();
  });
});
