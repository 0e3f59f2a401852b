/**
 * Cloud idling (src/features/account/cloud-idle-store.ts and cloud-idle-status.ts) in Node, on a hub
 * that only pretends to connect: the status is asked for on each connect and
 * kept up to date by pushes, the newer always winning; the games chosen for
 * idling load once logged in; following ends when nothing shows the page.
 */
import { atom } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { idleGameCalls, type IdleGame } from '#contract/idle-games.ts';
import type { CloudIdleStatus } from '#contract/realtime.ts';
import type { CloudIdleHub } from '@/features/account/cloud-idle-status.ts';
import { createCloudIdle } from '@/features/account/cloud-idle-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import type { HubProblem, HubState } from '@/lib/realtime/hub-client.ts';

const status = (UpdatedAt: string, CardsRemaining = 5): CloudIdleStatus => ({
  State: 'Idling',
  Games: [{ AppId: 440, Name: 'Team Fortress 2', CardsRemaining }],
  CardsRemaining,
  UpdatedAt,
});
const games: IdleGame[] = [{ AppId: 440, Name: 'Team Fortress 2', AddedAt: '2026-01-01T00:00:00.000Z' }];

/** A hub whose state the test sets, whose pushes it sends, and whose status answers it decides. */
function getTestHub() {
  const $state = atom<HubState>('Disconnected');
  const handlers = new Set<(status: CloudIdleStatus) => void>();
  const answers: Array<(answer: CloudIdleStatus | null) => void> = [];
  let followers = 0;
  const hub = {
    $state,
    $problem: atom<HubProblem | null>(null),
    follow: vi.fn(() => {
      followers += 1;
      return () => void (followers -= 1);
    }),
    start: vi.fn(async () => {}),
    on: (_event, handler) => {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },
    invoke: vi.fn(() => new Promise<CloudIdleStatus | null>((resolve) => answers.push(resolve))),
  } satisfies CloudIdleHub;
  return {
    hub,
    push: (pushed: CloudIdleStatus) => handlers.forEach((handler) => handler(pushed)),
    /** Answers the oldest status question still open. */
    answer: async (answer: CloudIdleStatus | null) => {
      answers.shift()!(answer);
      await Promise.resolve();
    },
    followers: () => followers,
    listening: () => handlers.size,
  };
}

/** A page's world: the hub, a login, and the game list's answer. */
function getTestEnvironment(loggedIn = true, list: () => IdleGame[] = () => games) {
  const hub = getTestHub();
  const calls: ApiRoute[] = [];
  const call = vi.fn(async (route: ApiRoute) => {
    calls.push(route);
    return list();
  });
  return { env: { call: call as never, hub: hub.hub, $isLoggedIn: atom(loggedIn) }, hub, calls };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the cloud-idling status', () => {
  it('follows the connection while shown, asks for the status on each connect, and lets go when no longer shown', async () => {
    const world = getTestEnvironment();
    const store = createCloudIdle(world.env);
    expect(world.hub.followers()).toBe(0);

    const stop = store.$status.listen(() => {});
    expect(world.hub.followers()).toBe(1);
    expect(store.$status.get()).toBeUndefined();

    world.hub.hub.$state.set('Connected');
    await world.hub.answer(null);
    expect(store.$status.get()).toBeNull();

    // Reconnected: asked again, and the answer shown.
    world.hub.hub.$state.set('Reconnecting');
    world.hub.hub.$state.set('Connected');
    expect(world.hub.hub.invoke).toHaveBeenCalledTimes(2);
    await world.hub.answer(status('2026-01-01T10:00:00.000Z'));
    expect(store.$status.get()).toEqual(status('2026-01-01T10:00:00.000Z'));

    stop();
    // Nano Stores unmount a store a second after its last listener left.
    await vi.advanceTimersByTimeAsync(1000);
    expect(world.hub.followers()).toBe(0);
    expect(world.hub.listening()).toBe(0);
    world.hub.hub.$state.set('Reconnecting');
    world.hub.hub.$state.set('Connected');
    expect(world.hub.hub.invoke).toHaveBeenCalledTimes(2);
  });

  it('shows each push, and never lets a slow answer replace a newer push', async () => {
    const world = getTestEnvironment();
    const store = createCloudIdle(world.env);
    store.$status.listen(() => {});
    world.hub.hub.$state.set('Connected');

    world.hub.push(status('2026-01-01T10:00:05.000Z', 4));
    expect(store.$status.get()).toEqual(status('2026-01-01T10:00:05.000Z', 4));
    await world.hub.answer(status('2026-01-01T10:00:00.000Z', 5));
    expect(store.$status.get()).toEqual(status('2026-01-01T10:00:05.000Z', 4));
    // Nor an answer of none, asked after a reconnect.
    world.hub.hub.$state.set('Reconnecting');
    world.hub.hub.$state.set('Connected');
    await world.hub.answer(null);
    expect(store.$status.get()).toEqual(status('2026-01-01T10:00:05.000Z', 4));

    world.hub.push(status('2026-01-01T10:00:09.000Z', 3));
    expect(store.$status.get()?.CardsRemaining).toBe(3);
  });

  it('shows nothing from a question the connection dropped', async () => {
    const world = getTestEnvironment();
    world.hub.hub.invoke.mockRejectedValueOnce(new Error('Cannot send: the realtime connection is Reconnecting.'));
    const store = createCloudIdle(world.env);
    store.$status.listen(() => {});
    world.hub.hub.$state.set('Connected');
    await vi.advanceTimersByTimeAsync(0);
    expect(store.$status.get()).toBeUndefined();
  });

  it('connects again on request, and takes a refusal quietly', async () => {
    const world = getTestEnvironment();
    const store = createCloudIdle(world.env);
    store.reconnect();
    world.hub.hub.start.mockRejectedValueOnce(new Error('The realtime connection can only start when Disconnected; it is Connecting.'));
    store.reconnect();
    await vi.advanceTimersByTimeAsync(0);
    expect(world.hub.hub.start).toHaveBeenCalledTimes(2);
  });
});

describe('the games chosen for idling', () => {
  it('load once logged in, and again after another login', async () => {
    const world = getTestEnvironment(false);
    const store = createCloudIdle(world.env);
    store.$games.listen(() => {});
    expect(world.calls).toEqual([]);

    world.env.$isLoggedIn.set(true);
    await vi.waitFor(() => expect(store.$games.get()).toEqual(games));
    expect(world.calls).toEqual([idleGameCalls.list]);

    world.env.$isLoggedIn.set(false);
    world.env.$isLoggedIn.set(true);
    expect(world.calls).toEqual([idleGameCalls.list, idleGameCalls.list]);
  });

  it('are left out when they fail to load', async () => {
    const world = getTestEnvironment(true, () => {
      throw new ApiFailure('network');
    });
    const store = createCloudIdle(world.env);
    store.$games.listen(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(world.calls).toEqual([idleGameCalls.list]);
    expect(store.$games.get()).toBeNull();
  });
});
