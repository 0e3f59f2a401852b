/**
 * The raffles' draws, written once for the server that draws and the browser
 * that checks (`/raffle/verify`). Both use only Web Crypto's SHA-256 and
 * HMAC-SHA-256, so anyone can redo a draw with any language's standard
 * library. No schema here: the verify page ships this file alone.
 *
 * Registration raffle (docs/tour.md "Verifiable draws"):
 * 1. At creation the server picks a secret seed (64 hex characters) and
 *    publishes its commitment, SHA-256 of those 64 characters as text.
 * 2. At the draw it publishes the seed and the public value, a result named
 *    at creation that nobody knew then (a lottery's draw, say).
 * 3. A stream of 32-bit numbers comes from SHA-256(`seed:publicValue:counter`),
 *    counter 0, 1, 2, …, each digest read as eight big-endian words.
 * 4. A number below n is a word modulo n, skipping words at or above the
 *    largest multiple of n below 2^32 (so every number is equally likely).
 * 5. The entrants are their participation numbers 1..N in order; a partial
 *    Fisher–Yates shuffle picks the winners: for k = 0, 1, …, swap place k
 *    with place k + (a number below N − k). The first winner takes the first
 *    prize listed, and so on down the prizes in their quantities.
 *
 * Instant raffle: each draw's roll (0..999,999) is read the same way from
 * HMAC-SHA-256 with the server seed as key and `clientSeed:nonce` as message;
 * it wins when below the odds, in parts per million. The seed's SHA-256 is
 * shown before any draw and the seed itself once the user rotates it.
 */
import { rollRange } from './raffle.ts';

/** What the verify page and the README name the algorithm by. */
export const drawAlgorithm = 'beacon-draw-v1';

const encoder = new TextEncoder();

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** The commitment published before the draw: SHA-256 of the seed's text, as hex. */
export async function commitmentOf(seed: string): Promise<string> {
  return toHex(await sha256(seed));
}

/** A fresh secret seed: 32 random bytes as 64 hex characters. */
export function newSeed(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** 32-bit words, eight from each block `next()` gives, read big-endian. */
function wordsOf(next: () => Promise<Uint8Array>) {
  let words: number[] = [];
  return async (): Promise<number> => {
    if (words.length === 0) {
      const block = await next();
      const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
      words = Array.from({ length: block.byteLength / 4 }, (_, i) => view.getUint32(i * 4));
    }
    return words.shift()!;
  };
}

/** A uniform number in [0, n) from a stream of words, skipping the words that would favour small numbers. */
async function below(n: number, word: () => Promise<number>): Promise<number> {
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const value = await word();
    if (value < limit) return value % n;
  }
}

export interface DrawInput {
  seed: string;
  publicValue: string;
  /** Entrants, numbered 1..entrants. */
  entrants: number;
  /** How many of each prize, in the order the prizes are listed. */
  quantities: readonly number[];
}

/** One winner: a participation number and the index of the prize it won. */
export interface DrawnWinner {
  number: number;
  prize: number;
}

/** The winners, in the order drawn: as many as there are prizes, or entrants if fewer. */
export async function drawWinners({ seed, publicValue, entrants, quantities }: DrawInput): Promise<DrawnWinner[]> {
  let counter = 0;
  const word = wordsOf(() => sha256(`${seed}:${publicValue}:${counter++}`));
  const prizes = quantities.flatMap((quantity, prize) => Array<number>(quantity).fill(prize));
  const count = Math.min(entrants, prizes.length);
  // Only the places the shuffle touches are kept: a raffle of a million entrants costs no million-long array.
  const moved = new Map<number, number>();
  const at = (place: number) => moved.get(place) ?? place + 1;
  const winners: DrawnWinner[] = [];
  for (let k = 0; k < count; k++) {
    const j = k + (await below(entrants - k, word));
    const picked = at(j);
    moved.set(j, at(k));
    moved.set(k, picked);
    winners.push({ number: picked, prize: prizes[k] });
  }
  return winners;
}

/** An instant draw's roll in [0, rollRange): HMAC-SHA-256(server seed, `clientSeed:nonce`). */
export async function instantRoll(serverSeed: string, clientSeed: string, nonce: number): Promise<number> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(serverSeed), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  let block = 0;
  // Further blocks (`clientSeed:nonce:1`, …) are needed only when all eight words of one are skipped: about once in 10^30 draws.
  const word = wordsOf(async () => {
    const message = block === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${block}`;
    block++;
    return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
  });
  return below(rollRange, word);
}
