/**
 * The verify page's stores (src/features/raffle/verify-store.ts), driven in
 * Node: the drawn raffles to choose from, one raffle read with all its
 * winners and checked again as the reader edits the proof, a user's instant
 * draws checked, and failures to read.
 */
import { describe, expect, it, vi } from 'vitest';
import { raffleCalls, type Winner } from '#contract/raffle.ts';
import { commitmentOf, drawWinners, instantRoll } from '#contract/raffle-draw.ts';
import { createDrawCheck, createDrawnList, createInstantCheck } from '@/features/raffle/verify-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { raffle, testApi } from './raffle-world.ts';

const seed = 'a3f1c9e07b2d4e68a1c3f5e7092b4d6f8a0c2e4f6a8b0c2d4e6f8a0b2c4d6e8f';

describe('choosing a raffle to check', () => {
  it('lists the drawn raffles only', async () => {
    const api = testApi();
    api.on(raffleCalls.list, () => ({ Items: [raffle({ Id: 1, State: 'open' }), raffle({ Id: 2, State: 'drawn' })], Total: 2, Page: 1 }));
    const { $drawn } = createDrawnList(api);
    $drawn.listen(() => {});
    await vi.waitFor(() => expect($drawn.get().data?.map((shown) => shown.Id)).toEqual([2]));
  });

  it('keeps the failure to show', async () => {
    const api = testApi();
    api.on(raffleCalls.list, () => {
      throw new ApiFailure('network');
    });
    const { $drawn } = createDrawnList(api);
    $drawn.listen(() => {});
    await vi.waitFor(() => expect($drawn.get().error).toBeInstanceOf(ApiFailure));
  });
});

describe('checking a registration raffle', () => {
  /** A drawn raffle with 150 winners published, read in pages of 100. */
  async function drawnRaffle() {
    const quantities = [50, 100];
    const winners: Winner[] = (await drawWinners({ seed, publicValue: '7 11', entrants: 400, quantities })).map(({ number, prize }) => ({
      Number: number,
      Name: `Player ${number}`,
      Prize: prize,
    }));
    const api = testApi();
    const proof = {
      Algorithm: 'beacon-draw-v1',
      Commitment: await commitmentOf(seed),
      PublicSource: raffle().Title,
      PublicValue: '7 11',
      Seed: seed,
      Entrants: 400,
    };
    api.on(raffleCalls.info, () =>
      raffle({
        State: 'drawn',
        DrawnAt: '2026-05-09T00:00:00.000Z',
        Proof: proof,
        Prizes: quantities.map((Quantity) => ({ ...raffle().Prizes[0], Quantity })),
      }),
    );
    api.on(raffleCalls.winners, ({ params }) => {
      const [page, size] = [Number(params?.a), Number(params?.b)];
      return { Items: winners.slice((page - 1) * size, page * size), Total: winners.length, Page: page };
    });
    return { api, winners };
  }

  it('reads every winner, starts from the published proof and verifies it; an edited value fails the check, and undoing it passes again', async () => {
    const { api, winners } = await drawnRaffle();
    const check = createDrawCheck(api, 7);
    check.$raffle.listen(() => {});
    await vi.waitFor(() => expect(check.$raffle.get().data?.winners).toEqual(winners));
    expect(api.call.mock.calls.filter(([route]) => route === raffleCalls.winners)).toHaveLength(2);
    expect(check.$inputs.get()).toEqual({ commitment: await commitmentOf(seed), seed, publicValue: '7 11', entrants: '400' });

    check.$check.listen(() => {});
    await vi.waitFor(() => expect(check.$check.get()?.verified).toBe(true));
    check.setInput('publicValue', '7 12');
    await vi.waitFor(() => expect(check.$check.get()).toMatchObject({ verified: false, commitmentOk: true }));
    check.setInput('publicValue', '7 11');
    await vi.waitFor(() => expect(check.$check.get()?.verified).toBe(true));
  });

  it('does not read winners of a raffle not drawn yet, nor check it', async () => {
    const api = testApi();
    api.on(raffleCalls.info, () => raffle({ State: 'closed' }));
    const check = createDrawCheck(api, 7);
    check.$raffle.listen(() => {});
    check.$check.listen(() => {});
    await vi.waitFor(() => expect(check.$raffle.get().data?.winners).toEqual([]));
    expect(api.call).toHaveBeenCalledTimes(1);
    expect(check.$check.get()).toBeNull();
  });
});

describe('checking instant draws', () => {
  it('checks the user’s revealed draws with their token, and counts those still hidden', async () => {
    const api = testApi();
    const roll = await instantRoll(seed, 'mine', 0);
    const revealed = {
      Nonce: 0,
      ClientSeed: 'mine',
      SeedHash: await commitmentOf(seed),
      Seed: seed,
      Roll: roll,
      Won: roll < 500_000,
      SoldOut: false,
      At: '2026-05-01T10:00:00.000Z',
    };
    api.on(raffleCalls.info, () => raffle({ Kind: 'instant', Instant: { Odds: 500_000, Stock: 5, PerUserLimit: 3 } }));
    api.on(raffleCalls.forthwithRaffleResults, () => ({ SeedHash: 'f'.repeat(64), NextNonce: 2, Draws: [{ ...revealed, Nonce: 1, Seed: null }, revealed] }));
    const { $draws } = createInstantCheck(api, 7);
    $draws.listen(() => {});
    await vi.waitFor(() => expect($draws.get().data).toMatchObject({ hidden: 1, verified: true, checks: [{ nonce: 0, roll, problem: null }] }));
    expect(api.authCall).toHaveBeenCalledWith(raffleCalls.forthwithRaffleResults, { params: { id: 7 } });
  });
});
