/**
 * The plugin data sets — the list (every plugin's rating), one
 * plugin's default evaluation (its rating), its reviews (the detail), and the
 * user's own evaluation. The ratings and the own evaluation are fetcher stores
 * kept for `pluginCacheMs`; the reviews are a list read by scrolling, which
 * loads more as its end comes near. Whatever the user changes is
 * written into these at once, so their own page never shows the state before
 * their change. The API comes in as a `PluginApi`, so tests drive them in Node.
 */
import { atom, onMount } from 'nanostores';
import { pluginCacheMs, pluginCalls, type Evaluation, type EvaluationSort, type OwnEvaluation, type Rating, type ReportReason } from '#contract/plugins.ts';
import type { Call } from '@/lib/api/client.ts';
import { createFetcherStore, invalidateKeys, mutateCache } from '@/lib/api/query.ts';
import { $pluginRatings, listKey } from './plugin-ratings.ts';
import { $tokenKey } from './session.ts';

/** How the plugin stores reach the API: `call` for what anyone may read, `authCall` with the user's token (in the browser, session.ts's). */
export interface PluginApi {
  call: Call;
  authCall: Call;
}

/** The reviews shown: the pages loaded so far, one after the other. */
export interface ReviewList {
  items: Evaluation[];
  total: number;
  /** How many pages are shown. */
  pages: number;
  loading: boolean;
  /** Why the last load failed, until the next one starts. */
  failure: unknown;
}

/** What one plugin's page shows about its reviews, and what the user can do there. */
export function pluginStores(slug: string, { call, authCall }: PluginApi) {
  const ratingKey = `plugin-rating:${slug}`;
  const ownPrefix = `plugin-own:${slug}:`;

  const $rating = createFetcherStore<Rating>([ratingKey], {
    fetcher: () => call(pluginCalls.rating, { params: { slug }, fresh: true }),
    dedupeTime: pluginCacheMs.rating,
  });

  const $sort = atom<EvaluationSort>('helpful');
  const $reviews = atom<ReviewList>({ items: [], total: 0, pages: 0, loading: true, failure: null });
  /** Each load's turn: an answer for an older sort or list is dropped. */
  let turn = 0;

  async function loadPage(page: number, keep: Evaluation[]): Promise<void> {
    const mine = ++turn;
    $reviews.set({ ...$reviews.get(), items: keep, loading: true, failure: null });
    try {
      const answer = await call(pluginCalls.evaluations, { params: { slug, sort: $sort.get(), page }, fresh: true });
      if (mine !== turn) return;
      const seen = new Set(keep.map((item) => item.Id));
      // A review written meanwhile moves the rest down a place: one seen already is not shown twice.
      const items = [...keep, ...answer.Items.filter((item) => !seen.has(item.Id))];
      $reviews.set({ items, total: answer.Total, pages: page, loading: false, failure: null });
    } catch (failure) {
      if (mine === turn) $reviews.set({ ...$reviews.get(), loading: false, failure });
    }
  }

  /** The first page again, in the chosen order (a new order, or a change of the user's). */
  const reloadReviews = () => loadPage(1, []);

  /** The next page, after those shown; nothing while one is loading or when all are shown. */
  function loadMoreReviews(): Promise<void> {
    const list = $reviews.get();
    if (list.loading || (list.pages > 0 && list.items.length >= list.total)) return Promise.resolve();
    return list.pages === 0 ? reloadReviews() : loadPage(list.pages + 1, list.items);
  }

  onMount($reviews, () => {
    void reloadReviews();
    return $sort.listen(() => void reloadReviews());
  });

  const $own = createFetcherStore<OwnEvaluation>([ownPrefix, $tokenKey], {
    fetcher: () => authCall(pluginCalls.own, { params: { slug }, fresh: true }),
    dedupeTime: pluginCacheMs.own,
    refreshOnFocus: false,
  });

  const keepOwn = (own: OwnEvaluation) => mutateCache(`${ownPrefix}${$tokenKey.get()}`, own);

  /** A new aggregate reaches this page's rating and the list's, and the review lists load again. */
  function changed(rating: Rating): void {
    mutateCache(ratingKey, rating);
    const list = $pluginRatings.get().data;
    if (list)
      mutateCache(
        listKey,
        list.map((item) => (item.Plugin === slug ? rating : item)),
      );
    else invalidateKeys(listKey);
    void reloadReviews();
  }

  async function save(rating: number, text: string): Promise<OwnEvaluation> {
    const answer = await authCall(pluginCalls.save, { params: { slug }, body: { Rating: rating, Text: text } });
    keepOwn(answer.Own);
    changed(answer.Rating);
    return answer.Own;
  }

  async function remove(): Promise<void> {
    const answer = await authCall(pluginCalls.remove, { params: { slug } });
    keepOwn(answer.Own);
    changed(answer.Rating);
  }

  /** Marks a review helpful; the count shown follows the server's. */
  async function markHelpful(id: number): Promise<void> {
    const { Helpful } = await authCall(pluginCalls.helpful, { params: { id } });
    const own = $own.get().data;
    if (own) keepOwn({ ...own, Helpful: [...new Set([...own.Helpful, id])] });
    const list = $reviews.get();
    $reviews.set({ ...list, items: list.items.map((item) => (item.Id === id ? { ...item, Helpful } : item)) });
  }

  async function report(id: number, reason: ReportReason): Promise<void> {
    await authCall(pluginCalls.report, { params: { id }, body: { Reason: reason } });
    const own = $own.get().data;
    if (own) keepOwn({ ...own, Reported: [...new Set([...own.Reported, id])] });
  }

  return { $rating, $sort, $reviews, $own, loadMoreReviews, save, remove, markHelpful, report };
}
