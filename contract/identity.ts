/** Identity calls (spec §7): codes, login, tokens, sessions, store and hub tokens. */
import { z } from 'zod';
import { route } from './api.ts';

/** International numbers with an optional leading +, 6–15 digits (E.164 length). */
export const phonePattern = /^\+?[0-9]{6,15}$/;
export const codePattern = /^[0-9]{6}$/;
export const passwordRules = { min: 8, max: 128 } as const;

export const verification = {
  codeLength: 6,
  validMs: 5 * 60_000,
  resendAfterMs: 60_000,
  maxTries: 5,
  dailyPerTarget: 10,
  dailyPerIp: 50,
} as const;

const Phone = z.string().trim().regex(phonePattern);
const Code = z.string().trim().regex(codePattern);
const Email = z.email().trim().toLowerCase().max(254);
const Password = z.string().min(passwordRules.min).max(passwordRules.max);
const DeviceId = z.string().trim().min(8).max(64);

export const ExternalAccount = z.object({
  Id: z.number().int(),
  Provider: z.string(),
  DisplayName: z.string(),
  BoundAt: z.string(),
});

export const UserInfo = z.object({
  Id: z.number().int(),
  NickName: z.string(),
  /** Masked for display, e.g. 138****0000. */
  Phone: z.string().nullable(),
  Email: z.string().nullable(),
  /** Avatar images by size name; the first one is the one shown (spec §3 H5AvatarUrl). */
  AvatarUrl: z.record(z.string(), z.string()),
  HasPassword: z.boolean(),
  CreatedAt: z.string(),
  ExternalAccounts: z.array(ExternalAccount),
});
export type UserInfo = z.infer<typeof UserInfo>;

export const LoginResult = z.object({
  AccessToken: z.string(),
  /** When the access token expires, in milliseconds since the epoch (spec §3). */
  ExpiresIn: z.number().int(),
  RefreshToken: z.string(),
  RefreshExpiresIn: z.number().int(),
  User: UserInfo,
});
export type LoginResult = z.infer<typeof LoginResult>;

export const Session = z.object({
  Id: z.string(),
  Device: z.string(),
  CreatedAt: z.string(),
  LastSeenAt: z.string(),
  Current: z.boolean(),
});
export type Session = z.infer<typeof Session>;

const Empty = z.object({}).strict().optional();
const Nothing = z.null();

export const identity = {
  sendSmsCode: route({ method: 'POST', path: '/identity/vcodes/sms', encrypted: true, auth: 'optional', shape: 'envelope', request: z.object({ Phone }), response: Nothing }),
  sendEmailCode: route({ method: 'POST', path: '/identity/vcodes/email', encrypted: true, auth: 'optional', shape: 'envelope', request: z.object({ Email }), response: Nothing }),
  loginOrRegister: route({
    method: 'POST', path: '/identity/v1/account/loginorregister', encrypted: true, auth: 'none', shape: 'envelope',
    request: z.object({ Phone, Code, DeviceId }), response: LoginResult,
  }),
  loginByPassword: route({
    method: 'POST', path: '/identity/v1/account/loginbypassword', encrypted: true, auth: 'none', shape: 'envelope',
    /** Account is a phone number or an e-mail address. */
    request: z.object({ Account: z.string().trim().min(1).max(254), Password: z.string().min(1).max(passwordRules.max), DeviceId }),
    response: LoginResult,
  }),
  registerByEmail: route({
    method: 'POST', path: '/identity/v1/account/registerbyemail', encrypted: true, auth: 'none', shape: 'envelope',
    request: z.object({ Email, Code, Password, DeviceId }), response: LoginResult,
  }),
  validateRegisterEmail: route({
    method: 'POST', path: '/identity/v1/account/validateregisteremail', encrypted: true, auth: 'none', shape: 'envelope',
    request: z.object({ Email }), response: z.object({ Available: z.boolean() }),
  }),
  refreshToken: route({
    method: 'POST', path: '/identity/v1/account/refreshtoken', encrypted: true, auth: 'none', shape: 'envelope',
    request: z.object({ RefreshToken: z.string().min(1).max(200) }), response: LoginResult,
  }),
  refreshUserInfo: route({
    method: 'POST', path: '/identity/v1/manage/refreshuserinfo', encrypted: false, auth: 'required', shape: 'envelope',
    request: z.object({ Refresh: z.boolean().optional() }), response: UserInfo,
  }),
  unbundleAccount: route({
    method: 'DELETE', path: '/identity/manage/unbundleaccount/:id', encrypted: true, auth: 'required', shape: 'envelope',
    request: Empty, response: UserInfo,
  }),
  logout: route({ method: 'POST', path: '/identity/v1/account/logout', encrypted: false, auth: 'required', shape: 'envelope', request: Empty, response: Nothing }),
  sessions: route({ method: 'GET', path: '/identity/v1/manage/sessions', encrypted: true, auth: 'required', shape: 'envelope', request: Empty, response: z.array(Session) }),
  signOutOtherSessions: route({
    method: 'DELETE', path: '/identity/v1/manage/sessions/others', encrypted: true, auth: 'required', shape: 'envelope',
    request: Empty, response: z.object({ Revoked: z.number().int() }),
  }),
  /** Spec §3 store login response: `status`, `data.token`, `data.expires_in` (seconds), `msg`. */
  storeToken: route({
    method: 'GET', path: '/identity/loginshop/token', encrypted: false, auth: 'required', shape: 'raw', request: Empty,
    response: z.object({ status: z.boolean(), data: z.object({ token: z.string(), expires_in: z.number().int() }).nullable(), msg: z.string() }),
  }),
  /** Spec §3 real-time token response: `isSuccess`, `data.AccessToken`, `message`. */
  hubToken: route({
    method: 'GET', path: '/signalr/auth', encrypted: false, auth: 'required', shape: 'raw', request: Empty,
    response: z.object({ isSuccess: z.boolean(), data: z.object({ AccessToken: z.string() }).nullable(), message: z.string() }),
  }),
};

export const support = {
  /** Spec §3 customer-service response: `isSuccess`, `data` (the URL to open), `message`. */
  customerService: route({
    method: 'GET', path: '/basic/customer/service', encrypted: false, auth: 'required', shape: 'raw', request: Empty,
    response: z.object({ isSuccess: z.boolean(), data: z.string().nullable(), message: z.string() }),
  }),
};

export const system = {
  /** The RSA public key (SPKI, base64) that encrypted calls wrap their AES key with. */
  publicKey: route({ method: 'GET', path: '/crypto/public-key', encrypted: false, auth: 'none', shape: 'envelope', request: Empty, response: z.object({ Spki: z.string() }) }),
};

/** Lifetimes the server hands out and the client relies on. */
export const lifetimes = {
  accessTokenMs: 7 * 24 * 3600_000,
  refreshTokenMs: 30 * 24 * 3600_000,
  hubTokenMs: 10 * 60_000,
  storeTokenSeconds: 300,
} as const;
