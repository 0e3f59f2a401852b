/**
 * The login state of spec §3/§4: the auth token (AccessToken + ExpiresIn) and
 * the user info, both in localStorage so every page and tab sees them; the
 * device id; and the rules for a missing, expired or valid token, login and
 * logout. Islands render from these stores and call these actions.
 */
import { atom, computed } from 'nanostores';
import { identity, type LoginResult, type UserInfo } from '../../contract/identity.ts';
import { call, onUnauthorized } from '../lib/api/client.ts';
import { ApiFailure } from '../lib/api/errors.ts';
import { cacheTimes, clearQueryCache, createFetcherStore } from '../lib/api/query.ts';
import { readJson, storageKeys, writeJson } from '../lib/storage.ts';

export interface AuthToken {
  AccessToken: string;
  /** Milliseconds since the epoch. */
  ExpiresIn: number;
}

export const $authToken = atom<AuthToken | null>(readJson<AuthToken>(storageKeys.auth));
export const $user = atom<UserInfo | null>(readJson<UserInfo>(storageKeys.user));

$authToken.listen((token) => writeJson(storageKeys.auth, token));
$user.listen((user) => writeJson(storageKeys.user, user));

/** Another tab logged in or out: follow it. */
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === storageKeys.auth) $authToken.set(readJson<AuthToken>(storageKeys.auth));
    if (event.key === storageKeys.user) $user.set(readJson<UserInfo>(storageKeys.user));
  });
}

export const isTokenValid = (token: AuthToken | null, now = Date.now()): token is AuthToken => token !== null && token.ExpiresIn > now;

export const $isLoggedIn = computed([$authToken, $user], (token, user) => isTokenValid(token) && user !== null);

/** The device id: made once, then kept (spec §3). */
export function deviceId(): string {
  let id = readJson<string>(storageKeys.device);
  if (!id) {
    id = crypto.randomUUID();
    writeJson(storageKeys.device, id);
  }
  return id;
}

/** Fetches the user info at most once per cache time per token (spec §9). */
const $userInfo = createFetcherStore<UserInfo>(
  ['user-info:', computed($authToken, (token) => (isTokenValid(token) ? token.AccessToken.slice(0, 16) : null))],
  {
    fetcher: () => call(identity.refreshUserInfo, { body: { Refresh: true }, token: $authToken.get()?.AccessToken }),
    dedupeTime: cacheTimes.userInfo,
    revalidateOnFocus: false,
    onErrorRetry: null,
  },
);

/** Shows `messageKey` on the next page (the login page reads it). */
export function leaveNotice(messageKey: string): void {
  writeJson(storageKeys.notice, messageKey, 'session');
}

export function takeNotice(): string | null {
  const key = readJson<string>(storageKeys.notice, 'session');
  writeJson(storageKeys.notice, null, 'session');
  return key;
}

/** The login page, remembering where to come back to. */
export function loginUrl(loginPath: string, back = location.pathname + location.search): string {
  return `${loginPath}?redirectUrl=${encodeURIComponent(back)}`;
}

export function signIn(result: LoginResult): void {
  clearQueryCache();
  $authToken.set({ AccessToken: result.AccessToken, ExpiresIn: result.ExpiresIn });
  $user.set(result.User);
}

function forget(): void {
  $authToken.set(null);
  $user.set(null);
  clearQueryCache();
}

/**
 * Logout (spec §4): revokes the token on the server when possible, clears the
 * user info, the token and every cached answer (store token, customer-service
 * link), then goes to login with redirectUrl, or reloads.
 */
export async function logout(options: { loginPath?: string } = {}): Promise<void> {
  const token = $authToken.get();
  forget();
  if (isTokenValid(token)) await call(identity.logout, { token: token.AccessToken }).catch(() => {});
  if (options.loginPath) location.assign(loginUrl(options.loginPath));
  else location.reload();
}

/**
 * Spec §4 on page load. Missing token: clear the user. Expired: clear, and
 * when this page needs login, say 登录状态过期 and go to login. Valid: fetch the
 * user info (cached) and store it, or log out with 获取用户信息失败，请重新登录!
 */
export async function checkLoginState(options: { loginPath?: string } = {}): Promise<UserInfo | null> {
  const token = $authToken.get();
  if (!token) {
    if ($user.get()) $user.set(null);
  } else if (!isTokenValid(token)) {
    forget();
  } else {
    const result = await $userInfo.fetch();
    if ('data' in result) {
      $user.set(result.data);
      return result.data;
    }
    // Only an answer from the server ends the login. A request cut off (offline, or the
    // page unloading mid-answer) keeps the stored user: it is not a failed login.
    if (result.error instanceof ApiFailure && (result.error.kind === 'network' || result.error.kind === 'unknown')) return $user.get();
    leaveNotice('session.userInfoFailed');
    await logout(options);
    return null;
  }
  if (options.loginPath) {
    if (token) leaveNotice('session.expired');
    location.assign(loginUrl(options.loginPath));
  }
  return null;
}

// Spec §4: the 401 event means the login expired wherever it was noticed.
onUnauthorized(() => {
  if ($authToken.get()) forget();
});
