/**
 * The reviews of a plugin page (src/stores/plugins.ts) as a list read by
 * scrolling: pages of the request helper's size, one after the
 * other, none twice; a new order starts again; a failure can be tried again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadMore } from '#contract/paging.ts';
import { pluginRules, type Evaluation } from '#contract/plugins.ts';

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
  const stores = pluginStores(slug, { call: api.call, authCall: api.call });
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

/**
 * The reviews' own logic (src/features/plugins/plugin-reviews-store.ts): the
 * user's review written, edited and deleted, and someone else's reported.
 */
describe('the user’s own review and reports', () => {
  const rating = { Plugin: 'authenticator', Count: 1, Average: 4, Stars: [0, 0, 0, 1, 0] };
  const mine = (stars: number, text: string) => ({ ...review(99), Rating: stars, Text: text, Hidden: false });
  const nothingOwn = { Evaluation: null, Helpful: [], Reported: [] };

  type Replies = Record<string, (options: { body?: unknown }) => unknown>;
  /** A logged-in page's reviews in a fresh module world, answering per route name (`replies` gets that world's ApiFailure to throw). */
  async function ownReviewOf(repliesIn: (failure: typeof import('@/lib/api/errors.ts').ApiFailure) => Replies) {
    vi.resetModules();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => (key === 'beacon.auth' ? JSON.stringify({ AccessToken: 'access', ExpiresIn: Date.now() + 3_600_000 }) : null),
      setItem() {},
      removeItem() {},
    });
    const { pluginCalls } = await import('#contract/plugins.ts');
    const { ApiFailure } = await import('@/lib/api/errors.ts');
    const { createPluginReviews } = await import('@/features/plugins/plugin-reviews-store.ts');
    const replies = repliesIn(ApiFailure);
    const names = new Map(Object.entries(pluginCalls).map(([name, route]) => [route, name]));
    api.call.mockImplementation(async (route, options = {}) => {
      const reply = replies[names.get(route)!];
      if (!reply) return names.get(route) === 'evaluations' ? pageOf(1) : rating;
      return reply(options);
    });
    const reviews = createPluginReviews({ call: api.call, authCall: api.call }, 'authenticator');
    for (const store of [reviews.$own, reviews.$reviews, reviews.$notice]) store.listen(() => {});
    await vi.waitFor(() => expect(reviews.$own.get().data).toBeDefined());
    return { reviews };
  }

  it('asks for stars before publishing, then publishes the text with them and closes the form', async () => {
    const save = vi.fn(({ body }: { body?: unknown }) => ({ Own: { ...nothingOwn, Evaluation: mine(4, 'Works well') }, Rating: rating, body }));
    const { reviews } = await ownReviewOf(() => ({ own: () => nothingOwn, save }));
    reviews.$text.set('Works well');
    await reviews.submit();
    expect(reviews.$notice.get()).toEqual({ kind: 'error', key: 'plugin.chooseRating' });
    expect(save).not.toHaveBeenCalled();

    reviews.$stars.set(4);
    await reviews.submit();
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ body: { Rating: 4, Text: 'Works well' } }));
    expect(reviews.$notice.get()).toEqual({ kind: 'ok', key: 'plugin.published' });
    await vi.waitFor(() => expect(reviews.$own.get().data?.Evaluation?.Text).toBe('Works well'));
    expect(reviews.$editing.get()).toBe(false);
  });

  it('opens the review to edit with its stars and text, and keeps the form open when saving fails', async () => {
    const { reviews } = await ownReviewOf((ApiFailure) => ({
      own: () => ({ ...nothingOwn, Evaluation: mine(3, 'Fine') }),
      save: () => {
        throw new ApiFailure('server', { code: 1, serverMessage: 'You review too often' });
      },
    }));
    reviews.edit();
    expect([reviews.$editing.get(), reviews.$stars.get(), reviews.$text.get()]).toEqual([true, 3, 'Fine']);
    expect(reviews.$left.get()).toBe(pluginRules.textMaxLength - 4);
    await reviews.submit();
    expect(reviews.$notice.get()).toEqual({ kind: 'error', text: 'You review too often' });
    expect(reviews.$editing.get()).toBe(true);
    reviews.cancel();
    expect(reviews.$editing.get()).toBe(false);
  });

  it('deletes the review, and the form then starts a new one from nothing; a failed delete keeps it', async () => {
    const { reviews } = await ownReviewOf((ApiFailure) => ({
      own: () => ({ ...nothingOwn, Evaluation: mine(3, 'Fine') }),
      remove: () => {
        throw new ApiFailure('network');
      },
    }));
    reviews.edit();
    await reviews.remove();
    expect(reviews.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    expect(reviews.$stars.get()).toBe(3);

    const { pluginCalls } = await import('#contract/plugins.ts');
    api.call.mockImplementation(async (route) => (route === pluginCalls.remove ? { Own: nothingOwn, Rating: rating } : pageOf(1)));
    await reviews.remove();
    expect(reviews.$notice.get()).toEqual({ kind: 'ok', key: 'plugin.deleted' });
    expect([reviews.$stars.get(), reviews.$text.get()]).toEqual([0, '']);
    await vi.waitFor(() => expect(reviews.$own.get().data?.Evaluation).toBeNull());
  });

  it('reports someone else’s review with the reason chosen, says so and closes the report form', async () => {
    const report = vi.fn(() => ({}));
    const { reviews } = await ownReviewOf(() => ({ own: () => nothingOwn, report }));
    const actions = reviews.reviewActions(5);
    actions.toggleReport();
    actions.$reason.set('offensive');
    await actions.sendReport();
    expect(report).toHaveBeenCalledWith(expect.objectContaining({ params: { id: 5 }, body: { Reason: 'offensive' } }));
    expect(actions.$notice.get()).toEqual({ kind: 'ok', key: 'plugin.reportSent' });
    expect(actions.$reporting.get()).toBe(false);
    await vi.waitFor(() => expect(reviews.$own.get().data?.Reported).toEqual([5]));
  });

  it('shows why the reviews could not be read', async () => {
    const { reviews } = await ownReviewOf((ApiFailure) => ({
      own: () => nothingOwn,
      evaluations: () => {
        throw new ApiFailure('network');
      },
    }));
    await vi.waitFor(() => expect(reviews.$listFailure.get()).toEqual({ kind: 'error', key: 'messages.networkError' }));
  });
});
