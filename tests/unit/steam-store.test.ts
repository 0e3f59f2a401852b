/**
 * The Steam section of the account centre (src/features/account/steam-store.ts)
 * in Node: the user read afresh when first shown and the outcome of a linking
 * said once (link-outcome.ts), linking through Steam quick login, unlinking
 * once the user agrees, and the number of games on the cloud-idle list.
 */
import { atom } from 'nanostores';
import { describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { identity, type UserInfo } from '#contract/identity.ts';
import { idleGameCalls } from '#contract/idle-games.ts';
import type { LinkOutcome } from '@/features/account/link-outcome.ts';
import { createSteamAccount } from '@/features/account/steam-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { fakeApi, type Reply } from './fake-api.ts';

const steam = { Id: 3, Provider: 'steam', Subject: '76561197960287930', DisplayName: 'Gordon', BoundAt: '2026-01-01T00:00:00.000Z' };
const qq = { Id: 4, Provider: 'qq', Subject: 'qq-1', DisplayName: 'Alyx', BoundAt: '2026-01-01T00:00:00.000Z' };
const user = (accounts = [qq, steam]) => ({ Id: 7, NickName: 'Beacon-0000', ExternalAccounts: accounts }) as UserInfo;

/** A world with the user `known` (null until the session reads them), the answers `replies`, and the user's say at a confirmation. */
function getTestEnvironment(options: { known?: UserInfo | null; replies?: Array<[ApiRoute, Reply]>; outcome?: LinkOutcome | null; agrees?: boolean } = {}) {
  const { call, calls } = fakeApi(options.replies ?? []);
  let outcome = options.outcome ?? null;
  const env = {
    call,
    $user: atom<UserInfo | null>(options.known === undefined ? user() : options.known),
    refreshUser: vi.fn(async () => {}),
    updateUser: vi.fn(),
    startLinking: vi.fn(async () => {}),
    // Taken once, as the page's address is cleaned of it.
    takeLinkOutcome: vi.fn(() => {
      const taken = outcome;
      outcome = null;
      return taken;
    }),
    confirm: vi.fn(() => options.agrees ?? true),
  };
  return { env, calls };
}

/** The section as the island shows it: mounted. */
function shown(world = getTestEnvironment()) {
  const store = createSteamAccount(world.env, { locale: 'en' });
  store.$steam.listen(() => {});
  return store;
}

const failing = (failure: ApiFailure) => () => {
  throw failure;
};

describe('the linked Steam identity', () => {
  it('is the user’s Steam identity, unknown until the user is, and none when only others are linked', () => {
    const world = getTestEnvironment({ known: null });
    const store = shown(world);
    expect(store.$steam.get()).toBeUndefined();
    world.env.$user.set(user());
    expect(store.$steam.get()).toEqual(steam);
    world.env.$user.set(user([qq]));
    expect(store.$steam.get()).toBeNull();
  });

  it('reads the user afresh when first shown, and says nothing when that fails', async () => {
    const world = getTestEnvironment();
    world.env.refreshUser.mockRejectedValueOnce(new ApiFailure('network'));
    const store = shown(world);
    expect(world.env.refreshUser).toHaveBeenCalledTimes(1);
    await Promise.resolve();
    expect(store.$notice.get()).toBeNull();
  });

  it('says a linking went well, naming the provider, once', () => {
    const world = getTestEnvironment({ outcome: { provider: 'steam', error: null } });
    const store = shown(world);
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'account.bind.linked', params: { provider: 'Steam' } });
    expect(world.env.takeLinkOutcome).toHaveBeenCalledTimes(1);
  });

  it('says why a linking failed, naming the provider', () => {
    const store = shown(getTestEnvironment({ outcome: { provider: 'steam', error: 'taken' } }));
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'login.external.taken', params: { provider: 'Steam' } });
  });

  it('links Steam through its quick login in the page’s language', async () => {
    const world = getTestEnvironment({ known: user([]) });
    const store = shown(world);
    await store.link();
    expect(world.env.startLinking).toHaveBeenCalledWith('steam', 'en');
    expect(store.$notice.get()).toBeNull();
  });

  it('says why linking could not start', async () => {
    const world = getTestEnvironment({ known: user([]) });
    world.env.startLinking.mockRejectedValueOnce(new ApiFailure('network'));
    const store = shown(world);
    await store.link();
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    expect(store.$busy.get()).toBe(false);
  });

  it('unlinks once the user agrees, says so and keeps the user as the server answers', async () => {
    const world = getTestEnvironment({ replies: [[identity.unbundleAccount, () => user([qq])]] });
    const store = shown(world);
    const unlinking = store.unlink(steam.Id, 'Unlink Steam?');
    expect(store.$busy.get()).toBe(true);
    await unlinking;
    expect(world.env.confirm).toHaveBeenCalledWith('Unlink Steam?');
    expect(world.calls).toEqual([{ route: identity.unbundleAccount, params: { id: steam.Id } }]);
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'account.steam.unlinked' });
    expect(world.env.updateUser).toHaveBeenCalledWith(user([qq]));
  });

  it('leaves the identity linked when the user does not agree', async () => {
    const world = getTestEnvironment({ agrees: false });
    const store = shown(world);
    await store.unlink(steam.Id, 'Unlink Steam?');
    expect(world.calls).toEqual([]);
    expect(store.$notice.get()).toBeNull();
    expect(world.env.updateUser).not.toHaveBeenCalled();
  });

  it('shows the server’s words when it refuses to unlink, and keeps the user', async () => {
    const refusal = new ApiFailure('server', { code: 4000, serverMessage: 'Set a password or a phone first.' });
    const world = getTestEnvironment({ replies: [[identity.unbundleAccount, failing(refusal)]] });
    const store = shown(world);
    await store.unlink(steam.Id, 'Unlink Steam?');
    expect(store.$notice.get()).toEqual({ kind: 'error', text: 'Set a password or a phone first.' });
    expect(world.env.updateUser).not.toHaveBeenCalled();
  });
});

describe('the cloud-idle summary’s game count', () => {
  it('is read only when shown, from the game list', async () => {
    const games = [{ AppId: 570, Name: 'Dota 2', AddedAt: '2026-01-01T00:00:00.000Z' }];
    const world = getTestEnvironment({ replies: [[idleGameCalls.list, () => games]] });
    const store = shown(world);
    expect(world.calls).toEqual([]);
    store.$gameCount.listen(() => {});
    await vi.waitFor(() => expect(store.$gameCount.get()).toBe(1));
    expect(world.calls).toEqual([{ route: idleGameCalls.list }]);
  });

  it('stays unknown, and unsaid, when the list cannot be read', async () => {
    const world = getTestEnvironment({ replies: [[idleGameCalls.list, failing(new ApiFailure('network'))]] });
    const store = shown(world);
    store.$gameCount.listen(() => {});
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    await Promise.resolve();
    expect(store.$gameCount.get()).toBeNull();
    expect(store.$notice.get()).toBeNull();
  });
});
