/** Identity calls: codes, login, tokens, sessions, store and hub tokens. */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { facts, periodMs } from './facts.ts';
import { Empty, pathId, printable, text } from './fields.ts';

/** International numbers with an optional leading +, 6–15 digits (E.164 length). */
export const phonePattern = /^\+?[0-9]{6,15}$/;
export const codePattern = new RegExp(`^[0-9]{${facts.verification.codeLength}}$`);
export const passwordRules = { min: facts.account.passwordMinLength, max: facts.account.passwordMaxLength } as const;

/** The code's length, validity and resend wait are facts the pages and messages state too (content/facts.json). */
export const verification = {
  codeLength: facts.verification.codeLength,
  validMs: periodMs(facts.verification.codeValidity),
  resendAfterMs: periodMs(facts.verification.resendAfter),
  maxTries: 5,
  /** Codes a phone number or e-mail address is sent in a day (the per-address cap is a setting: CODES_PER_ADDRESS_PER_DAY). */
  dailyPerTarget: facts.verification.codesPerDay,
} as const;

export const Phone = text(z.trim(), z.regex(phonePattern));
export const Code = text(z.trim(), z.regex(codePattern));
export const Email = z.email().check(printable, z.trim(), z.toLowerCase(), z.maxLength(254));
const Password = text(z.minLength(passwordRules.min), z.maxLength(passwordRules.max));
export const DeviceId = text(z.trim(), z.minLength(8), z.maxLength(64));
/** A phone number or an e-mail address, as typed; the server finds the account by either. */
const Account = text(z.trim(), z.minLength(1), z.maxLength(254));
const Timestamp = text();

/** A path inside the store: one leading slash, so it can never name another host. */
export const storePathPattern = /^\/(?!\/)[^\s\\]*$/;

/** The store's OAuth verifier path, under STORE_URL. */
export const storeVerifierPath = '/oauth/verifier';

export const ExternalAccount = z.object({
  Id: z.int(),
  Provider: text(),
  /** The identity's id at its provider: for Steam, the SteamID64. */
  Subject: text(),
  DisplayName: text(),
  BoundAt: Timestamp,
});

export const UserInfo = z.object({
  Id: z.int(),
  NickName: text(),
  /** Masked for display, e.g. 138****0000. */
  Phone: z.nullable(text()),
  Email: z.nullable(text()),
  /** Avatar images by size name; the first one is the one shown (H5AvatarUrl). */
  AvatarUrl: z.record(text(), text()),
  HasPassword: z.boolean(),
  CreatedAt: Timestamp,
  ExternalAccounts: z.array(ExternalAccount),
});
export type UserInfo = z.infer<typeof UserInfo>;

export const LoginResult = z.object({
  AccessToken: text(),
  /** When the access token expires, in milliseconds since the epoch. */
  ExpiresIn: z.int(),
  RefreshToken: text(),
  RefreshExpiresIn: z.int(),
  User: UserInfo,
});
export type LoginResult = z.infer<typeof LoginResult>;

export const Session = z.object({
  Id: text(),
  Device: text(),
  CreatedAt: Timestamp,
  LastSeenAt: Timestamp,
  /** The country of the address it logged in from: an ISO code, 'local' for a private network, or null when unknown. */
  Place: z.nullable(text()),
  Current: z.boolean(),
});
export type Session = z.infer<typeof Session>;

const Nothing = z.null();

/**
 * A proof-of-work challenge (ALTCHA, altcha-lib's v2 shape, which the widget
 * takes as it is): the browser finds the counter whose derived key the signed
 * parameters describe. Unknown parameters are kept, as the signature covers them.
 */
export const ProofOfWorkChallenge = z.object({
  parameters: z.looseObject({
    algorithm: text(),
    nonce: text(),
    salt: text(),
    cost: z.int(),
    keyLength: z.int(),
    keyPrefix: text(),
    keySignature: z.optional(text()),
    /** When the challenge expires, in seconds since the epoch. */
    expiresAt: z.int(),
  }),
  signature: text(),
});
export type ProofOfWorkChallenge = z.infer<typeof ProofOfWorkChallenge>;

/** A solved challenge, as the widget hands it over: base64 of its JSON (the challenge and the solution). */
const ProofOfWork = text(z.maxLength(4096));

export const identity = {
  sendSmsCode: route({
    method: 'POST',
    path: '/identity/vcodes/sms',
    encrypted: true,
    auth: 'optional',
    shape: 'envelope',
    /** `ProofOfWork` when the server asked for one (`ProofOfWorkRequired`): a code then costs the sender some work. */
    request: z.object({ Phone, ProofOfWork: z.optional(ProofOfWork) }),
    response: Nothing,
  }),
  sendEmailCode: route({
    method: 'POST',
    path: '/identity/vcodes/email',
    encrypted: true,
    auth: 'optional',
    shape: 'envelope',
    request: z.object({ Email, ProofOfWork: z.optional(ProofOfWork) }),
    response: Nothing,
  }),
  /** A new proof-of-work challenge for a code request the server refused with `ProofOfWorkRequired`; it expires in a few minutes and is never cached. */
  codeChallenge: route({
    method: 'GET',
    path: '/identity/vcodes/challenge',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    request: Empty,
    response: ProofOfWorkChallenge,
  }),
  loginOrRegister: route({
    method: 'POST',
    path: '/identity/v1/account/loginorregister',
    encrypted: true,
    auth: 'none',
    shape: 'envelope',
    request: z.object({ Phone, Code, DeviceId }),
    response: LoginResult,
  }),
  loginByPassword: route({
    method: 'POST',
    path: '/identity/v1/account/loginbypassword',
    encrypted: true,
    auth: 'none',
    shape: 'envelope',
    request: z.object({ Account, Password: text(z.minLength(1), z.maxLength(passwordRules.max)), DeviceId }),
    response: LoginResult,
  }),
  registerByEmail: route({
    method: 'POST',
    path: '/identity/v1/account/registerbyemail',
    encrypted: true,
    auth: 'none',
    shape: 'envelope',
    request: z.object({ Email, Code, Password, DeviceId }),
    response: LoginResult,
  }),
  validateRegisterEmail: route({
    method: 'POST',
    path: '/identity/v1/account/validateregisteremail',
    encrypted: true,
    auth: 'none',
    shape: 'envelope',
    request: z.object({ Email }),
    response: z.object({ Available: z.boolean() }),
  }),
  refreshToken: route({
    method: 'POST',
    path: '/identity/v1/account/refreshtoken',
    encrypted: true,
    auth: 'none',
    shape: 'envelope',
    request: z.object({ RefreshToken: text(z.minLength(1), z.maxLength(200)) }),
    response: LoginResult,
  }),
  /** `Refresh: true` reads the user afresh instead of the server's recent copy (the site sends it when its own cache ran out). */
  refreshUserInfo: route({
    method: 'POST',
    path: '/identity/v1/manage/refreshuserinfo',
    encrypted: false,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ Refresh: z.optional(z.boolean()) }),
    response: UserInfo,
  }),
  unbundleAccount: route({
    method: 'DELETE',
    path: '/identity/manage/unbundleaccount/:id',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: z.object({ id: pathId }),
    request: Empty,
    response: UserInfo,
  }),
  logout: route({
    method: 'POST',
    path: '/identity/v1/account/logout',
    encrypted: false,
    auth: 'required',
    shape: 'envelope',
    request: Empty,
    response: Nothing,
  }),
  sessions: route({
    method: 'GET',
    path: '/identity/v1/manage/sessions',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: Empty,
    response: z.array(Session),
  }),
  signOutOtherSessions: route({
    method: 'DELETE',
    path: '/identity/v1/manage/sessions/others',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: Empty,
    response: z.object({ Revoked: z.int() }),
  }),
  /** The store login response: `status`, `data.token`, `data.expires_in` (seconds), `msg`. */
  storeToken: route({
    method: 'GET',
    path: '/identity/loginshop/token',
    encrypted: false,
    auth: 'required',
    shape: 'raw',
    request: Empty,
    response: z.object({ status: z.boolean(), data: z.nullable(z.object({ token: text(), expires_in: z.int() })), msg: text() }),
  }),
  /**
   * Opens the external store in the window the site opened: with a
   * store token, at the store's OAuth verifier path with `tk`, `t` and `to`;
   * without one, plainly. The store's address is the server's `STORE_URL`,
   * so the static site never has it baked in.
   */
  openStore: route({
    method: 'GET',
    path: '/identity/loginshop/open',
    encrypted: false,
    auth: 'none',
    shape: 'redirect',
    request: z.object({
      tk: z.optional(text(z.maxLength(1024))),
      /** The token's lifetime in seconds, as the store login response gave it. */
      t: z.optional(text(z.regex(/^[1-9][0-9]{0,8}$/))),
      /** A page of the store, as a path: the store's home when left out. */
      to: z.optional(text(z.maxLength(512), z.regex(storePathPattern))),
    }),
    response: z.url(),
  }),
  /**
   * How the store checks a `tk` it was given (shaped like OAuth token
   * introspection, RFC 7662): the store proves itself with the shared secret
   * `STORE_INTROSPECTION_SECRET` as a bearer token. A token is active while
   * unexpired and while the login it came from lasts.
   */
  introspectStoreToken: route({
    method: 'POST',
    path: '/identity/loginshop/introspect',
    encrypted: false,
    auth: 'none',
    shape: 'raw',
    request: z.object({ token: text(z.maxLength(1024)) }),
    response: z.union([
      z.object({
        active: z.literal(true),
        /** The user id, as a string (RFC 7662 `sub`). */
        sub: text(),
        name: text(),
        /** When the token expires, seconds since the epoch. */
        exp: z.int(),
      }),
      z.object({ active: z.literal(false) }),
    ]),
  }),
  /** The real-time token response: `isSuccess`, `data.AccessToken`, `message`. */
  hubToken: route({
    method: 'GET',
    path: '/signalr/auth',
    encrypted: false,
    auth: 'required',
    shape: 'raw',
    request: Empty,
    response: z.object({ isSuccess: z.boolean(), data: z.nullable(z.object({ AccessToken: text() })), message: text() }),
  }),
};

export const support = {
  /** The customer-service response: `isSuccess`, `data` (the URL to open), `message`. */
  customerService: route({
    method: 'GET',
    path: '/basic/customer/service',
    encrypted: false,
    auth: 'required',
    shape: 'raw',
    request: Empty,
    response: z.object({ isSuccess: z.boolean(), data: z.nullable(text()), message: text() }),
  }),
};

export const system = {
  /** The RSA public key (SPKI, base64) that encrypted calls wrap their AES key with. */
  publicKey: route({
    method: 'GET',
    path: '/crypto/public-key',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    request: Empty,
    response: z.object({ Spki: text() }),
  }),
  /** Liveness, for a process supervisor or load balancer: the process answers; nothing else is asked. */
  live: route({
    method: 'GET',
    path: '/health',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    request: Empty,
    response: z.object({ Process: z.literal('up') }),
  }),
  /**
   * Readiness, for load balancers and start-up scripts: the server answers only
   * once it has started, and this says its database and its job queue
   * answer; otherwise 503 with `Unavailable`. Redis (where one is set) is
   * reported, not required: without it an instance still serves, counting
   * rate limits on its own (docs/deploy.md, "When something is down").
   */
  ready: route({
    method: 'GET',
    path: '/ready',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    request: Empty,
    response: z.object({ Database: z.literal('up'), Jobs: z.literal('up'), Redis: z.enum(['up', 'down', 'none']) }),
  }),
};

/** Lifetimes the server hands out and the client relies on. */
export const lifetimes = {
  accessTokenMs: 7 * 24 * 3600_000,
  refreshTokenMs: 30 * 24 * 3600_000,
  hubTokenMs: 10 * 60_000,
  /** A day, a little longer than the site keeps it (86,000 s), so a kept token has always time left; it still ends with its login. */
  storeTokenSeconds: 86_400,
} as const;
