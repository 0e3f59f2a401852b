/**
 * The verify page's checks (src/features/raffle/verification.ts): a draw
 * redone from its proof agrees with the published winners only when every
 * value is the published one, and the first difference is named; an instant
 * draw is checked against its revealed seed, its roll and its outcome.
 */
import { describe, expect, it } from 'vitest';
import type { InstantDraw, Winner } from '#contract/raffle.ts';
import { commitmentOf, drawWinners, instantRoll } from '#contract/raffle-draw.ts';
import { checkDraw, checkInstantDraws, firstDifference, type ProofInputs } from '@/features/raffle/verification.ts';

const seed = 'a3f1c9e07b2d4e68a1c3f5e7092b4d6f8a0c2e4f6a8b0c2d4e6f8a0b2c4d6e8f';
const quantities = [1, 2];

async function published(): Promise<{ inputs: ProofInputs; winners: Winner[] }> {
  const drawn = await drawWinners({ seed, publicValue: '03 07 12', entrants: 50, quantities });
  return {
    inputs: { commitment: await commitmentOf(seed), seed, publicValue: '03 07 12', entrants: '50' },
    winners: drawn.map(({ number, prize }) => ({ Number: number, Name: `Player ${number}`, Prize: prize })),
  };
}

describe('checking a registration raffle’s draw', () => {
  it('verifies the published proof and winners, the commitment in any case and spacing', async () => {
    const { inputs, winners } = await published();
    expect(await checkDraw(inputs, quantities, winners)).toEqual({ commitmentOk: true, difference: null, computed: 3, verified: true });
    const shouted = { ...inputs, commitment: ` ${inputs.commitment.toUpperCase()} ` };
    expect((await checkDraw(shouted, quantities, winners)).verified).toBe(true);
  });

  it('does not verify a seed that is not the committed one, nor a changed public value', async () => {
    const { inputs, winners } = await published();
    const otherSeed = await checkDraw({ ...inputs, seed: seed.replace('a3', 'b3') }, quantities, winners);
    expect(otherSeed).toMatchObject({ commitmentOk: false, verified: false });
    const otherValue = await checkDraw({ ...inputs, publicValue: '03 07 13' }, quantities, winners);
    expect(otherValue).toMatchObject({ commitmentOk: true, verified: false, difference: { place: expect.any(Number) } });
  });

  it('names a different count when more winners are published than the proof gives, and computes none for an entrant count that is no number', async () => {
    const { inputs, winners } = await published();
    const oneMore = [...winners, { Number: 51, Name: 'Player 51', Prize: 1 }];
    expect(await checkDraw(inputs, quantities, oneMore)).toMatchObject({ difference: { count: true }, computed: 3, verified: false });
    expect(await checkDraw({ ...inputs, entrants: 'fifty' }, quantities, winners)).toMatchObject({ difference: { count: true }, computed: 0 });
  });

  it('names the first place where the winners part, with both numbers', () => {
    const winners: Winner[] = [
      { Number: 4, Name: 'a', Prize: 0 },
      { Number: 9, Name: 'b', Prize: 1 },
    ];
    expect(
      firstDifference(winners, [
        { number: 4, prize: 0 },
        { number: 9, prize: 1 },
      ]),
    ).toBeNull();
    expect(
      firstDifference(winners, [
        { number: 4, prize: 0 },
        { number: 7, prize: 1 },
      ]),
    ).toEqual({ place: 2, published: 9, computed: 7 });
    expect(
      firstDifference(winners, [
        { number: 4, prize: 1 },
        { number: 9, prize: 1 },
      ]),
    ).toEqual({ place: 1, published: 4, computed: 4 });
  });
});

describe('checking instant draws', () => {
  const odds = 500_000;
  async function draw(nonce: number, changes: Partial<InstantDraw> = {}): Promise<InstantDraw> {
    const roll = await instantRoll(seed, 'my-seed', nonce);
    return {
      Nonce: nonce,
      ClientSeed: 'my-seed',
      SeedHash: await commitmentOf(seed),
      Seed: seed,
      Roll: roll,
      Won: roll < odds,
      SoldOut: false,
      At: '2026-05-01T10:00:00.000Z',
      ...changes,
    };
  }

  it('finds nothing wrong with honest draws, and skips those whose seed is not revealed yet', async () => {
    const draws = [await draw(0), await draw(1), await draw(2, { Seed: null })];
    const checks = await checkInstantDraws(odds, draws);
    expect(checks).toEqual([
      { nonce: 0, roll: draws[0].Roll, problem: null },
      { nonce: 1, roll: draws[1].Roll, problem: null },
    ]);
  });

  it('names a seed that does not hash to the shown hash, a roll that is not the seeds’ roll, and an outcome the roll does not give', async () => {
    const honest = await draw(3);
    const [hash, roll, outcome, soldOut] = await checkInstantDraws(odds, [
      { ...honest, SeedHash: '0'.repeat(64) },
      { ...honest, Roll: honest.Roll + 1 },
      { ...honest, Won: !honest.Won },
      { ...honest, Won: false, SoldOut: honest.Won },
    ]);
    expect(hash.problem).toEqual({ key: 'raffle.verify.instantHashBad' });
    expect(roll.problem).toEqual({ key: 'raffle.verify.instantRollBad', params: { published: honest.Roll + 1, computed: honest.Roll } });
    expect(outcome.problem).toEqual({ key: 'raffle.verify.instantOutcomeBad' });
    // A winning roll on an empty stock is sold out, not lost.
    expect(soldOut.problem).toBeNull();
  });
});
