/**
 * The raffle pages' data: fetcher stores kept for their cache
 * times (info and results 60 s, the user's registration and number 360 s),
 * and what the instant raffle page shows. The stores keep their own cache, so
 * when they do ask, they ask past the browser's HTTP cache. Registration
 * raffles, which also follow the hub, are in raffle-registration.ts, so the
 * instant raffle page loads no realtime client.
 */
import { computed, type ReadableAtom } from 'nanostores';
import type { ResponseOf } from '#contract/api.ts';
import { raffleCacheMs, raffleCalls, type InstantHistory, type RaffleInfo } from '#contract/raffle.ts';
import { pageSize } from '#contract/paging.ts';
import { call } from '@/lib/api/client.ts';
import { createFetcherStore, mutateCache } from '@/lib/api/query.ts';
import { $authToken, $tokenKey } from './session.ts';

export type RaffleRef = number | 'current' | 'forthwith';
export type Paged<T> = { Items: T[]; Total: number; Page: number };
export type InstantOutcome = ResponseOf<typeof raffleCalls.forthwithRaffle>;

export const token = () => $authToken.get()?.AccessToken;

/** Key parts come back joined as strings; the raffle id is the second. */
export const idOf = (parts: unknown[]) => Number(parts[1]);

export const infoPrefix = 'raffle-info:';

/** One raffle, found by id or as the current one of its kind, and the user's own answers about it, kept per raffle and login. */
export function raffleStores(ref: RaffleRef) {
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

const instantPrefix = 'raffle-instant:';

/** The instant raffle page: the raffle, the user's draws and seed, drawing and rotating the seed. */
export function instantRaffleStores(ref: RaffleRef) {
  const { $info, $id, own, keepOwn } = raffleStores(ref);
  const $history = own<InstantHistory>(instantPrefix, raffleCacheMs.result, (id) =>
    call(raffleCalls.forthwithRaffleResults, { params: { id }, token: token(), fresh: true }),
  );

  /** One instant draw; the user's cached history and the raffle's stock follow. */
  async function drawInstant(clientSeed: string): Promise<InstantOutcome> {
    const outcome = await call(raffleCalls.forthwithRaffle, { params: { id: $id.get()! }, body: { ClientSeed: clientSeed }, token: token() });
    const history = $history.get().data;
    if (history) keepOwn(instantPrefix, { ...history, NextNonce: outcome.Draw.Nonce + 1, Draws: [outcome.Draw, ...history.Draws] });
    const info = $info.get().data;
    if (info?.Instant) mutateCache(`${infoPrefix}${ref}`, { ...info, Instant: { ...info.Instant, Stock: outcome.Stock } });
    return outcome;
  }

  /** Reveals the user's seed and starts a new one. */
  async function rotateSeed(): Promise<InstantHistory> {
    const history = await call(raffleCalls.rotateSeed, { params: { id: $id.get()! }, token: token() });
    keepOwn(instantPrefix, history);
    return history;
  }

  return { $info, $history, drawInstant, rotateSeed };
}

/** Raffles, newest first, one page of the spec's size. */
export function raffleListStore() {
  return createFetcherStore<Paged<RaffleInfo>>(['raffle-list:1'], {
    fetcher: () => call(raffleCalls.list, { params: { a: 1, b: pageSize }, fresh: true }),
    dedupeTime: raffleCacheMs.info,
  });
}
