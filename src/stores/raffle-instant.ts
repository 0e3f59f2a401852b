/** An instant raffle's page: the raffle, the user's draws and seed, drawing and rotating the seed. */
import type { ResponseOf } from '#contract/api.ts';
import { raffleCacheMs, raffleCalls, type InstantHistory } from '#contract/raffle.ts';
import { mutateCache } from '@/lib/api/query.ts';
import { infoPrefix, raffleStores, type RaffleApi, type RaffleRef } from './raffle.ts';

export type InstantOutcome = ResponseOf<typeof raffleCalls.forthwithRaffle>;

const instantPrefix = 'raffle-instant:';

export function instantRaffleStores(ref: RaffleRef, api: RaffleApi) {
  const { authCall } = api;
  const { $info, $id, own, keepOwn } = raffleStores(ref, api);
  const $history = own<InstantHistory>(instantPrefix, raffleCacheMs.result, (id) =>
    authCall(raffleCalls.forthwithRaffleResults, { params: { id }, fresh: true }),
  );

  /** One instant draw; the user's cached history and the raffle's stock follow. */
  async function drawInstant(clientSeed: string): Promise<InstantOutcome> {
    const outcome = await authCall(raffleCalls.forthwithRaffle, { params: { id: $id.get()! }, body: { ClientSeed: clientSeed } });
    const history = $history.get().data;
    if (history) keepOwn(instantPrefix, { ...history, NextNonce: outcome.Draw.Nonce + 1, Draws: [outcome.Draw, ...history.Draws] });
    const info = $info.get().data;
    if (info?.Instant) mutateCache(`${infoPrefix}${ref}`, { ...info, Instant: { ...info.Instant, Stock: outcome.Stock } });
    return outcome;
  }

  /** Reveals the user's seed and starts a new one. */
  async function rotateSeed(): Promise<InstantHistory> {
    const history = await authCall(raffleCalls.rotateSeed, { params: { id: $id.get()! } });
    keepOwn(instantPrefix, history);
    return history;
  }

  return { $info, $history, drawInstant, rotateSeed };
}
