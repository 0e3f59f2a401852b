/**
 * The account centre's paged lists (src/features/account/paged-list-store.ts)
 * in Node: the first page loads when the list is first shown, another page on
 * request, and a failure keeps the page on show and says why.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activationCalls } from '#contract/activation.ts';
import type { ApiRoute } from '#contract/api.ts';
import { commerceCalls } from '#contract/commerce.ts';
import { createOrderList } from '@/features/account/orders-store.ts';
import { createPagedList, type ListPage } from '@/features/account/paged-list-store.ts';
import { createRedemptionList } from '@/features/account/redemptions-store.ts';
import { createWallet } from '@/features/account/wallet-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';

/** A page of a list of 30 numbered items, 24 a page. */
const pageOf = (page: number) => ({ Items: Array.from({ length: 30 }, (_, i) => i + 1).slice((page - 1) * 24, page * 24), Total: 30, Page: page });

/** A world whose calls answer with `reply`, remembering each route and its parameters. */
function getTestEnvironment(reply: (page: number) => unknown = pageOf) {
  const calls: Array<{ route: ApiRoute; params: unknown }> = [];
  const call = vi.fn(async (route: ApiRoute, options?: { params?: { page?: number } }) => {
    calls.push({ route, params: options?.params });
    return reply(options?.params?.page ?? 0);
  });
  return { env: { call: call as never }, calls };
}

/** A list as an island shows it: mounted, its first load done. */
async function shown<P extends ListPage>(list: ReturnType<typeof createPagedList<P>>) {
  const stop = list.$page.listen(() => {});
  await vi.waitFor(() => expect(list.$busy.get()).toBe(false));
  return stop;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a paged list', () => {
  it('loads nothing until shown, then the first page, then the page asked for', async () => {
    const world = getTestEnvironment();
    const list = createOrderList(world.env);
    expect(world.calls).toEqual([]);
    expect(list.$page.get()).toBeNull();

    const stop = await shown(list);
    expect(world.calls).toEqual([{ route: commerceCalls.orders, params: { page: 1 } }]);
    expect(list.$page.get()).toEqual(pageOf(1));
    expect(list.$notice.get()).toBeNull();

    const going = list.show(2);
    expect(list.$busy.get()).toBe(true);
    await going;
    expect(world.calls.at(-1)).toEqual({ route: commerceCalls.orders, params: { page: 2 } });
    expect(list.$page.get()).toEqual(pageOf(2));
    expect(list.$busy.get()).toBe(false);
    stop();
  });

  it('says why the first page did not load, and shows none', async () => {
    const world = getTestEnvironment(() => {
      throw new ApiFailure('network');
    });
    const list = createOrderList(world.env);
    const stop = await shown(list);
    expect(list.$page.get()).toBeNull();
    expect(list.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    stop();
  });

  it('keeps the page on show when another fails, in the server’s words, and clears them once a page loads', async () => {
    let refuse = false;
    const world = getTestEnvironment((page) => {
      if (refuse) throw new ApiFailure('server', { code: 1, serverMessage: 'Too many pages asked for.' });
      return pageOf(page);
    });
    const list = createOrderList(world.env);
    const stop = await shown(list);

    refuse = true;
    await list.show(2);
    expect(list.$page.get()).toEqual(pageOf(1));
    expect(list.$notice.get()).toEqual({ kind: 'error', text: 'Too many pages asked for.' });

    refuse = false;
    await list.show(2);
    expect(list.$page.get()).toEqual(pageOf(2));
    expect(list.$notice.get()).toBeNull();
    stop();
  });

  it('loads the first page again when shown again after nothing showed it', async () => {
    const world = getTestEnvironment();
    const list = createOrderList(world.env);
    const stop = await shown(list);
    await list.show(2);
    stop();
    // Nano Stores unmount a store a second after its last listener left.
    await vi.advanceTimersByTimeAsync(1000);
    await shown(list);
    expect(world.calls.map((made) => made.params)).toEqual([{ page: 1 }, { page: 2 }, { page: 1 }]);
  });

  it('reads the wallet and the redemptions from their own routes', async () => {
    const world = getTestEnvironment();
    await shown(createWallet(world.env));
    await shown(createRedemptionList(world.env));
    expect(world.calls).toEqual([
      { route: commerceCalls.wallet, params: { page: 1 } },
      { route: activationCalls.redemptions, params: { page: 1 } },
    ]);
  });
});
