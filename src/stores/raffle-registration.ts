/**
 * A registration raffle's page: the raffle, the user's
 * registration, number and result, paged winners that wait 300 ms for the
 * reader to stop paging, and the hub's pushes — a new registration count, a
 * finished draw — that make an open page current without a reload.
 */
import { atom, computed, onMount } from 'nanostores';
import { raffleCacheMs, raffleCalls, type OwnResult, type Registration, type Winner } from '#contract/raffle.ts';
import { pageSize } from '#contract/paging.ts';
import { hubEvents } from '#contract/realtime.ts';
import { createFetcherStore, invalidateKeys } from '@/lib/api/query.ts';
import { publicHub } from './public-hub.ts';
import { idOf, infoPrefix, raffleStores, type Paged, type RaffleApi, type RaffleRef } from './raffle.ts';

const ownPrefixes = { registered: 'raffle-registered:', number: 'raffle-number:', result: 'raffle-result:' } as const;

/** Everything the registration raffle page shows about one raffle, and what the user does there. */
export function registrationRaffleStores(ref: RaffleRef, api: RaffleApi) {
  const { call, authCall } = api;
  const { $info, $id, own, keepOwn } = raffleStores(ref, api);
  const $registered = own(ownPrefixes.registered, raffleCacheMs.registration, (id) => authCall(raffleCalls.isRegistration, { params: { id }, fresh: true }));
  const $number = own(ownPrefixes.number, raffleCacheMs.registration, (id) => authCall(raffleCalls.participationNumber, { params: { id }, fresh: true }));
  const $result = own<OwnResult>(ownPrefixes.result, raffleCacheMs.result, (id) => authCall(raffleCalls.result, { params: { id }, fresh: true }));

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
    const registration = await authCall(raffleCalls.registration, { params: { id: $id.get()! } });
    keepOwn(ownPrefixes.registered, true);
    keepOwn(ownPrefixes.number, registration.Number);
    keepOwn(ownPrefixes.result, { Number: registration.Number, Prize: null, ClaimBy: null, ClaimedAt: null });
    $liveCount.set(Math.max(registration.Count, $liveCount.get() ?? 0));
    return registration;
  }

  /** Claims the user's prize; their cached result follows. */
  async function claim(): Promise<OwnResult> {
    const result = await authCall(raffleCalls.claim, { params: { id: $id.get()! } });
    keepOwn(ownPrefixes.result, result);
    return result;
  }

  return { $info, $registered, $number, $result, $page, $winners, $count, follow, register, claim };
}
