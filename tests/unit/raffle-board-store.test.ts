/**
 * The registration raffle page's store (src/features/raffle/raffle-board-store.ts),
 * driven in Node: registering and claiming with their outcomes, the user's
 * number and result after each, why no raffle shows, and the countdowns' clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { raffleCalls, type OwnResult } from '#contract/raffle.ts';
import { createRaffleBoard } from '@/features/raffle/raffle-board-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { raffle, stubStorage, testApi } from './raffle-world.ts';

beforeEach(() => stubStorage());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Each test's raffle has an id of its own: the query cache is the module's, shared by the tests. */
let id = 100;
beforeEach(() => void id++);

/** The page for this test's raffle, shown: its stores subscribed as the island does. */
function boardOf(api = testApi(), now = () => Date.now()) {
  const setTimer = vi.fn((callback: () => void, ms: number) => {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  });
  const board = createRaffleBoard({ ...api, setTimer, now }, id);
  for (const store of [board.$info, board.$own, board.$registered, board.$number, board.$result, board.$notice, board.$problem]) store.listen(() => {});
  return { board, setTimer };
}

/** Waits until the page knows the user has not registered (asked, not just not known yet). */
async function notRegisteredYet(board: ReturnType<typeof boardOf>['board']) {
  await vi.waitFor(() => expect(board.$result.get().data?.Number).toBeNull());
  await vi.waitFor(() => expect(board.$registered.get().data).toBe(false));
  expect(board.$own.get()).toBeNull();
}

/** This test's raffle, open, the user not registered yet. */
function openRaffle(api = testApi()) {
  api.on(raffleCalls.info, () => raffle({ Id: id }));
  api.on(raffleCalls.list, () => ({ Items: [raffle({ Id: id })], Total: 1, Page: 1 }));
  api.on(raffleCalls.isRegistration, () => false);
  api.on(raffleCalls.participationNumber, () => null);
  api.on(raffleCalls.result, (): OwnResult => ({ Number: null, Prize: null, ClaimBy: null, ClaimedAt: null }));
  return api;
}

describe('registering for a raffle', () => {
  it('registers, then shows the user’s number and the new count at once, asking nothing again', async () => {
    const api = openRaffle();
    api.on(raffleCalls.registration, () => ({ Number: 42, Count: 42 }));
    const { board } = boardOf(api);
    await notRegisteredYet(board);
    board.$count.listen(() => {});

    const registering = board.register();
    expect(board.$busy.get()).toBe(true);
    await registering;

    expect(board.$busy.get()).toBe(false);
    expect(board.$notice.get()).toBeNull();
    await vi.waitFor(() => expect(board.$own.get()).toBe(42));
    expect(board.$count.get()).toBe(42);
    expect(api.authCall).toHaveBeenCalledWith(raffleCalls.registration, { params: { id } });
    expect(api.authCall.mock.calls.filter(([route]) => route === raffleCalls.participationNumber)).toHaveLength(1);
  });

  it('shows the server’s words when it refuses, and our message when the network fails, the user still unregistered', async () => {
    const api = openRaffle();
    const { board } = boardOf(api);
    await notRegisteredYet(board);

    api.on(raffleCalls.registration, () => {
      throw new ApiFailure('server', { code: 1, serverMessage: 'Your account is too new for this raffle' });
    });
    await board.register();
    expect(board.$notice.get()).toEqual({ kind: 'error', text: 'Your account is too new for this raffle' });

    api.on(raffleCalls.registration, () => {
      throw new ApiFailure('network');
    });
    await board.register();
    expect(board.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    expect(board.$own.get()).toBeNull();
    expect(board.$busy.get()).toBe(false);
  });
});

describe('claiming a prize', () => {
  it('claims, and the user’s result says claimed', async () => {
    const api = openRaffle();
    const won: OwnResult = { Number: 42, Prize: 0, ClaimBy: '2026-06-01T00:00:00.000Z', ClaimedAt: null };
    api.on(raffleCalls.info, () => raffle({ Id: id, State: 'drawn', DrawnAt: '2026-05-09T00:00:00.000Z' }));
    api.on(raffleCalls.isRegistration, () => true);
    api.on(raffleCalls.participationNumber, () => 42);
    api.on(raffleCalls.result, () => won);
    api.on(raffleCalls.claim, () => ({ ...won, ClaimedAt: '2026-05-10T00:00:00.000Z' }));
    const { board } = boardOf(api);
    await vi.waitFor(() => expect(board.$result.get().data).toEqual(won));

    await board.claim();
    await vi.waitFor(() => expect(board.$result.get().data?.ClaimedAt).toBe('2026-05-10T00:00:00.000Z'));
    expect(board.$notice.get()).toBeNull();
  });
});

describe('what the page shows instead of a raffle', () => {
  it('says no raffle runs for a 404, and the failure’s message for any other failure', async () => {
    const api = openRaffle();
    api.on(raffleCalls.info, () => {
      throw new ApiFailure('server', { code: 404 });
    });
    const { board } = boardOf(api);
    await vi.waitFor(() => expect(board.$problem.get()).toBe('none'));

    id++;
    const failing = openRaffle();
    failing.on(raffleCalls.info, () => {
      throw new ApiFailure('network');
    });
    const other = boardOf(failing);
    await vi.waitFor(() => expect(other.board.$problem.get()).toEqual({ kind: 'error', key: 'messages.networkError' }));
  });
});

describe('the countdowns’ clock', () => {
  it('ticks every second while shown, and stops when the page no longer shows it', async () => {
    vi.useFakeTimers();
    const { board, setTimer } = boardOf(openRaffle(), () => Date.now());
    const start = Date.now();
    const stop = board.$now.listen(() => {});
    expect(board.$now.get()).toBe(start);
    await vi.advanceTimersByTimeAsync(3000);
    expect(board.$now.get()).toBe(start + 3000);
    stop();
    await vi.advanceTimersByTimeAsync(2000); // nanostores unmounts a store a second after its last listener
    const calls = setTimer.mock.calls.length;
    await vi.advanceTimersByTimeAsync(5000);
    expect(setTimer.mock.calls.length).toBe(calls);
  });
});
