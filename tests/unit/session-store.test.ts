/**
 * The session store (src/stores/session.ts) in Node, through its exported
 * stores and actions, on a stand-in page: in-memory storage, one window's
 * events, a location; the HTTP client is replaced at its edge.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '#contract/identity.ts';
import { storageKeys } from '@/lib/storage.ts';

const api = vi.hoisted(() => ({ call: vi.fn(), unauthorized: new Set<(route: unknown) => void>() }));
vi.mock('@/lib/api/client.ts', () => ({
  call: api.call,
  onUnauthorized: (listener: (route: unknown) => void) => {
    api.unauthorized.add(listener);
    return () => api.unauthorized.delete(listener);
  },
}));

class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, String(value));
  removeItem = (key: string) => void this.items.delete(key);
  clear = () => this.items.clear();
}

const hour = 3600_000;
const user = { Id: 7, NickName: 'Tester' } as UserInfo;
const validToken = () => ({ AccessToken: 'access-token-valid-0001', ExpiresIn: Date.now() + hour });
const expiredToken = () => ({ AccessToken: 'access-token-expired-01', ExpiresIn: Date.now() - 1 });

let page: ReturnType<typeof fakePage>;

/** A page at /en/account/center/info; in a browser `window` is the global object, so its events are global too. */
function fakePage() {
  const events = new EventTarget();
  const listeners = new Map<string, number>();
  const addEventListener = (type: string, listener: EventListener) => {
    listeners.set(type, (listeners.get(type) ?? 0) + 1);
    events.addEventListener(type, listener);
  };
  const removeEventListener = (type: string, listener: EventListener) => {
    listeners.set(type, (listeners.get(type) ?? 0) - 1);
    events.removeEventListener(type, listener);
  };
  const location = { pathname: '/en/account/center/info', search: '', assign: vi.fn(), reload: vi.fn() };
  vi.stubGlobal('window', { addEventListener, removeEventListener });
  vi.stubGlobal('addEventListener', addEventListener);
  vi.stubGlobal('removeEventListener', removeEventListener);
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('sessionStorage', new MemoryStorage());
  vi.stubGlobal('location', location);
  return {
    location,
    storageListeners: () => listeners.get('storage') ?? 0,
    stored: (key: string) => JSON.parse(localStorage.getItem(key) ?? 'null'),
    notice: () => JSON.parse(sessionStorage.getItem(storageKeys.notice) ?? 'null'),
    /** This page logged in before it loaded. */
    loggedIn(token: object, info: object | null = user) {
      localStorage.setItem(storageKeys.auth, JSON.stringify(token));
      if (info) localStorage.setItem(storageKeys.user, JSON.stringify(info));
    },
    /** Another tab writes (or, with null, removes) a key; the browser tells this page. */
    otherTab(key: string, value: unknown) {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
      events.dispatchEvent(Object.assign(new Event('storage'), { key }));
    },
  };
}

/**
 * The store as a page loads it: fresh modules on the current stand-in page,
 * with the contract and the error class as the store itself sees them.
 */
async function loadSession() {
  vi.resetModules();
  const session = await import('@/stores/session.ts');
  const { identity } = await import('#contract/identity.ts');
  const { ApiFailure } = await import('@/lib/api/errors.ts');
  return { session, identity, ApiFailure };
}

beforeEach(() => {
  page = fakePage();
  api.call.mockReset();
  api.unauthorized.clear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the session store', () => {
  it('listens to nothing until a subscriber mounts it, and lets go after the last one leaves', async () => {
    vi.useFakeTimers();
    page.loggedIn(validToken());
    const { session } = await loadSession();
    expect(page.storageListeners()).toBe(0);
    expect(api.unauthorized.size).toBe(0);

    const seen: boolean[] = [];
    const stop = session.$isLoggedIn.subscribe((loggedIn) => seen.push(loggedIn));
    expect(seen).toEqual([true]);
    // The token and the user each follow their own key; the token also hears the 401 event.
    expect(page.storageListeners()).toBe(2);
    expect(api.unauthorized.size).toBe(1);

    stop();
    // nanostores keeps a store mounted a second after its last subscriber, in case another comes;
    // the token and user let go a second after $isLoggedIn does.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(page.storageListeners()).toBe(0);
    expect(api.unauthorized.size).toBe(0);
  });

  it('follows another tab logging in and out while mounted', async () => {
    const { session } = await loadSession();
    const seen: boolean[] = [];
    session.$isLoggedIn.subscribe((loggedIn) => seen.push(loggedIn));
    expect(seen).toEqual([false]);

    const token = validToken();
    page.otherTab(storageKeys.auth, token);
    page.otherTab(storageKeys.user, user);
    expect(session.$authToken.get()).toEqual(token);
    expect(session.$user.get()).toEqual(user);
    expect(seen.at(-1)).toBe(true);

    page.otherTab(storageKeys.auth, null);
    expect(session.$authToken.get()).toBeNull();
    expect(seen.at(-1)).toBe(false);
  });

  it('reads what another tab stored while nobody was listening', async () => {
    vi.useFakeTimers();
    const { session } = await loadSession();
    expect(session.$user.get()).toBeNull();
    await vi.advanceTimersByTimeAsync(1_000);
    page.loggedIn(validToken());
    expect(session.$user.get()).toEqual(user);
  });

  it('forgets the login on a 401 anywhere, in storage too', async () => {
    page.loggedIn(validToken());
    const { session, identity } = await loadSession();
    session.$isLoggedIn.subscribe(() => {});
    for (const listener of api.unauthorized) listener(identity.logout);
    expect(session.$authToken.get()).toBeNull();
    expect(session.$user.get()).toBeNull();
    expect(page.stored(storageKeys.auth)).toBeNull();
    expect(page.stored(storageKeys.user)).toBeNull();
  });

  it('keeps a login for every page and tab, and a logout clears it and reloads', async () => {
    const { session, identity } = await loadSession();
    const token = validToken();
    session.signIn({ ...token, User: user } as Parameters<typeof session.signIn>[0]);
    expect(page.stored(storageKeys.auth)).toEqual(token);
    expect(page.stored(storageKeys.user)).toEqual(user);
    expect(session.$isLoggedIn.get()).toBe(true);

    api.call.mockResolvedValue(null);
    await session.logout();
    expect(api.call).toHaveBeenCalledWith(identity.logout, { token: token.AccessToken });
    expect(page.stored(storageKeys.auth)).toBeNull();
    expect(session.$isLoggedIn.get()).toBe(false);
    expect(page.location.reload).toHaveBeenCalledOnce();
  });
});

describe('logout on a page that needs login', () => {
  it('goes to login once, and does not also reload', async () => {
    page.loggedIn(validToken());
    const { session } = await loadSession();
    session.requireLogin('/en/account/login');
    api.call.mockResolvedValue(null);
    await session.logout();
    expect(page.location.assign).toHaveBeenCalledExactlyOnceWith('/en/account/login?redirectUrl=%2Fen%2Faccount%2Fcenter%2Finfo');
    expect(page.location.reload).not.toHaveBeenCalled();
    expect(page.notice()).toBeNull();
  });
});

describe('login state on page load', () => {
  it('clears user info that has no token', async () => {
    localStorage.setItem(storageKeys.user, JSON.stringify(user));
    const { session } = await loadSession();
    expect(await session.checkLoginState()).toEqual({ user: null, notice: null });
    expect(session.$user.get()).toBeNull();
    expect(page.stored(storageKeys.user)).toBeNull();
    expect(page.location.assign).not.toHaveBeenCalled();
  });

  it('sends a page that needs login to the login page without a message when there was no login', async () => {
    const { session } = await loadSession();
    session.requireLogin('/en/account/login');
    await session.checkLoginState();
    expect(page.notice()).toBeNull();
    expect(page.location.assign).toHaveBeenCalledWith('/en/account/login?redirectUrl=%2Fen%2Faccount%2Fcenter%2Finfo');
  });

  it('clears an expired login, and stays when the page does not need one', async () => {
    page.loggedIn(expiredToken());
    const { session } = await loadSession();
    expect(await session.checkLoginState()).toEqual({ user: null, notice: null });
    expect(session.$authToken.get()).toBeNull();
    expect(session.$user.get()).toBeNull();
    expect(page.stored(storageKeys.auth)).toBeNull();
    expect(page.stored(storageKeys.user)).toBeNull();
    expect(page.location.assign).not.toHaveBeenCalled();
    expect(api.call).not.toHaveBeenCalled();
  });

  it('says 登录状态过期 and goes to login when a page that needs login finds it expired', async () => {
    page.loggedIn(expiredToken());
    const { session } = await loadSession();
    session.requireLogin('/en/account/login');
    await session.checkLoginState();
    expect(page.notice()).toBe('messages.loginExpired');
    expect(page.location.assign).toHaveBeenCalledWith('/en/account/login?redirectUrl=%2Fen%2Faccount%2Fcenter%2Finfo');
    expect(session.$isLoggedIn.get()).toBe(false);
  });

  it('fetches and stores the user info of a valid login', async () => {
    const token = validToken();
    page.loggedIn(token);
    const fresh = { ...user, NickName: 'Renamed' };
    api.call.mockResolvedValue(fresh);
    const { session, identity } = await loadSession();
    session.requireLogin('/en/account/login');
    expect(await session.checkLoginState()).toEqual({ user: fresh, notice: null });
    expect(api.call).toHaveBeenCalledWith(identity.refreshUserInfo, { body: { Refresh: true }, token: token.AccessToken });
    expect(session.$user.get()).toEqual(fresh);
    expect(page.stored(storageKeys.user)).toEqual(fresh);
    expect(page.location.assign).not.toHaveBeenCalled();
  });

  it('logs out with 获取用户信息失败，请重新登录! when the server refuses the user info', async () => {
    page.loggedIn(validToken());
    const { session, identity, ApiFailure } = await loadSession();
    api.call.mockImplementation(async (route) => {
      if (route === identity.refreshUserInfo) throw new ApiFailure('server', { code: 404, serverMessage: 'No such user' });
      return null;
    });
    session.requireLogin('/en/account/login');
    expect(await session.checkLoginState()).toEqual({ user: null, notice: { key: 'messages.userInfoFailed' } });
    expect(page.notice()).toBe('messages.userInfoFailed');
    expect(page.stored(storageKeys.auth)).toBeNull();
    expect(page.location.assign).toHaveBeenCalledWith('/en/account/login?redirectUrl=%2Fen%2Faccount%2Fcenter%2Finfo');
  });

  /** As the real client does: a 401 to a call made with a token raises the 401 event with the route, then fails the call. */
  const refuseEveryCall = (ApiFailure: Awaited<ReturnType<typeof loadSession>>['ApiFailure']) =>
    api.call.mockImplementation(async (route: unknown) => {
      for (const listener of [...api.unauthorized]) listener(route);
      throw new ApiFailure('unauthorized', { code: 401, serverMessage: '登录已过期，请重新登录。' });
    });

  // Issue 29, point 4: the page's 401 handler, the mounted store's and the failed user-info
  // check all see the same refusal; the customer must read one message and be sent once.
  // Issue 47, point 3: that message is the user-info failure's own (spec §8, key 401), not 登录状态过期.
  it.each([
    ['the page asked for login before an island mounted the stores', false],
    ['an island mounted the stores before the page asked for login', true],
  ])('ends a login whose user info the server refuses with a 401 once, saying 获取用户信息失败，请重新登录!: %s', async (_, mountedFirst) => {
    page.loggedIn(validToken());
    const { session, ApiFailure } = await loadSession();
    refuseEveryCall(ApiFailure);
    if (mountedFirst) session.$isLoggedIn.subscribe(() => {});
    session.requireLogin('/en/account/login');
    if (!mountedFirst) session.$isLoggedIn.subscribe(() => {});
    // The layout and the header's badge both check the login as the page loads: the first finds it refused, the second none left.
    const [first, second] = await Promise.all([session.checkLoginState(), session.checkLoginState()]);
    expect(first).toEqual({ user: null, notice: { key: 'messages.userInfoFailed' } });
    expect(second.user).toBeNull();
    expect(page.notice()).toBe('messages.userInfoFailed');
    expect(page.location.assign).toHaveBeenCalledExactlyOnceWith('/en/account/login?redirectUrl=%2Fen%2Faccount%2Fcenter%2Finfo');
    expect(page.stored(storageKeys.auth)).toBeNull();
  });

  // Every page fetches the user info of a logged-in visitor (the header's badge); one open to everyone stays, and says it.
  it('logs out on a page open to everyone when the user info is refused with a 401, and says 获取用户信息失败，请重新登录!', async () => {
    page.loggedIn(validToken());
    const { session, ApiFailure } = await loadSession();
    refuseEveryCall(ApiFailure);
    session.$isLoggedIn.subscribe(() => {});
    expect(await session.checkLoginState()).toEqual({ user: null, notice: { key: 'messages.userInfoFailed' } });
    expect(session.$isLoggedIn.get()).toBe(false);
    expect(page.stored(storageKeys.auth)).toBeNull();
    expect(page.location.assign).not.toHaveBeenCalled();
  });

  it('says 登录状态过期 when another call finds the login refused', async () => {
    page.loggedIn(validToken());
    const { session, identity, ApiFailure } = await loadSession();
    refuseEveryCall(ApiFailure);
    session.requireLogin('/en/account/login');
    await session.authCall(identity.storeToken).catch(() => {});
    expect(page.notice()).toBe('messages.loginExpired');
    expect(page.location.assign).toHaveBeenCalledExactlyOnceWith('/en/account/login?redirectUrl=%2Fen%2Faccount%2Fcenter%2Finfo');
  });

  // Seen under load: the header's check saw the refusal before the page's script said it needs a login.
  it('still says why the login ended when the header noticed the refusal before the page asked for login', async () => {
    page.loggedIn(validToken());
    const { session, ApiFailure } = await loadSession();
    refuseEveryCall(ApiFailure);
    expect(await session.checkLoginState()).toEqual({ user: null, notice: { key: 'messages.userInfoFailed' } });
    expect(page.location.assign).not.toHaveBeenCalled();
    session.requireLogin('/en/account/login');
    await session.checkLoginState();
    expect(page.notice()).toBe('messages.userInfoFailed');
    expect(page.location.assign).toHaveBeenCalledExactlyOnceWith('/en/account/login?redirectUrl=%2Fen%2Faccount%2Fcenter%2Finfo');
  });

  // Issue 47, point 3: the login stays, but the check does not pass for a success.
  it('keeps the login when the user info could not be reached (offline), and says it was not fetched', async () => {
    page.loggedIn(validToken());
    const { session, ApiFailure } = await loadSession();
    api.call.mockRejectedValue(new ApiFailure('network'));
    session.requireLogin('/en/account/login');
    expect(await session.checkLoginState()).toEqual({ user, notice: { key: 'messages.networkError' } });
    expect(session.$isLoggedIn.get()).toBe(true);
    expect(page.location.assign).not.toHaveBeenCalled();
  });

  it.each([
    ['a rate limit', 'tooManyRequests', 429, '操作太快了，请稍后再试。'],
    ['the server’s own trouble', 'server', 503, 'The service is not answering right now. Please try again in a moment.'],
  ] as const)('keeps the login when the user info is not given for %s, and says so in the server’s words', async (_, kind, code, serverMessage) => {
    page.loggedIn(validToken());
    const { session, ApiFailure } = await loadSession();
    api.call.mockRejectedValue(new ApiFailure(kind, { code, serverMessage }));
    expect(await session.checkLoginState()).toEqual({ user, notice: { text: serverMessage } });
    expect(session.$isLoggedIn.get()).toBe(true);
    expect(page.stored(storageKeys.auth)).not.toBeNull();
  });
});
