/**
 * Checking a draw, free of any framework and of the page: a registration
 * raffle's draw redone from its proof and compared with the published winners
 * place by place, and a user's instant draws checked against their revealed
 * seeds. The computation is the server's own (contract/raffle-draw.ts).
 */
import type { InstantDraw, Winner } from '#contract/raffle.ts';
import { commitmentOf, drawWinners, instantRoll, type DrawnWinner } from '#contract/raffle-draw.ts';

/** A draw's proof as the reader may edit it (the entrant count as typed). */
export interface ProofInputs {
  commitment: string;
  seed: string;
  publicValue: string;
  entrants: string;
}

/** Where the recomputed winners and the published ones part: their counts, or a place's number. */
export type WinnersDifference = { count: true } | { place: number; published: number; computed: number };

export interface DrawCheck {
  /** Whether the seed hashes to the commitment published before the draw. */
  commitmentOk: boolean;
  /** The first difference, or null when the winners agree. */
  difference: WinnersDifference | null;
  /** How many winners the inputs give. */
  computed: number;
  verified: boolean;
}

/** The first place where the recomputed winners and the published ones part, or null when they agree. */
export function firstDifference(published: Winner[], computed: DrawnWinner[]): WinnersDifference | null {
  for (let place = 0; place < Math.max(published.length, computed.length); place++) {
    const a = published[place];
    const b = computed[place];
    if (!a || !b) return { count: true };
    if (a.Number !== b.number || a.Prize !== b.prize) return { place: place + 1, published: a.Number, computed: b.number };
  }
  return null;
}

/** Redoes a draw from `inputs` with the raffle's prize quantities and compares it with the published winners. */
export async function checkDraw(inputs: ProofInputs, quantities: number[], published: Winner[]): Promise<DrawCheck> {
  const entrants = Number(inputs.entrants);
  const commitmentOk = (await commitmentOf(inputs.seed)) === inputs.commitment.trim().toLowerCase();
  const computed =
    Number.isSafeInteger(entrants) && entrants >= 0 ? await drawWinners({ seed: inputs.seed, publicValue: inputs.publicValue, entrants, quantities }) : [];
  const difference = firstDifference(published, computed);
  return { commitmentOk, difference, computed: computed.length, verified: commitmentOk && difference === null };
}

/** What is wrong with an instant draw, as a message key of the verify page. */
export type InstantProblem =
  | { key: 'raffle.verify.instantHashBad' }
  | { key: 'raffle.verify.instantRollBad'; params: { published: number; computed: number } }
  | { key: 'raffle.verify.instantOutcomeBad' };

export interface InstantCheck {
  nonce: number;
  roll: number;
  problem: InstantProblem | null;
}

/**
 * Checks each draw whose seed is revealed: the seed against the hash shown
 * before the draw, the roll redone from the seeds and nonce, and the outcome
 * against the raffle's odds (a winning roll on an empty stock is sold out).
 */
export async function checkInstantDraws(odds: number, draws: InstantDraw[]): Promise<InstantCheck[]> {
  const checks: InstantCheck[] = [];
  for (const draw of draws) {
    if (draw.Seed === null) continue;
    const roll = await instantRoll(draw.Seed, draw.ClientSeed, draw.Nonce);
    const problem: InstantProblem | null =
      (await commitmentOf(draw.Seed)) !== draw.SeedHash
        ? { key: 'raffle.verify.instantHashBad' }
        : roll !== draw.Roll
          ? { key: 'raffle.verify.instantRollBad', params: { published: draw.Roll, computed: roll } }
          : roll < odds !== (draw.Won || draw.SoldOut)
            ? { key: 'raffle.verify.instantOutcomeBad' }
            : null;
    checks.push({ nonce: draw.Nonce, roll, problem });
  }
  return checks;
}
