/**
 * The login state: the auth token (AccessToken + ExpiresIn) and
 * the user info, both in localStorage so every page and tab sees them; the
 * device id; and the rules for a missing, expired or valid token, login and
 * logout. Islands render from these stores and call these actions; plain
 * scripts may call the actions without subscribing.
 *
 * Nothing listens on import: a store reads localStorage, follows other tabs and
 * (for the token) the 401 event only while it is mounted — subscribed, or
 * briefly while an action reads it (nanostores mounts a store for `get()`).
 */
import { atom, computed, onMount, type ReadableAtom, type WritableAtom } from 'nanostores';
import type { ApiRoute, ResponseOf } from '#contract/api.ts';
import { identity, type LoginResult, type UserInfo } from '#contract/identity.ts';
import { httpStatusOf } from '#contract/errors.ts';
import { call, onUnauthorized, type CallOptions } from '@/lib/api/client.ts';
import { ApiFailure, failureMessage } from '@/lib/api/errors.ts';
import { cacheTimes, clearQueryCache, createFetcherStore, mutateCache } from '@/lib/api/query.ts';
import { isTokenValid, type AuthToken } from '@/lib/auth-token.ts';
import { readJson, storageKeys, writeJson } from '@/lib/storage.ts';

/**
 * A store whose value lives in localStorage under `key`. It reads the stored
 * value when it mounts (another tab may have changed it meanwhile) and, while
 * mounted, follows other tabs' writes; `save` writes both.
 */
function storedAtom<T>(key: string): { $store: WritableAtom<T | null>; save: (value: T | null) => void } {
  const $store = atom<T | null>(null);
  onMount($store, () => {
    const read = () => $store.set(readJson<T>(key));
    read();
    // The build renders islands in Node, where there is no window and no other tab.
    if (typeof window === 'undefined') return;
    // Another tab logged in or out, or cleared the storage (key null): follow it.
    const follow = (event: StorageEvent) => {
      if (event.key === key || event.key === null) read();
    };
    window.addEventListener('storage', follow);
    return () => window.removeEventListener('storage', follow);
  });
  const save = (value: T | null) => {
    writeJson(key, value);
    $store.set(value);
  };
  return { $store, save };
}

const token = storedAtom<AuthToken>(storageKeys.auth);
const user = storedAtom<UserInfo>(storageKeys.user);

// Read-only outside: every change goes through the actions, which keep storage in step.
export const $authToken: ReadableAtom<AuthToken | null> = token.$store;
export const $user: ReadableAtom<UserInfo | null> = user.$store;

/**
 * What a login the server refused leaves to say: the user-info fetch's own
 * message when that was the call refused (spec §8, key 401), 登录状态过期
 * for any other.
 */
const refusalNotice = (route: ApiRoute) => (route === identity.refreshUserInfo ? 'messages.userInfoFailed' : 'messages.loginExpired');

// The 401 event means the login ended wherever it was noticed.
onMount($authToken, () =>
  onUnauthorized((route) => {
    if ($authToken.get()) void endLogin(refusalNotice(route));
  }),
);

export const $isLoggedIn = computed([$authToken, $user], (current, info) => isTokenValid(current) && info !== null);

/** The device id: made once, then kept. */
export function deviceId(): string {
  let id = readJson<string>(storageKeys.device);
  if (!id) {
    id = crypto.randomUUID();
    writeJson(storageKeys.device, id);
  }
  return id;
}

/** What a login's kept answers are filed under: a part of its access token, never the whole. */
export const loginKey = (accessToken: string) => accessToken.slice(0, 16);

/** What cached answers of a login are kept under, or null (nothing is fetched) when logged out. */
export const $tokenKey = computed($authToken, (current) => (isTokenValid(current) ? loginKey(current.AccessToken) : null));

/** A call made at most once per login and cache time: kept under the login's key, not refetched on focus, not retried by itself. */
export function perLoginStore<T>(prefix: string, cacheTime: number, fetcher: () => Promise<T>) {
  return createFetcherStore<T>([prefix, $tokenKey], { fetcher, dedupeTime: cacheTime, refreshOnFocus: false, onErrorRetry: null });
}

/** Fetches the user info at most once per cache time per token. */
const $userInfo = perLoginStore<UserInfo>('user-info:', cacheTimes.userInfo, () =>
  call(identity.refreshUserInfo, { body: { Refresh: true }, token: $authToken.get()?.AccessToken }),
);

/** Shows `messageKey` on the next page (the login page reads it). */
export function leaveNotice(messageKey: string): void {
  writeJson(storageKeys.notice, messageKey, 'session');
}

/** The message left for this page, once. */
export function takeNotice(): string | null {
  const key = readJson<string>(storageKeys.notice, 'session');
  writeJson(storageKeys.notice, null, 'session');
  return key;
}

/** The login page, remembering where to come back to. */
export function loginUrl(loginPath: string, back = location.pathname + location.search): string {
  return `${loginPath}?redirectUrl=${encodeURIComponent(back)}`;
}

/** Keeps a login: its token and user, for every page and tab. */
export function signIn(result: LoginResult): void {
  clearQueryCache();
  token.save({ AccessToken: result.AccessToken, ExpiresIn: result.ExpiresIn });
  user.save(result.User);
}

/** Keeps the user as a call that changed them answered, in the store and in the cached user info. */
export function updateUser(info: UserInfo): void {
  user.save(info);
  mutateCache((key) => key.startsWith('user-info:'), info);
}

/** Calls a route as the logged-in user (the `Call` a store is handed for its account calls). */
export function authCall<R extends ApiRoute>(route: R, options: Omit<CallOptions<R>, 'token'> = {}): Promise<ResponseOf<R>> {
  return call(route, { ...options, token: $authToken.get()?.AccessToken });
}

/** Reads the user afresh from the server, past every cache: for pages that show what may have changed elsewhere (an e-mail confirmed from another device). */
export async function refreshUser(): Promise<void> {
  const current = $authToken.get();
  if (!isTokenValid(current)) return;
  updateUser(await call(identity.refreshUserInfo, { body: { Refresh: true }, token: current.AccessToken }));
}

/** Where this page sends an ended login, when the page needs one (`requireLogin`). */
let loginPathOfPage: string | undefined;
/** Whether this page is already on its way to login: however many paths notice the end of a login, the customer reads one message and the page navigates once. */
let sentToLogin = false;
/** Why the login ended before the page said it needs one (the header checks the login too, and may be first): said when the page then goes to login. */
let endedBecause: string | null = null;

function goToLogin(notice: string | null, loginPath = loginPathOfPage): void {
  if (!loginPath) {
    endedBecause = notice ?? endedBecause;
    return;
  }
  if (sentToLogin) return;
  sentToLogin = true;
  const said = notice ?? endedBecause;
  if (said) leaveNotice(said);
  location.assign(loginUrl(loginPath));
}

/**
 * Ends the login in this browser (revoking it on the server when asked) and
 * goes to the login page with `notice`; a page open to everyone just shows
 * itself logged out. The page is sent before the token is forgotten: the
 * token's disappearance also means "another tab logged out", which sends the
 * page without a word.
 */
async function endLogin(notice: string | null, { revoke = false, loginPath = loginPathOfPage } = {}): Promise<void> {
  const current = $authToken.get();
  if (revoke && isTokenValid(current)) await call(identity.logout, { token: current.AccessToken }).catch(() => {});
  goToLogin(notice, loginPath);
  signOutHere();
}

/**
 * Makes this page one that needs login: when any call is answered
 * 401 the page says 登录状态过期 (获取用户信息失败，请重新登录! for the
 * user info) and goes to login, to come back here afterwards; when another
 * tab logs out, it goes there without a word. Call it before `checkLoginState`.
 */
export function requireLogin(loginPath: string): void {
  loginPathOfPage = loginPath;
  onUnauthorized((route) => void endLogin(refusalNotice(route)));
  $authToken.listen((current) => {
    if (!current) goToLogin(null);
  });
}

/** Forgets the login in this browser: its token, its user and every cached answer (logout also ends it on the server; an expired token or a deleted account has no server side left). */
export function signOutHere(): void {
  token.save(null);
  user.save(null);
  writeJson(storageKeys.hubToken, null);
  clearQueryCache();
}

/**
 * Logout: revokes the token on the server when possible, clears the
 * user info, the token and every cached answer (store token, customer-service
 * link), then goes to login with redirectUrl (the one given, or the page's when
 * it needs a login), or reloads.
 */
export async function logout(options: { loginPath?: string } = {}): Promise<void> {
  await endLogin(null, { revoke: true, loginPath: options.loginPath ?? loginPathOfPage });
  if (!sentToLogin) location.reload();
}

/** What the visitor is told after the login check: the login ended because the user info was refused, or the user info could not be fetched. */
export type LoginNotice = { key: 'messages.userInfoFailed' } | ReturnType<typeof failureMessage>;

/** What the login check on page load found: the user (null when logged out), and what to tell the visitor, if anything. */
export interface LoginCheck {
  user: UserInfo | null;
  notice: LoginNotice | null;
}

/**
 * The login state on page load. Missing token: clear the user. Expired: clear, and
 * when this page needs login, say 登录状态过期 and go to login. Valid: fetch the
 * user info (cached) and store it. A refusal of the user info — a 401 (the token
 * is refused), or any other — logs out with 获取用户信息失败，请重新登录!, said on
 * this page and, when it needs login, on the login page; the token is revoked
 * unless the server refused it already.
 */
export async function checkLoginState(): Promise<LoginCheck> {
  const current = $authToken.get();
  if (!current) {
    if ($user.get()) user.save(null);
    goToLogin(null);
    return { user: null, notice: null };
  }
  if (!isTokenValid(current)) {
    await endLogin('messages.loginExpired');
    return { user: null, notice: null };
  }
  const result = await $userInfo.fetch();
  if ('data' in result) {
    user.save(result.data);
    return { user: result.data, notice: null };
  }
  // Only the server's refusal ends the login. No answer (offline, or the page unloading mid-answer), one we cannot
  // read, a rate limit or the server's own trouble (5xx) says nothing of the login: the stored user stays, but the
  // visitor is told the user info was not fetched.
  const error = result.error instanceof ApiFailure ? result.error : new ApiFailure('unknown');
  const notRefused = error.kind === 'network' || error.kind === 'unknown' || error.kind === 'tooManyRequests' || httpStatusOf(error.code ?? 0) >= 500;
  if (notRefused) return { user: $user.get(), notice: failureMessage(error) };
  await endLogin('messages.userInfoFailed', { revoke: error.kind !== 'unauthorized' });
  return { user: null, notice: { key: 'messages.userInfoFailed' } };
}
