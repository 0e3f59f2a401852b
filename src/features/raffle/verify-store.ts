/**
 * The verify page's logic, free of any framework: reading what it checks —
 * every drawn raffle to choose from, one raffle with all its winners, or a
 * user's instant draws — and checking it (verification.ts), again whenever the
 * reader edits a value of the proof. The API comes in as a `RaffleApi`, so
 * tests drive the page in Node.
 */
import { atom, onMount } from 'nanostores';
import { raffleCalls, raffleRules, type InstantHistory, type RaffleInfo, type Winner } from '#contract/raffle.ts';
import type { Call } from '@/lib/api/client.ts';
import type { RaffleApi } from '@/stores/raffle.ts';
import { checkDraw, checkInstantDraws, type DrawCheck, type InstantCheck, type ProofInputs } from './verification.ts';

/** What a page reads once it shows: the data, or why it could not be read; neither while it loads. */
type Loaded<T> = { data?: T; error?: unknown };

/** A store that reads `load` when it is first shown. */
function loadedOnMount<T>(load: () => Promise<T>, then?: (data: T) => void) {
  const $loaded = atom<Loaded<T>>({});
  onMount($loaded, () => {
    if ($loaded.get().data) return;
    load().then(
      (data) => {
        $loaded.set({ data });
        then?.(data);
      },
      (error: unknown) => $loaded.set({ error }),
    );
  });
  return $loaded;
}

/** Every published winner, read in the largest pages the API gives. */
async function allWinners(call: Call, id: number): Promise<Winner[]> {
  const winners: Winner[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(raffleCalls.winners, { params: { id, a: page, b: raffleRules.maxPageSize }, fresh: true });
    winners.push(...answer.Items);
    if (answer.Items.length === 0 || winners.length >= answer.Total) return winners;
  }
}

/** Without an id: the drawn raffles to choose from. */
export function createDrawnList({ call }: RaffleApi) {
  const $drawn = loadedOnMount(async () => {
    const list = await call(raffleCalls.list, { params: { a: 1, b: raffleRules.maxPageSize }, fresh: true });
    return list.Items.filter((raffle) => raffle.State === 'drawn');
  });
  return { $drawn };
}

/**
 * One registration raffle: once drawn, its proof as editable inputs (the
 * published values to start with) and the check of the winners they give.
 */
export function createDrawCheck({ call }: RaffleApi, id: number) {
  const $inputs = atom<ProofInputs>({ commitment: '', seed: '', publicValue: '', entrants: '' });
  const $check = atom<DrawCheck | null>(null);
  const $raffle = loadedOnMount(
    async () => {
      const raffle = await call(raffleCalls.info, { params: { id }, fresh: true });
      return { raffle, winners: raffle.State === 'drawn' ? await allWinners(call, id) : [] };
    },
    ({ raffle }) => {
      const proof = raffle.Proof;
      if (proof && raffle.State === 'drawn')
        $inputs.set({ commitment: proof.Commitment, seed: proof.Seed ?? '', publicValue: proof.PublicValue ?? '', entrants: String(proof.Entrants) });
    },
  );

  /** Each check's turn: the answer for inputs edited since is dropped. */
  let turn = 0;
  async function recheck(inputs: ProofInputs): Promise<void> {
    const mine = ++turn;
    const loaded = $raffle.get().data;
    if (loaded?.raffle.State !== 'drawn') return;
    const check = await checkDraw(
      inputs,
      loaded.raffle.Prizes.map((prize) => prize.Quantity),
      loaded.winners,
    );
    if (mine === turn) $check.set(check);
  }
  onMount($check, () => $inputs.subscribe((inputs) => void recheck(inputs)));

  const setInput = (name: keyof ProofInputs, value: string) => $inputs.set({ ...$inputs.get(), [name]: value });

  return { $raffle, $inputs, $check, setInput };
}

export interface InstantDraws {
  raffle: RaffleInfo;
  history: InstantHistory;
  /** Each draw whose seed is revealed, checked. */
  checks: InstantCheck[];
  /** How many draws still wait for their seed to be revealed. */
  hidden: number;
  verified: boolean;
}

/** The logged-in user's instant draws in one raffle, each checked against its revealed seed. */
export function createInstantCheck({ call, authCall }: RaffleApi, id: number) {
  const $draws = loadedOnMount<InstantDraws>(async () => {
    const [raffle, history] = await Promise.all([
      call(raffleCalls.info, { params: { id }, fresh: true }),
      authCall(raffleCalls.forthwithRaffleResults, { params: { id } }),
    ]);
    const checks = await checkInstantDraws(raffle.Instant?.Odds ?? 0, history.Draws);
    return {
      raffle,
      history,
      checks,
      hidden: history.Draws.filter((draw) => draw.Seed === null).length,
      verified: checks.length > 0 && checks.every((check) => check.problem === null),
    };
  });
  return { $draws };
}
