/**
 * Desktop sign-in approval: the desktop client signs in through the website
 * with a device authorization flow shaped like RFC 8628.
 *
 * 1. The client asks (`start`) and gets a device code, which only it holds,
 *    and a user code with the page where a person approves it — as an address
 *    with the code in it and as a QR code of that address.
 * 2. The person opens the page (logged in, or logging in there), sees the
 *    device's name and where the request came from (`describe`), and
 *    approves or refuses (`decide`).
 * 3. The client polls (`poll`) no faster than `Interval`: it gets its tokens
 *    once, or `DeviceAuthorizationPending`, `DeviceSlowDown`,
 *    `DeviceAccessDenied` or `DeviceCodeExpired` (contract/errors.ts).
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { Empty, text } from './fields.ts';
import { DeviceId, LoginResult } from './identity.ts';
import { localeCodes } from './locales.ts';

export const deviceLogin = {
  /** How long a request may wait for its approval, and how often the client may ask. */
  lifetimeMs: 10 * 60_000,
  intervalSeconds: 5,
  /** User codes: eight letters without vowels or look-alikes (no words, no 0/O, 1/I), shown as XXXX-XXXX. */
  userCodeAlphabet: 'BCDFGHJKLMNPQRSTVWXZ',
  /** The login page's query parameter that carries the user code. */
  queryParameter: 'device',
} as const;

/** A user code as a person types it: any case, with or without its dash; always XXXX-XXXX after. */
const UserCode = z.pipe(
  text(z.trim(), z.toUpperCase(), z.regex(/^[A-Z]{4}-?[A-Z]{4}$/)),
  z.transform((code) => `${code.replace('-', '').slice(0, 4)}-${code.replace('-', '').slice(4)}`),
);

export const DeviceRequest = z.object({
  UserCode: text(),
  /** The device as the client names it ("GAMING-PC · Windows 11"). */
  Device: text(),
  /** The country of the address the request came from (ISO 3166), 'local', or null when unknown. */
  Place: z.nullable(text()),
  CreatedAt: z.iso.datetime(),
  ExpiresAt: z.iso.datetime(),
});
export type DeviceRequest = z.infer<typeof DeviceRequest>;

export const deviceCalls = {
  start: route({
    method: 'POST',
    path: '/identity/v1/device/authorize',
    encrypted: true,
    auth: 'none',
    shape: 'envelope',
    request: z.object({
      DeviceId,
      /** The device's name and system, shown to the person who approves. */
      DeviceName: text(z.trim(), z.minLength(1), z.maxLength(64)),
      System: z.optional(text(z.trim(), z.maxLength(64))),
      /** The language of the approval page. */
      Lang: z.optional(z.enum(localeCodes)),
    }),
    response: z.object({
      DeviceCode: text(),
      UserCode: text(),
      VerificationUri: z.url(),
      VerificationUriComplete: z.url(),
      /** A QR code of `VerificationUriComplete`, as SVG. */
      QrSvg: text(),
      /** Seconds. */
      ExpiresIn: z.int(),
      Interval: z.int(),
    }),
  }),
  poll: route({
    method: 'POST',
    path: '/identity/v1/device/token',
    encrypted: true,
    auth: 'none',
    shape: 'envelope',
    request: z.object({ DeviceCode: text(z.minLength(1), z.maxLength(100)) }),
    response: LoginResult,
  }),
  /** The pending request of a user code, for the person to check before deciding; unknown, decided or expired codes are not found. */
  describe: route({
    method: 'GET',
    path: '/identity/v1/device/request/:userCode',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: z.object({ userCode: UserCode }),
    request: Empty,
    response: DeviceRequest,
  }),
  decide: route({
    method: 'POST',
    path: '/identity/v1/device/decide',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ UserCode, Approve: z.boolean() }),
    response: z.object({ Approved: z.boolean() }),
  }),
};
