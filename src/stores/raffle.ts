/**
 * The raffle pages' data (spec §3, §9): fetcher stores kept for §9's cache
 * times (info and results 60 s, the user's registration and number 360 s),
 * paged winners that wait 300 ms for the reader to stop paging, and the
 * hub's pushes — a new registration count, a finished draw — that make an
 * open page current without a reload. The stores keep their own cache, so
 * when they do ask, they ask past the browser's HTTP cache.
 */
import { atom, computed, onMount, type ReadableAtom } from 'nanostores';
import type { ResponseOf } from '#contract/api.ts';
import { raffleCacheMs, raffleCalls, type InstantHistory, type OwnResult, type RaffleInfo, type Registration, type Winner } from '#contract/raffle.ts';
import { pageSize } from '#contract/commerce.ts';
import { hubEvents } from '#contract/realtime.ts';
import { call } from '@/lib/api/client.ts';
import { createFetcherStore, invalidateKeys, mutateCache } from '@/lib/api/query.ts';
import { publicHub } from './public-hub.ts';
import { $authToken, $tokenKey } from './session.ts';

export type RaffleRef = number | 'current' | 'forthwith';
type Paged<T> = { Items: T[]; Total: number; Page: number };
export type InstantOutcome = ResponseOf<typeof raffleCalls.forthwithRaffle>;

const token = () => $authToken.get()?.AccessToken;

/** Key parts come back joined as strings; the raffle id is the second. */
const idOf = (parts: unknown[]) => Number(parts[1]);

const infoPrefix = 'raffle-info:';
/** The user's own answers, kept per raffle and login. */
const ownPrefixes = { registered: 'raffle-registered:', number: 'raffle-number:', result: 'raffle-result:', instant: 'raffle-instant:' } as const;

/** Everything one raffle page shows about one raffle, found by id or as the current one of its kind. */
export function raffleStores(ref: RaffleRef) {
  const $info = createFetcherStore<RaffleInfo>([infoPrefix, String(ref)], {
    fetcher: () => call(raffleCalls.info, { params: { id: ref }, fresh: true }),
    dedupeTime: raffleCacheMs.info,
  });
  const $id: ReadableAtom<number | null> = computed($info, (info) => info.data?.Id ?? null);
  const own = <T>(prefix: string, cacheMs: number, fetch: (id: number) => Promise<T>) =>
    createFetcherStore<T>([prefix, $id, ':', $tokenKey], { fetcher: (...parts) => fetch(idOf(parts)), dedupeTime: cacheMs, revalidateOnFocus: false });
  /** Puts an answer the user just got into their cache of this raffle, under the key `own` reads. */
  const keepOwn = (prefix: string, data: unknown) => mutateCache(`${prefix}${$id.get()}:${$tokenKey.get()}`, data);

  const $registered = own(ownPrefixes.registered, raffleCacheMs.registration, (id) =>
    call(raffleCalls.isRegistration, { params: { id }, token: token(), fresh: true }),
  );
  const $number = own(ownPrefixes.number, raffleCacheMs.registration, (id) =>
    call(raffleCalls.participationNumber, { params: { id }, token: token(), fresh: true }),
  );
  const $result = own<OwnResult>(ownPrefixes.result, raffleCacheMs.result, (id) => call(raffleCalls.result, { params: { id }, token: token(), fresh: true }));

  const $history = own<InstantHistory>(ownPrefixes.instant, raffleCacheMs.result, (id) =>
    call(raffleCalls.forthwithRaffleResults, { params: { id }, token: token(), fresh: true }),
  );

  /** The page the reader asked for, and the one shown: it follows 300 ms after the last click. */
  const $page = atom(1);
  const $shownPage = atom(1);
  let settle: ReturnType<typeof setTimeout> | undefined;
  onMount($shownPage, () =>
    $page.listen((page) => {
      clearTimeout(settle);
      settle = setTimeout(() => $shownPage.set(page), raffleCacheMs.pagingDebounce);
    }),
  );
  const $winners = createFetcherStore<Paged<Winner>>(['raffle-winners:', $id, ':', $shownPage], {
    fetcher: (...parts) => call(raffleCalls.winners, { params: { id: idOf(parts), a: Number(parts[3]), b: pageSize }, fresh: true }),
    dedupeTime: raffleCacheMs.result,
  });

  /** The latest count pushed by the hub, newer than the cached info's. */
  const $liveCount = atom<number | null>(null);
  const $count = computed([$info, $liveCount], (info, live) => live ?? info.data?.RegistrationCount ?? null);

  /** Follows the hub while the page shows the raffle; the returned function stops. */
  function follow(): () => void {
    const stopCount = publicHub.on(hubEvents.raffleCount, ({ RaffleId, Count }) => {
      if (RaffleId === $id.get()) $liveCount.set(Math.max(Count, $liveCount.get() ?? 0));
    });
    const stopDrawn = publicHub.on(hubEvents.raffleDrawn, ({ RaffleId }) => {
      if (RaffleId !== $id.get()) return;
      invalidateKeys((key) => key.startsWith(infoPrefix) || key.startsWith(`raffle-winners:${RaffleId}:`) || key.startsWith(`raffle-result:${RaffleId}:`));
    });
    const release = publicHub.follow();
    return () => {
      stopCount();
      stopDrawn();
      release();
    };
  }

  /** Registers the user; their cached registration and number change at once (not after 360 s). */
  async function register(): Promise<Registration> {
    const registration = await call(raffleCalls.registration, { params: { id: $id.get()! }, token: token() });
    keepOwn(ownPrefixes.registered, true);
    keepOwn(ownPrefixes.number, registration.Number);
    keepOwn(ownPrefixes.result, { Number: registration.Number, Prize: null, ClaimBy: null, ClaimedAt: null });
    $liveCount.set(Math.max(registration.Count, $liveCount.get() ?? 0));
    return registration;
  }

  /** Claims the user's prize; their cached result follows. */
  async function claim(): Promise<OwnResult> {
    const result = await call(raffleCalls.claim, { params: { id: $id.get()! }, token: token() });
    keepOwn(ownPrefixes.result, result);
    return result;
  }

  /** One instant draw; the user's cached history and the raffle's stock follow. */
  async function drawInstant(clientSeed: string): Promise<InstantOutcome> {
    const outcome = await call(raffleCalls.forthwithRaffle, { params: { id: $id.get()! }, body: { ClientSeed: clientSeed }, token: token() });
    const history = $history.get().data;
    if (history) keepOwn(ownPrefixes.instant, { ...history, NextNonce: outcome.Draw.Nonce + 1, Draws: [outcome.Draw, ...history.Draws] });
    const info = $info.get().data;
    if (info?.Instant) mutateCache(`${infoPrefix}${ref}`, { ...info, Instant: { ...info.Instant, Stock: outcome.Stock } });
    return outcome;
  }

  /** Reveals the user's seed and starts a new one. */
  async function rotateSeed(): Promise<InstantHistory> {
    const history = await call(raffleCalls.rotateSeed, { params: { id: $id.get()! }, token: token() });
    keepOwn(ownPrefixes.instant, history);
    return history;
  }

  return { $info, $id, $registered, $number, $result, $history, $page, $winners, $count, follow, register, claim, drawInstant, rotateSeed };
}

/** Raffles, newest first, one page of the spec's size. */
export function raffleListStore() {
  return createFetcherStore<Paged<RaffleInfo>>(['raffle-list:1'], {
    fetcher: () => call(raffleCalls.list, { params: { a: 1, b: pageSize }, fresh: true }),
    dedupeTime: raffleCacheMs.info,
  });
}
