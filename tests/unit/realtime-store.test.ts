/**
 * The page's realtime store (src/stores/realtime.ts) in Node: it feeds the hub
 * client the session's access token only while the connection is watched or
 * followed, and a logout on the page takes the token away (which stops the
 * connection). The HTTP client is replaced at its edge; nothing connects.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@/lib/storage.ts';

vi.mock('@/lib/api/client.ts', () => ({ call: vi.fn(async () => null), onUnauthorized: () => () => {} }));

const hour = 3600_000;

beforeEach(() => {
  const items = new Map<string, string>();
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
  vi.stubGlobal('window', { addEventListener() {}, removeEventListener() {} });
  vi.stubGlobal('addEventListener', () => {});
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('sessionStorage', storage);
  vi.stubGlobal('location', { pathname: '/en/account/center/steam/cloudidea', search: '', assign: vi.fn(), reload: vi.fn() });
  storage.setItem(storageKeys.auth, JSON.stringify({ AccessToken: 'access-token-on-load', ExpiresIn: Date.now() + hour }));
  storage.setItem(storageKeys.user, JSON.stringify({ Id: 7, NickName: 'Tester' }));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Fresh stores, as a page loads them, with the hub's token feed watched. */
async function loadRealtime() {
  vi.resetModules();
  const { hub } = await import('@/stores/realtime.ts');
  const session = await import('@/stores/session.ts');
  const setAccessToken = vi.spyOn(hub, 'setAccessToken');
  return { hub, session, setAccessToken };
}

describe('the realtime store', () => {
  it('gives the hub the session’s token only while its state is watched, and takes it away on logout', async () => {
    vi.useFakeTimers();
    const { hub, session, setAccessToken } = await loadRealtime();
    expect(setAccessToken).not.toHaveBeenCalled();

    const unwatch = hub.$state.listen(() => {});
    expect(setAccessToken).toHaveBeenLastCalledWith('access-token-on-load');

    // Another login on the page: the new token; then logout: none, and the connection is stopped.
    session.signIn({ AccessToken: 'access-token-next', ExpiresIn: Date.now() + hour, User: { Id: 8 } } as Parameters<typeof session.signIn>[0]);
    expect(setAccessToken).toHaveBeenLastCalledWith('access-token-next');
    await session.logout();
    expect(setAccessToken).toHaveBeenLastCalledWith(null);
    expect(hub.$state.get()).toBe('Disconnected');

    unwatch();
    await vi.advanceTimersByTimeAsync(1_000);
    setAccessToken.mockClear();
    session.signIn({ AccessToken: 'access-token-unwatched', ExpiresIn: Date.now() + hour, User: { Id: 9 } } as Parameters<typeof session.signIn>[0]);
    expect(setAccessToken).not.toHaveBeenCalled();
  });

  it('feeds a follower that does not watch the state', async () => {
    const { hub, setAccessToken } = await loadRealtime();
    const release = hub.follow();
    expect(setAccessToken).toHaveBeenCalledWith('access-token-on-load');
    release();
  });

  it('gives the hub no token for an expired login', async () => {
    localStorage.setItem(storageKeys.auth, JSON.stringify({ AccessToken: 'access-token-expired', ExpiresIn: Date.now() - 1 }));
    const { hub, setAccessToken } = await loadRealtime();
    hub.$state.listen(() => {});
    expect(setAccessToken).toHaveBeenLastCalledWith(null);
  });

  it('keeps the hub token in localStorage for the login it was fetched for, and forgets it on logout (10 minutes, across page loads)', async () => {
    const first = await import('@/stores/realtime.ts');
    first.storedHubTokens.write('access-token-on-load', { hubToken: 'hub-token-1', fetchedAt: 1000 });
    // The next page load reads what this one kept; another login reads nothing.
    const { session } = await loadRealtime();
    const next = await import('@/stores/realtime.ts');
    expect(next.storedHubTokens.read('access-token-on-load')).toEqual({ hubToken: 'hub-token-1', fetchedAt: 1000 });
    expect(next.storedHubTokens.read('access-token-of-someone-else')).toBeNull();
    expect(JSON.stringify(localStorage.getItem(storageKeys.hubToken))).not.toContain('access-token-on-load');
    await session.logout();
    expect(next.storedHubTokens.read('access-token-on-load')).toBeNull();
  });
});
