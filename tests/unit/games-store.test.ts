/**
 * The cloud-idle game list (src/features/account/games-store.ts) in Node: the
 * list loads when first shown; a game is added by its name or its app id, or
 * refused before any call; a game is removed; each change shows the list the
 * server answers, and names the game for the island to say.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { idleGameCalls, type IdleGame } from '#contract/idle-games.ts';
import { appIdOf, createGames, gameParams } from '@/features/account/games-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { fakeApi, type Reply } from './fake-api.ts';

const dota: IdleGame = { AppId: 570, Name: 'Dota 2', AddedAt: '2026-01-01T00:00:00.000Z' };
const unlisted: IdleGame = { AppId: 3999990, Name: null, AddedAt: '2026-01-02T00:00:00.000Z' };

/** A world whose list holds `games`, answering the other routes as `replies` say. */
function getTestEnvironment(games: IdleGame[] = [dota], replies: Array<[ApiRoute, Reply]> = []) {
  const { call, calls } = fakeApi([[idleGameCalls.list, () => games], ...replies]);
  return { env: { call }, calls };
}

/** The list as the island shows it: mounted, and loaded (or failed). */
async function shown(world = getTestEnvironment()) {
  const store = createGames(world.env);
  store.$games.listen(() => {});
  await vi.waitFor(() => expect(store.$busy.get()).toBe(false));
  return store;
}

const failing = (failure: ApiFailure) => () => {
  throw failure;
};

describe('the typed game', () => {
  it('is an app id when it is a number within Steam’s range, or a name from the bundled list in any case', () => {
    expect(appIdOf(' 3999990 ')).toBe(3999990);
    expect(appIdOf('dota 2')).toBe(570);
    expect(appIdOf('TEAM FORTRESS 2')).toBe(440);
    expect(appIdOf('0')).toBeNull();
    expect(appIdOf('2147483648')).toBeNull();
    expect(appIdOf('No Such Game')).toBeNull();
    expect(appIdOf('')).toBeNull();
  });

  it('is named in a notice by its name, or only by its id when it has none', () => {
    expect(gameParams(dota)).toEqual({ id: 570, name: 'Dota 2' });
    expect(gameParams(unlisted)).toEqual({ id: 3999990 });
  });
});

describe('the game list', () => {
  it('loads when first shown', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    expect(store.$games.get()).toEqual([dota]);
    expect(store.$notice.get()).toBeNull();
    expect(world.calls).toEqual([{ route: idleGameCalls.list }]);
  });

  it('says why the list did not load, and stays unloaded', async () => {
    const store = await shown(getTestEnvironment([], [[idleGameCalls.list, failing(new ApiFailure('network'))]]));
    expect(store.$games.get()).toBeNull();
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });

  it('adds a game typed by name, names it, shows the list as answered and empties the field', async () => {
    const world = getTestEnvironment([], [[idleGameCalls.add, () => [dota]]]);
    const store = await shown(world);
    store.$typed.set('dota 2');
    const adding = store.add();
    expect(store.$busy.get()).toBe(true);
    await adding;
    expect(world.calls.at(-1)).toEqual({ route: idleGameCalls.add, body: { AppId: 570 } });
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'account.game.added', params: { id: 570, name: 'Dota 2' } });
    expect(store.$games.get()).toEqual([dota]);
    expect(store.$typed.get()).toBe('');
  });

  it('adds a game typed by an app id that is not on the bundled list, naming it by its id only', async () => {
    const world = getTestEnvironment([dota], [[idleGameCalls.add, () => [dota, unlisted]]]);
    const store = await shown(world);
    store.$typed.set('3999990');
    await store.add();
    expect(world.calls.at(-1)).toEqual({ route: idleGameCalls.add, body: { AppId: 3999990 } });
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'account.game.added', params: { id: 3999990 } });
    expect(store.$games.get()).toEqual([dota, unlisted]);
  });

  it('refuses a name that is not on the bundled list before any call, and keeps what was typed', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    store.$typed.set('No Such Game');
    await store.add();
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'account.game.notFound' });
    expect(world.calls).toEqual([{ route: idleGameCalls.list }]);
    expect(store.$typed.get()).toBe('No Such Game');
  });

  it('shows the server’s words when it refuses a game, and keeps the list and what was typed', async () => {
    const refusal = new ApiFailure('server', { code: 4000, serverMessage: 'Your list is full.' });
    const store = await shown(getTestEnvironment([dota], [[idleGameCalls.add, failing(refusal)]]));
    store.$typed.set('440');
    await store.add();
    expect(store.$notice.get()).toEqual({ kind: 'error', text: 'Your list is full.' });
    expect(store.$games.get()).toEqual([dota]);
    expect(store.$typed.get()).toBe('440');
  });

  it('removes a game, names it, and shows the list as answered', async () => {
    const world = getTestEnvironment([dota, unlisted], [[idleGameCalls.remove, () => [dota]]]);
    const store = await shown(world);
    await store.remove(unlisted);
    expect(world.calls.at(-1)).toEqual({ route: idleGameCalls.remove, params: { appId: 3999990 } });
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'account.game.removed', params: { id: 3999990 } });
    expect(store.$games.get()).toEqual([dota]);
  });

  it('says why a game could not be removed, and keeps the list', async () => {
    const store = await shown(getTestEnvironment([dota], [[idleGameCalls.remove, failing(new ApiFailure('network'))]]));
    await store.remove(dota);
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    expect(store.$games.get()).toEqual([dota]);
  });
});
