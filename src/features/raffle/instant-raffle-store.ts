/**
 * The instant raffle page's logic, free of any framework: the raffle and the
 * user's draws (raffle.ts's stores), the client seed — the one the user chose,
 * or a random one made once and kept — its check, drawing with the outcome
 * shown at once, and revealing the seed. The API and the seed's storage come
 * in as an `InstantRaffleEnvironment`, so tests drive the page in Node.
 */
import { atom, computed, onMount } from 'nanostores';
import { raffleRules } from '#contract/raffle.ts';
import { newSeed } from '#contract/raffle-draw.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { createAction } from '@/stores/action.ts';
import type { RaffleApi, RaffleRef } from '@/stores/raffle.ts';
import { instantRaffleStores, type InstantOutcome } from '@/stores/raffle-instant.ts';

export interface InstantRaffleEnvironment extends RaffleApi {
  /** Where the user's client seed is kept between visits. */
  seedStorage: { read(): string | null; write(seed: string): void };
}

const clientSeedPattern = new RegExp(`^[\\w-]{1,${raffleRules.clientSeedMaxLength}}$`);
/** Long enough to be the user's own, short enough to read and type. */
const madeSeedLength = 16;

export function createInstantRaffle(env: InstantRaffleEnvironment, ref: RaffleRef) {
  const raffle = instantRaffleStores(ref, env);
  const action = createAction<KeysUnder<'raffle.instant'>>();
  const $clientSeed = atom('');
  const $seedOk = computed($clientSeed, (seed) => clientSeedPattern.test(seed));
  /** The outcome of the draw just made, until the next one starts. */
  const $outcome = atom<InstantOutcome | null>(null);
  /** Draws the user has left: the raffle's limit less those made (shown once both are known). */
  const $left = computed([raffle.$info, raffle.$history], (info, history) =>
    Math.max(0, (info.data?.Instant?.PerUserLimit ?? 0) - (history.data?.Draws.length ?? 0)),
  );

  onMount($clientSeed, () => {
    const stored = env.seedStorage.read();
    if (stored && clientSeedPattern.test(stored)) $clientSeed.set(stored);
    else {
      const made = newSeed().slice(0, madeSeedLength);
      env.seedStorage.write(made);
      $clientSeed.set(made);
    }
  });

  /** Draws once with the client seed shown, which is kept for the next visit. */
  async function draw(): Promise<void> {
    const seed = $clientSeed.get();
    if (!$seedOk.get()) return action.refuse('raffle.instant.clientSeedInvalid', { max: raffleRules.clientSeedMaxLength });
    env.seedStorage.write(seed);
    $outcome.set(null);
    const outcome = await action.run(() => raffle.drawInstant(seed));
    if (outcome) $outcome.set(outcome);
  }

  /** Reveals the server seed behind the draws so far and starts a new one. */
  const rotateSeed = () => action.run(raffle.rotateSeed, 'raffle.instant.rotated');

  return { ...raffle, $busy: action.$busy, $notice: action.$notice, $clientSeed, $seedOk, $outcome, $left, draw, rotateSeed };
}
