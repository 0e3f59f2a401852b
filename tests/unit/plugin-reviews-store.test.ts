/**
 * The reviews of a plugin page (src/stores/plugins.ts) as a list read by
 * scrolling: pages of the request helper's size, one after the
 * other, none twice; a new order starts again; a failure can be tried again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadMore } from '#contract/paging.ts';
import type { Evaluation } from '#contract/plugins.ts';

const api = vi.hoisted(() => ({ call: vi.fn() }));
vi.mock('@/lib/api/client.ts', () => ({ call: api.call, onUnauthorized: () => () => {} }));

const review = (id: number) =>
  ({ Id: id, Plugin: 'authenticator', Rating: 5, Text: '', Locale: 'en', Author: `Player ${id}`, Helpful: 0 }) as unknown as Evaluation;
/** The server's answer: 23 reviews, newest first, `loadMore.pageSize` a page. */
const total = 23;
const pageOf = (page: number, shift = 0) => ({
  Items: Array.from({ length: total }, (_, i) => review(total + shift - i)).slice((page - 1) * loadMore.pageSize, page * loadMore.pageSize),
  Total: total + shift,
  Page: page,
});

beforeEach(() => {
  vi.stubGlobal('localStorage', { getItem: () => null, setItem() {}, removeItem() {} });
  api.call.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

async function reviewsOf(slug = 'authenticator') {
  vi.resetModules();
  const { pluginStores } = await import('@/stores/plugins.ts');
  const stores = pluginStores(slug);
  const stop = stores.$reviews.listen(() => {});
  await vi.waitFor(() => expect(stores.$reviews.get().loading).toBe(false));
  return { stores, stop };
}

describe('plugin reviews, read by scrolling', () => {
  it('loads a page at a time and appends it, then stops at the end', async () => {
    api.call.mockImplementation(async (_route, { params }) => pageOf(params.page));
    const { stores, stop } = await reviewsOf();
    expect(stores.$reviews.get()).toMatchObject({ pages: 1, total });
    expect(stores.$reviews.get().items).toHaveLength(loadMore.pageSize);
    await stores.loadMoreReviews();
    await stores.loadMoreReviews();
    expect(stores.$reviews.get().items.map((item) => item.Id)).toEqual(Array.from({ length: total }, (_, i) => total - i));
    await stores.loadMoreReviews();
    expect(api.call).toHaveBeenCalledTimes(3);
    stop();
  });

  it('shows no review twice when one was written while reading, and starts again for another order', async () => {
    let shift = 0;
    api.call.mockImplementation(async (_route, { params }) => pageOf(params.page, shift));
    const { stores, stop } = await reviewsOf();
    shift = 1; // a new review: everything moves down a place
    await stores.loadMoreReviews();
    const ids = stores.$reviews.get().items.map((item) => item.Id);
    expect(new Set(ids).size).toBe(ids.length);
    stores.$sort.set('newest');
    await vi.waitFor(() => expect(stores.$reviews.get()).toMatchObject({ pages: 1, loading: false }));
    expect(api.call).toHaveBeenLastCalledWith(expect.anything(), expect.objectContaining({ params: { slug: 'authenticator', sort: 'newest', page: 1 } }));
    stop();
  });

  it('keeps what it shows when a page fails, and the next try asks for that page again', async () => {
    api.call.mockImplementation(async (_route, { params }) => pageOf(params.page));
    const { stores, stop } = await reviewsOf();
    api.call.mockRejectedValueOnce(new Error('offline'));
    await stores.loadMoreReviews();
    expect(stores.$reviews.get()).toMatchObject({ pages: 1, loading: false, failure: expect.any(Error) });
    expect(stores.$reviews.get().items).toHaveLength(loadMore.pageSize);
    await stores.loadMoreReviews();
    expect(stores.$reviews.get()).toMatchObject({ pages: 2, failure: null });
    stop();
  });
});
