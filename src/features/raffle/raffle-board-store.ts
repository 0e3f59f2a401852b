/**
 * The registration raffle page's logic, free of any framework: the raffle
 * and the user's part in it (registration.ts's stores), every raffle, a clock
 * for the countdowns, and registering and claiming one at a time with their
 * outcome. The API and the clock come in as a `RaffleBoardEnvironment`, so
 * tests drive the page in Node.
 */
import { atom, computed, onMount } from 'nanostores';
import { ApiFailure, failureMessage } from '@/lib/api/errors.ts';
import { createAction, type Notice } from '@/stores/action.ts';
import { raffleListStore, type RaffleApi, type RaffleRef } from '@/stores/raffle.ts';
import { registrationRaffleStores } from '@/stores/raffle-registration.ts';

export interface RaffleBoardEnvironment extends RaffleApi {
  /** Runs `callback` after `ms`; the returned function cancels it. */
  setTimer(callback: () => void, ms: number): () => void;
  now(): number;
}

export function createRaffleBoard(env: RaffleBoardEnvironment, ref: RaffleRef) {
  const raffle = registrationRaffleStores(ref, env);
  const action = createAction();

  /** The time the countdowns count to, renewed every second while shown. */
  const $now = atom(env.now());
  onMount($now, () => {
    let stop = () => {};
    const tick = () => {
      $now.set(env.now());
      stop = env.setTimer(tick, 1000);
    };
    tick();
    return () => stop();
  });

  /** Why there is no raffle to show: none runs (or none has the id asked for), or the failure's notice; null while it loads or once it shows. */
  const $problem = computed(raffle.$info, ({ error }): 'none' | Notice<never> | null =>
    !error ? null : error instanceof ApiFailure && error.code === 404 ? 'none' : { kind: 'error', ...failureMessage(error) },
  );

  /** The user's participation number: undefined while it loads, null when they have not registered. */
  const $own = computed([raffle.$registered, raffle.$number, raffle.$result], (registered, number, result) =>
    registered.loading || number.loading ? undefined : registered.data ? (number.data ?? result.data?.Number ?? null) : null,
  );

  return {
    ...raffle,
    $busy: action.$busy,
    $notice: action.$notice,
    $now,
    $own,
    $problem,
    $list: raffleListStore(env),
    register: () => action.run(raffle.register),
    claim: () => action.run(raffle.claim),
  };
}
