/**
 * The instant raffle page's store (src/features/raffle/instant-raffle-store.ts),
 * driven in Node: the client seed kept or made, its check before any call,
 * drawing with the outcome and the history and stock that follow, and
 * revealing the seed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { raffleCalls, type InstantDraw, type InstantHistory } from '#contract/raffle.ts';
import { createInstantRaffle } from '@/features/raffle/instant-raffle-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { raffle, stubStorage, testApi } from './raffle-world.ts';

beforeEach(() => stubStorage());
afterEach(() => vi.unstubAllGlobals());

/** Each test's raffle has an id of its own: the query cache is the module's, shared by the tests. */
let id = 200;
beforeEach(() => void id++);

const hash = 'c'.repeat(64);
const drawn = (nonce: number, won: boolean): InstantDraw => ({
  Nonce: nonce,
  ClientSeed: 'my-seed',
  SeedHash: hash,
  Seed: null,
  Roll: won ? 10 : 900_000,
  Won: won,
  SoldOut: false,
  At: '2026-05-01T10:00:00.000Z',
});

/** This test's instant raffle (a limit of 3 draws, 1 made), shown as the island shows it, with the seed kept as `stored`. */
async function instantOf(stored: string | null = 'my-seed') {
  const api = testApi();
  api.on(raffleCalls.info, () => raffle({ Id: id, Kind: 'instant', Instant: { Odds: 500_000, Stock: 5, PerUserLimit: 3 } }));
  api.on(raffleCalls.forthwithRaffleResults, (): InstantHistory => ({ SeedHash: hash, NextNonce: 1, Draws: [drawn(0, false)] }));
  const seedStorage = { read: vi.fn(() => stored), write: vi.fn() };
  const page = createInstantRaffle({ ...api, seedStorage }, id);
  for (const store of [page.$info, page.$history, page.$left, page.$clientSeed, page.$notice]) store.listen(() => {});
  await vi.waitFor(() => expect(page.$history.get().data).toBeDefined());
  await vi.waitFor(() => expect(page.$left.get()).toBe(2));
  return { page, api, seedStorage };
}

describe('the client seed', () => {
  it('is the one kept, or a random one made once and kept', async () => {
    const kept = await instantOf('my-seed');
    expect(kept.page.$clientSeed.get()).toBe('my-seed');
    expect(kept.seedStorage.write).not.toHaveBeenCalled();

    const made = await instantOf(null);
    const seed = made.page.$clientSeed.get();
    expect(seed).toMatch(/^[0-9a-f]{16}$/);
    expect(made.seedStorage.write).toHaveBeenCalledWith(seed);
  });

  it('refuses to draw with a seed the server would not take, calling nothing', async () => {
    const { page, api } = await instantOf();
    page.$clientSeed.set('not a seed!');
    expect(page.$seedOk.get()).toBe(false);
    await page.draw();
    expect(page.$notice.get()).toEqual({ kind: 'error', key: 'raffle.instant.clientSeedInvalid', params: { max: 64 } });
    expect(api.authCall).not.toHaveBeenCalledWith(raffleCalls.forthwithRaffle, expect.anything());
  });
});

describe('drawing', () => {
  it('draws with the seed shown, keeps it, shows the outcome, and the history, draws left and stock follow', async () => {
    const { page, api, seedStorage } = await instantOf();
    api.on(raffleCalls.forthwithRaffle, () => ({ Draw: { ...drawn(1, true), ClientSeed: 'lucky' }, Left: 1, Stock: 4 }));
    page.$clientSeed.set('lucky');
    await page.draw();
    expect(api.authCall).toHaveBeenCalledWith(raffleCalls.forthwithRaffle, { params: { id }, body: { ClientSeed: 'lucky' } });
    expect(seedStorage.write).toHaveBeenCalledWith('lucky');
    expect(page.$outcome.get()?.Draw.Won).toBe(true);
    await vi.waitFor(() => expect(page.$history.get().data?.Draws.map((draw) => draw.Nonce)).toEqual([1, 0]));
    expect(page.$left.get()).toBe(1);
    await vi.waitFor(() => expect(page.$info.get().data?.Instant?.Stock).toBe(4));
  });

  it('shows the server’s words when it refuses, and our message when the network fails, with no outcome', async () => {
    const { page, api } = await instantOf();
    api.on(raffleCalls.forthwithRaffle, () => {
      throw new ApiFailure('server', { code: 1, serverMessage: 'You have used all your draws' });
    });
    await page.draw();
    expect(page.$notice.get()).toEqual({ kind: 'error', text: 'You have used all your draws' });
    api.on(raffleCalls.forthwithRaffle, () => {
      throw new ApiFailure('network');
    });
    await page.draw();
    expect(page.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    expect(page.$outcome.get()).toBeNull();
    expect(page.$busy.get()).toBe(false);
  });
});

describe('revealing the seed', () => {
  it('says so, and the history shows the revealed seed and the new hash', async () => {
    const { page, api } = await instantOf();
    const newHash = 'd'.repeat(64);
    api.on(raffleCalls.rotateSeed, (): InstantHistory => ({ SeedHash: newHash, NextNonce: 0, Draws: [{ ...drawn(0, false), Seed: 'e'.repeat(64) }] }));
    await page.rotateSeed();
    expect(page.$notice.get()).toEqual({ kind: 'ok', key: 'raffle.instant.rotated' });
    await vi.waitFor(() => expect(page.$history.get().data?.SeedHash).toBe(newHash));
  });
});
