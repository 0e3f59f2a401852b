/**
 * The plugin data sets of spec §3 — the list (every plugin's rating), one
 * plugin's default evaluation (its rating), its reviews (the detail), and the
 * user's own evaluation — as fetcher stores kept for `pluginCacheMs`. Whatever
 * the user changes is written into these caches at once, so their own page
 * never shows the state before their change.
 */
import { atom } from 'nanostores';
import { pluginCacheMs, pluginCalls, type Evaluation, type EvaluationSort, type OwnEvaluation, type Rating, type ReportReason } from '#contract/plugins.ts';
import { call } from '@/lib/api/client.ts';
import { createFetcherStore, invalidateKeys, mutateCache } from '@/lib/api/query.ts';
import { $pluginRatings, listKey } from './plugin-ratings.ts';
import { $authToken, $tokenKey } from './session.ts';

type Paged<T> = { Items: T[]; Total: number; Page: number };

const token = () => $authToken.get()?.AccessToken;

/** What one plugin's page shows about its reviews, and what the user can do there. */
export function pluginStores(slug: string) {
  const ratingKey = `plugin-rating:${slug}`;
  const evaluationsPrefix = `plugin-evaluations:${slug}:`;
  const ownPrefix = `plugin-own:${slug}:`;

  const $rating = createFetcherStore<Rating>([ratingKey], {
    fetcher: () => call(pluginCalls.rating, { params: { slug }, fresh: true }),
    dedupeTime: pluginCacheMs.rating,
  });

  const $sort = atom<EvaluationSort>('helpful');
  const $page = atom(1);
  const $evaluations = createFetcherStore<Paged<Evaluation>>([evaluationsPrefix, $sort, ':', $page], {
    fetcher: (...parts) => call(pluginCalls.evaluations, { params: { slug, sort: parts[1] as EvaluationSort, page: Number(parts[3]) }, fresh: true }),
    dedupeTime: pluginCacheMs.evaluations,
  });

  const $own = createFetcherStore<OwnEvaluation>([ownPrefix, $tokenKey], {
    fetcher: () => call(pluginCalls.own, { params: { slug }, token: token(), fresh: true }),
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
    invalidateKeys((key) => key.startsWith(evaluationsPrefix));
  }

  async function save(rating: number, text: string): Promise<OwnEvaluation> {
    const answer = await call(pluginCalls.save, { params: { slug }, body: { Rating: rating, Text: text }, token: token() });
    keepOwn(answer.Own);
    changed(answer.Rating);
    return answer.Own;
  }

  async function remove(): Promise<void> {
    const answer = await call(pluginCalls.remove, { params: { slug }, token: token() });
    keepOwn(answer.Own);
    changed(answer.Rating);
  }

  /** Marks a review helpful; the count shown follows the server's. */
  async function markHelpful(id: number): Promise<void> {
    const { Helpful } = await call(pluginCalls.helpful, { params: { id }, token: token() });
    const own = $own.get().data;
    if (own) keepOwn({ ...own, Helpful: [...new Set([...own.Helpful, id])] });
    const page = $evaluations.get().data;
    if (page)
      mutateCache(`${evaluationsPrefix}${$sort.get()}:${$page.get()}`, {
        ...page,
        Items: page.Items.map((item) => (item.Id === id ? { ...item, Helpful } : item)),
      });
  }

  async function report(id: number, reason: ReportReason): Promise<void> {
    await call(pluginCalls.report, { params: { id }, body: { Reason: reason }, token: token() });
    const own = $own.get().data;
    if (own) keepOwn({ ...own, Reported: [...new Set([...own.Reported, id])] });
  }

  return { $rating, $sort, $page, $evaluations, $own, save, remove, markHelpful, report };
}
