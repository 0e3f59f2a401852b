/**
 * The raffle pages' data: fetcher stores kept for their cache
 * times (info and results 60 s, the user's registration and number 360 s).
 * The stores keep their own cache, so when they do ask, they ask past the
 * browser's HTTP cache. Registration raffles, which also follow the hub, are
 * in raffle-registration.ts, so the instant raffle page loads no realtime
 * client; instant raffles in raffle-instant.ts, so the registration raffle
 * page loads none of theirs. The API comes in as a
 * `RaffleApi`, so the islands' stores are driven in Node by their tests.
 */
import { computed, type ReadableAtom } from 'nanostores';
import { raffleCacheMs, raffleCalls, type RaffleInfo } from '#contract/raffle.ts';
import { pageSize } from '#contract/paging.ts';
import type { Call } from '@/lib/api/client.ts';
import { createFetcherStore, mutateCache } from '@/lib/api/query.ts';
import { $tokenKey } from './session.ts';

export type RaffleRef = number | 'current' | 'forthwith';
export type Paged<T> = { Items: T[]; Total: number; Page: number };

/** How the raffle stores reach the API: `call` for what anyone may read, `authCall` with the user's token (in the browser, session.ts's). */
export interface RaffleApi {
  call: Call;
  authCall: Call;
}

/** Key parts come back joined as strings; the raffle id is the second. */
export const idOf = (parts: unknown[]) => Number(parts[1]);

export const infoPrefix = 'raffle-info:';

/** One raffle, found by id or as the current one of its kind, and the user's own answers about it, kept per raffle and login. */
export function raffleStores(ref: RaffleRef, { call }: RaffleApi) {
  const $info = createFetcherStore<RaffleInfo>([infoPrefix, String(ref)], {
    fetcher: () => call(raffleCalls.info, { params: { id: ref }, fresh: true }),
    dedupeTime: raffleCacheMs.info,
  });
  const $id: ReadableAtom<number | null> = computed($info, (info) => info.data?.Id ?? null);
  const own = <T>(prefix: string, cacheMs: number, fetch: (id: number) => Promise<T>) =>
    createFetcherStore<T>([prefix, $id, ':', $tokenKey], { fetcher: (...parts) => fetch(idOf(parts)), dedupeTime: cacheMs, refreshOnFocus: false });
  /** Puts an answer the user just got into their cache of this raffle, under the key `own` reads. */
  const keepOwn = (prefix: string, data: unknown) => mutateCache(`${prefix}${$id.get()}:${$tokenKey.get()}`, data);
  return { $info, $id, own, keepOwn };
}

/** Raffles, newest first, one page (`pageSize`) at a time. */
export function raffleListStore({ call }: RaffleApi) {
  return createFetcherStore<Paged<RaffleInfo>>(['raffle-list:1'], {
    fetcher: () => call(raffleCalls.list, { params: { a: 1, b: pageSize }, fresh: true }),
    dedupeTime: raffleCacheMs.info,
  });
}
