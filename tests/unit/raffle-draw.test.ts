/**
 * The raffles' draw algorithm (contract/raffle-draw.ts), the one the server
 * draws with and the verify page checks with: deterministic, fair in shape,
 * sensitive to every input, and the same as an independent reading of the
 * documented steps done with node:crypto.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { commitmentOf, drawWinners, instantRoll, newSeed, type DrawInput, type DrawnWinner } from '#contract/raffle-draw.ts';
import { rollRange } from '#contract/raffle.ts';

const seed = 'a3f1c9e07b2d4e68a1c3f5e7092b4d6f8a0c2e4f6a8b0c2d4e6f8a0b2c4d6e8f';
const input: DrawInput = { seed, publicValue: '03 07 12 19 25 31 + 09', entrants: 1000, quantities: [1, 3, 10] };

/** The 32-bit big-endian words of a digest. */
const wordsOf = (digest: Buffer) => Array.from({ length: digest.length / 4 }, (_, i) => digest.readUInt32BE(i * 4));

/** A number below `n` from a word stream: the word modulo n, skipping words at or above the largest multiple of n below 2^32. */
function belowFrom(n: number, next: () => number): number {
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const word = next();
    if (word < limit) return word % n;
  }
}

/** The README's steps done plainly: SHA-256(`seed:value:counter`) words, a partial Fisher–Yates shuffle over the whole list 1..N. */
function referenceDraw({ seed, publicValue, entrants, quantities }: DrawInput): DrawnWinner[] {
  let counter = 0;
  let words: number[] = [];
  const next = () => {
    if (words.length === 0) words = wordsOf(createHash('sha256').update(`${seed}:${publicValue}:${counter++}`).digest());
    return words.shift()!;
  };
  const places = Array.from({ length: entrants }, (_, i) => i + 1);
  const prizes = quantities.flatMap((quantity, prize) => Array<number>(quantity).fill(prize));
  const winners: DrawnWinner[] = [];
  for (let k = 0; k < Math.min(entrants, prizes.length); k++) {
    const j = k + belowFrom(entrants - k, next);
    [places[k], places[j]] = [places[j], places[k]];
    winners.push({ number: places[k], prize: prizes[k] });
  }
  return winners;
}

/** The instant roll from the first HMAC block only (enough unless all eight words are skipped). */
function referenceRoll(serverSeed: string, clientSeed: string, nonce: number): number {
  const words = wordsOf(createHmac('sha256', serverSeed).update(`${clientSeed}:${nonce}`).digest());
  return belowFrom(rollRange, () => words.shift()!);
}

const firstWord = (serverSeed: string, clientSeed: string, nonce: number) =>
  createHmac('sha256', serverSeed).update(`${clientSeed}:${nonce}`).digest().readUInt32BE(0);
const rollLimit = 2 ** 32 - (2 ** 32 % rollRange);

describe('drawWinners', () => {
  it('draws the same winners from the same input', async () => {
    expect(await drawWinners(input)).toEqual(await drawWinners({ ...input, quantities: [...input.quantities] }));
  });

  it('draws distinct numbers in 1..N, as many as the prizes or the entrants if fewer, prizes in the order listed', async () => {
    const cases: Array<[number, number[]]> = [
      [1000, [1, 3, 10]],
      [5, [1, 3, 10]],
      [14, [1, 3, 10]],
      [1, [2]],
      [0, [1, 2]],
      [2_000_000, [1, 1, 1, 5]],
    ];
    for (const [entrants, quantities] of cases) {
      const winners = await drawWinners({ ...input, entrants, quantities });
      const count = Math.min(
        entrants,
        quantities.reduce((sum, quantity) => sum + quantity, 0),
      );
      expect(winners).toHaveLength(count);
      expect(new Set(winners.map((winner) => winner.number)).size).toBe(count);
      for (const { number } of winners) {
        expect(Number.isInteger(number)).toBe(true);
        expect(number).toBeGreaterThanOrEqual(1);
        expect(number).toBeLessThanOrEqual(entrants);
      }
      const listed = quantities.flatMap((quantity, prize) => Array<number>(quantity).fill(prize)).slice(0, count);
      expect(winners.map((winner) => winner.prize)).toEqual(listed);
    }
  });

  it('gives every entrant a prize when there are more prizes than entrants', async () => {
    const winners = await drawWinners({ ...input, entrants: 7, quantities: [2, 20] });
    expect(winners.map((winner) => winner.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('changes when any one input changes', async () => {
    const drawn = await drawWinners(input);
    const otherSeed = `${seed.slice(0, -1)}${seed.endsWith('0') ? '1' : '0'}`;
    expect(await drawWinners({ ...input, seed: otherSeed })).not.toEqual(drawn);
    expect(await drawWinners({ ...input, publicValue: '03 07 12 19 25 31 + 10' })).not.toEqual(drawn);
    expect(await drawWinners({ ...input, entrants: input.entrants + 1 })).not.toEqual(drawn);
  });

  it('is the documented algorithm, redone independently with node:crypto', async () => {
    for (const [entrants, quantities] of [
      [1000, [1, 3, 10]],
      [3, [5]],
      [97, [40, 40, 17]],
    ] as Array<[number, number[]]>) {
      for (let i = 0; i < 5; i++) {
        const one = { seed: newSeed(), publicValue: `value ${i}`, entrants, quantities };
        expect(await drawWinners(one)).toEqual(referenceDraw(one));
      }
    }
  });
});

describe('commitmentOf', () => {
  it('is the SHA-256 of the seed text, as lowercase hex', async () => {
    for (const text of [seed, newSeed(), '']) expect(await commitmentOf(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    expect(await commitmentOf(seed)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('makes fresh seeds of 64 hex characters', () => {
    const seeds = Array.from({ length: 50 }, newSeed);
    for (const one of seeds) expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(seeds).size).toBe(50);
  });
});

describe('instantRoll', () => {
  it('is a whole number in [0, 1,000,000), the same for the same input', async () => {
    for (let nonce = 0; nonce < 200; nonce++) {
      const roll = await instantRoll(seed, 'client-seed', nonce);
      expect(Number.isInteger(roll)).toBe(true);
      expect(roll).toBeGreaterThanOrEqual(0);
      expect(roll).toBeLessThan(rollRange);
      expect(await instantRoll(seed, 'client-seed', nonce)).toBe(roll);
    }
  });

  it('changes with the server seed, the client seed and the nonce', async () => {
    const roll = await instantRoll(seed, 'client-seed', 7);
    expect(await instantRoll(newSeed(), 'client-seed', 7)).not.toBe(roll);
    expect(await instantRoll(seed, 'client-seed-2', 7)).not.toBe(roll);
    expect(await instantRoll(seed, 'client-seed', 8)).not.toBe(roll);
  });

  it('is the first big-endian word of HMAC-SHA-256(server seed, `clientSeed:nonce`) modulo 1,000,000 when below the rejection limit', async () => {
    let checked = 0;
    for (let nonce = 0; nonce < 300; nonce++) {
      const word = firstWord(seed, 'abc_XYZ-123', nonce);
      if (word >= rollLimit) continue;
      expect(await instantRoll(seed, 'abc_XYZ-123', nonce)).toBe(word % rollRange);
      checked++;
    }
    expect(checked).toBeGreaterThan(290);
  });

  it('skips a first word at or above the limit and reads the next one', async () => {
    // About one first word in 4,400 is skipped: find one.
    let nonce = 0;
    while (firstWord(seed, 'skip', nonce) < rollLimit) nonce++;
    const roll = await instantRoll(seed, 'skip', nonce);
    expect(roll).toBe(referenceRoll(seed, 'skip', nonce));
    expect(roll).not.toBe(firstWord(seed, 'skip', nonce) % rollRange);
  });
});
