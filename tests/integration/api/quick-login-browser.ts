/**
 * What a browser and a caller (the site or the desktop client) do in a quick
 * login, for API tests against a listening app: the caller makes a key and
 * the start URL; the "browser" follows redirects with its cookies and submits
 * the development provider's sign-in form; the caller opens the outcome.
 */
import { constants, createPublicKey, createSecretKey, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';
import type { QuickLoginProvider } from '#contract/account.ts';
import { ExternalLoginResult, keyPadding } from '#contract/external-login.ts';
import { openHex, sealHex } from '../../../server/crypto/sealed.ts';
import type { TestApp } from './harness.ts';

export interface Caller {
  key: KeyObject;
  sKeyHex: string;
}

/** A caller's fresh key, wrapped for the server. */
export function newCaller(app: TestApp): Caller {
  const key = randomBytes(32);
  const spki = createPublicKey({ key: Buffer.from(app.publicSpki, 'base64'), format: 'der', type: 'spki' });
  const sKeyHex = publicEncrypt({ key: spki, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, key).toString('hex');
  return { key: createSecretKey(key), sKeyHex };
}

export interface StartOptions {
  isWeb?: boolean;
  lang?: string;
  deviceId?: string;
  /** Links the identity to this session's account instead of logging in. */
  bind?: { token: string; expiresAt: number };
}

export function startUrl(origin: string, provider: QuickLoginProvider, caller: Caller, options: StartOptions = {}): string {
  const query = new URLSearchParams({
    isBind: String(Boolean(options.bind)),
    ver: '3.2.0',
    sKeyHex: caller.sKeyHex,
    sKeyPadding: keyPadding,
    isWeb: String(options.isWeb ?? true),
    dg: options.deviceId ?? 'quick-login-test-device',
    dr: 'Windows 11',
    dn: 'GAMING-PC',
    ...(options.lang ? { lang: options.lang } : {}),
    ...(options.bind
      ? { access_token: sealHex(caller.key, options.bind.token), access_token_expires: sealHex(caller.key, String(options.bind.expiresAt)) }
      : {}),
  });
  return `${origin}/api/ExternalLoginDetection/${provider}?${query}`;
}

/** A browser: its cookies, and the addresses it was sent to. */
export class Browser {
  readonly #cookies = new Map<string, string>();

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = {
      'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36',
    };
    if (this.#cookies.size > 0) headers.cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.form ? new URLSearchParams(init.form) : undefined,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = pair.split('=');
      const cleared = value === '' || attributes.some((attribute) => /^\s*(max-age=0|expires=Thu, 01 Jan 1970)/i.test(attribute));
      if (cleared) this.#cookies.delete(name.trim());
      else this.#cookies.set(name.trim(), value);
    }
    return response;
  }

  /** Where a redirect sends the browser (fails on anything but a redirect). */
  async redirected(url: string): Promise<string> {
    const response = await this.request(url);
    const next = response.headers.get('location');
    if (response.status !== 302 || !next) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
    return new URL(next, url).href;
  }

  /** Submits the development provider's sign-in form: as `id` named `name`, or cancelling. Answers where it sends the browser. */
  async signIn(pageUrl: string, page: string, who: { id?: string; name?: string } | 'cancel'): Promise<string> {
    const form: Record<string, string> = {};
    for (const [, name, value] of page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) form[decode(name)] = decode(value);
    for (const field of ['id', 'name']) form[field] = decode(new RegExp(`name="${field}" required value="([^"]*)"`).exec(page)?.[1] ?? '');
    if (who === 'cancel') form.decision = 'deny';
    else Object.assign(form, { decision: 'allow' }, who.id ? { id: who.id } : {}, who.name ? { name: who.name } : {});
    const response = await this.request(pageUrl, { method: 'POST', form });
    const next = response.headers.get('location');
    if (response.status !== 302 || !next) throw new Error(`the sign-in form answered ${response.status}: ${await response.text()}`);
    return new URL(next, pageUrl).href;
  }
}

const decode = (html: string) => html.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));

/** The outcome in a landing address's fragment: the caller's sealed result, or the error. */
export function outcome(landing: string, caller: Caller): ExternalLoginResult | { error: string; provider: string } {
  const fragment = new URLSearchParams(new URL(landing).hash.slice(1));
  const sealed = fragment.get('external');
  if (sealed) return ExternalLoginResult.parse(JSON.parse(openHex(caller.key, sealed)));
  return { error: fragment.get('external-error') ?? 'none', provider: fragment.get('provider') ?? '' };
}

/**
 * One whole quick login in the development provider: start, sign in as `who`,
 * come back. Answers where the browser landed.
 */
export async function quickLogin(
  origin: string,
  provider: QuickLoginProvider,
  caller: Caller,
  who: { id?: string; name?: string } | 'cancel',
  options: StartOptions = {},
  browser = new Browser(),
): Promise<string> {
  const atProvider = await browser.redirected(startUrl(origin, provider, caller, options));
  if (!atProvider.startsWith(`${origin}/api/dev/idp/`)) return atProvider;
  const page = await browser.request(atProvider);
  const back = await browser.signIn(atProvider, await page.text(), who);
  if (!back.startsWith(`${origin}/api/ExternalLoginDetection/${provider}/callback`)) throw new Error(`the provider sent the browser to ${back}`);
  return browser.redirected(back);
}
