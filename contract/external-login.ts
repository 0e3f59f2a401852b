/**
 * Quick login through a third-party identity (from the login page): Steam by
 * OpenID 2.0, Microsoft (the Xbox network) by OpenID
 * Connect, QQ by OAuth 2.0.
 *
 * The caller — the site or the desktop client — makes an AES key, wraps it
 * for the server as a sealed call does (`sKeyHex`), and opens the external
 * login URL in a browser. The browser goes to the provider and back; the
 * server then sends it to the caller's landing place with the outcome in the
 * fragment, sealed under the caller's key and hex-encoded, so that only the
 * caller can read it:
 *
 *   <landing>#external=<hex(iv ‖ AES-256-CBC(key, iv, JSON ExternalLoginResult))>
 *   <landing>#external-error=<reason>&provider=<provider>
 *
 * The site lands on its login page; the desktop client on `desktopLanding`
 * (a private-use URI scheme, RFC 8252 §7.1).
 */
import * as z from 'zod/mini';
import { quickLoginProviders } from './account.ts';
import { route } from './api.ts';
import { Empty, text } from './fields.ts';
import { Code, DeviceId, LoginResult, Phone } from './identity.ts';
import { localeCodes } from './locales.ts';

const Provider = z.enum(quickLoginProviders);
/** A provider as a path names it: the desktop client writes `Steam`, `Microsoft`, `QQ`; any case is the same provider. */
const ProviderInPath = z.pipe(text(z.toLowerCase()), Provider);
const flag = z.pipe(
  z.optional(z.enum(['true', 'false', 'True', 'False'])),
  z.transform((value) => value?.toLowerCase() === 'true'),
);
const Hex = (max: number) => text(z.regex(/^[0-9a-f]+$/i), z.maxLength(max));

/** The RSA padding `sKeyHex` is wrapped with: OAEP with SHA-256, as in every sealed call. */
export const keyPadding = 'OaepSHA256';

/** Where the desktop client receives its outcome. */
export const desktopLanding = 'beacon-toolkit://external-login';

/** How long a started login may take at the provider, and a "bind phone" step after it. */
export const externalLoginLifetimeMs = 10 * 60_000;

/**
 * Why a quick login did not finish; the site words each in the reader's
 * language. `taken`: the identity belongs to another account; `alreadyLinked`:
 * this account has another identity of the provider.
 */
export const externalLoginErrors = ['failed', 'expired', 'denied', 'taken', 'alreadyLinked'] as const;
export type ExternalLoginError = (typeof externalLoginErrors)[number];

/** The outcome the caller reads from the fragment. */
export const ExternalLoginResult = z.discriminatedUnion('Status', [
  /** Logged in: the tokens and the user, as a code login returns them. */
  z.object({ Status: z.literal('signedIn'), Provider, Login: LoginResult }),
  /** The identity is now linked to the account whose token came with the request. */
  z.object({ Status: z.literal('bound'), Provider }),
  /** The identity is new, or its account has no phone: prove a phone with an SMS code to finish (`bindPhone`). */
  z.object({ Status: z.literal('bindPhone'), Provider, Ticket: text(), DisplayName: text() }),
]);
export type ExternalLoginResult = z.infer<typeof ExternalLoginResult>;

export const ExternalProvider = z.object({
  Provider,
  /**
   * An image on the provider's sign-in site that the browser loads to see
   * whether the site is reachable (Steam's community must be accelerated in
   * some regions); null when there is nothing to check.
   */
  CheckUrl: z.nullable(text()),
});
export type ExternalProvider = z.infer<typeof ExternalProvider>;

export const externalLogin = {
  /**
   * Starts a quick login: answers with a redirect to the provider.
   * `isBind` links the identity to the account of `access_token` instead of
   * logging in; the token and its expiry (milliseconds since the epoch) come
   * sealed under the caller's key, hex-encoded like the outcome.
   */
  start: route({
    method: 'GET',
    path: '/ExternalLoginDetection/:provider',
    encrypted: false,
    auth: 'none',
    shape: 'redirect',
    params: z.object({ provider: ProviderInPath }),
    request: z.object({
      isBind: flag,
      /** The caller's version, shown with its device in the sessions list. */
      ver: z.optional(text(z.maxLength(32))),
      sKeyHex: Hex(1024),
      sKeyPadding: z.literal(keyPadding),
      /** True for the site, which lands on its login page; false for the desktop client. */
      isWeb: flag,
      /** The device id, the device's system and its name. */
      dg: DeviceId,
      dr: z.optional(text(z.maxLength(64))),
      dn: z.optional(text(z.maxLength(64))),
      /** The site's language, for the page the browser lands on (the desktop client leaves it out). */
      lang: z.optional(z.enum(localeCodes)),
      access_token: z.optional(Hex(512)),
      access_token_expires: z.optional(Hex(256)),
    }),
    response: z.url(),
  }),
  /** Where the provider sends the browser back; never called by the site itself. */
  callback: route({
    method: 'GET',
    path: '/ExternalLoginDetection/:provider/callback',
    encrypted: false,
    auth: 'none',
    shape: 'redirect',
    params: z.object({ provider: ProviderInPath }),
    request: z.record(text(), z.union([text(), z.array(text())])),
    response: text(),
  }),
  /** The providers this server offers. */
  providers: route({
    method: 'GET',
    path: '/identity/v1/externallogin/providers',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    request: Empty,
    response: z.array(ExternalProvider),
  }),
  /** Finishes a `bindPhone` outcome with the phone's SMS code: logs in, linking the identity to the phone's account (made when new). */
  bindPhone: route({
    method: 'POST',
    path: '/identity/v1/externallogin/bindphone',
    encrypted: true,
    auth: 'none',
    shape: 'envelope',
    request: z.object({
      Ticket: text(z.minLength(1), z.maxLength(100)),
      Phone,
      Code,
      DeviceId,
    }),
    response: LoginResult,
  }),
};
