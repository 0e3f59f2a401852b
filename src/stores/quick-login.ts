/**
 * Quick login in the browser (contract/external-login.ts). Starting makes a
 * key, keeps it in this tab's sessionStorage with where to come back to, and
 * sends the browser to the server's start address, which goes on to the
 * provider. The browser comes back to the login page with the outcome in the
 * fragment, sealed under that key: reading it takes the fragment out of the
 * address bar and the key out of storage, so an outcome is read once.
 */
import type { QuickLoginProvider } from '#contract/account.ts';
import {
  externalLogin,
  externalLoginErrors,
  ExternalLoginResult,
  keyPadding,
  type ExternalLoginError,
  type ExternalProvider,
} from '#contract/external-login.ts';
import type { LocaleCode } from '#contract/locales.ts';
import { call, routeUrl, serverPublicKey } from '@/lib/api/client.ts';
import { createSealer, hexSealer } from '@/lib/api/crypto.ts';
import type { AuthToken } from '@/lib/auth-token.ts';
import { readJson, storageKeys, writeJson } from '@/lib/storage.ts';
import { $authToken, deviceId } from './session.ts';

/** What a quick login is for: logging in, or linking the identity to the logged-in account. */
export type QuickPurpose = 'login' | 'bind';

interface Pending {
  key: string;
  provider: QuickLoginProvider;
  purpose: QuickPurpose;
  /** The page to go back to (a path of this site). */
  returnPath: string;
}

export type QuickOutcome = Omit<Pending, 'key'> & ({ result: ExternalLoginResult } | { error: ExternalLoginError });

export interface StartOptions {
  purpose: QuickPurpose;
  returnPath: string;
  lang: LocaleCode;
  /** The login to link the identity to (purpose `bind`). */
  token?: AuthToken;
}

export const quickProviders = (): Promise<ExternalProvider[]> => call(externalLogin.providers);

export async function startQuickLogin(provider: QuickLoginProvider, options: StartOptions): Promise<void> {
  const sealer = await createSealer(await serverPublicKey());
  const hex = await hexSealer(sealer.rawKey);
  const bind = options.token
    ? { access_token: await hex.seal(options.token.AccessToken), access_token_expires: await hex.seal(String(options.token.ExpiresIn)) }
    : {};
  const pending: Pending = { key: sealer.rawKey, provider, purpose: options.purpose, returnPath: options.returnPath };
  writeJson(storageKeys.externalLogin, pending, 'session');
  const body = {
    isBind: options.token ? 'true' : 'false',
    isWeb: 'true',
    sKeyHex: sealer.wrappedKey,
    sKeyPadding: keyPadding,
    dg: deviceId(),
    lang: options.lang,
    ...bind,
  } as const;
  location.assign(routeUrl(externalLogin.start, { params: { provider }, body }));
}

/** Links `provider` to the logged-in account: a quick login that comes back to this page, which then reads `takeLinkOutcome`. */
export function startLinking(provider: QuickLoginProvider, lang: LocaleCode): Promise<void> {
  const token = $authToken.get();
  if (!token) return Promise.resolve();
  return startQuickLogin(provider, { purpose: 'bind', returnPath: location.pathname, lang, token });
}

/** How a linking went, as the login page sent it back to this page (`?external=linked|<reason>&provider=…`); once. */
export function takeLinkOutcome(): { provider: string; error: ExternalLoginError | null } | null {
  const query = new URLSearchParams(location.search);
  const outcome = query.get('external');
  if (!outcome) return null;
  history.replaceState(history.state, '', location.pathname);
  return { provider: query.get('provider') ?? '', error: isError(outcome) ? outcome : null };
}

const isError = (reason: string | null): reason is ExternalLoginError => externalLoginErrors.some((known) => known === reason);

/** The outcome in this page's address, once; null when there is none. An outcome this tab cannot open (its key is gone) counts as expired. */
export async function takeQuickOutcome(): Promise<QuickOutcome | null> {
  // The build renders the login page in Node, where there is no address.
  if (typeof location === 'undefined') return null;
  const fragment = new URLSearchParams(location.hash.slice(1));
  const sealed = fragment.get('external');
  const reason = fragment.get('external-error');
  if (sealed === null && reason === null) return null;
  history.replaceState(history.state, '', location.pathname + location.search);
  const pending = readJson<Pending>(storageKeys.externalLogin, 'session');
  writeJson(storageKeys.externalLogin, null, 'session');
  if (!pending) return null;
  const { key, ...context } = pending;
  if (sealed === null) return { ...context, error: isError(reason) ? reason : 'failed' };
  try {
    return { ...context, result: ExternalLoginResult.parse(JSON.parse(await (await hexSealer(key)).open(sealed))) };
  } catch {
    return { ...context, error: 'expired' };
  }
}

/**
 * Whether the browser reaches a provider's sign-in site: it loads the image
 * `checkUrl`, with a short time-out (Steam's community is often unreachable
 * without acceleration, and then hangs rather than fails).
 */
export function reachable(checkUrl: string, timeoutMs = 3000): Promise<boolean> {
  return new Promise((resolve) => {
    const image = new Image();
    const timer = setTimeout(() => done(false), timeoutMs);
    function done(ok: boolean) {
      clearTimeout(timer);
      image.onload = image.onerror = null;
      resolve(ok);
    }
    image.onload = () => done(true);
    image.onerror = () => done(false);
    // A fresh address each time: a cached image proves nothing about the network now.
    image.src = `${checkUrl}${checkUrl.includes('?') ? '&' : '?'}t=${Date.now()}`;
  });
}
