/**
 * Account-centre calls: the profile (nickname, avatar),
 * the phone and e-mail, the password, one session's sign-out, the login
 * history and account deletion. The limits are facts (content/facts.json) the
 * pages state too.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { facts } from './facts.ts';
import { Empty, Minor, text } from './fields.ts';
import { Code, Email, passwordRules, Phone, UserInfo } from './identity.ts';

const { account } = facts;

/** What a nickname may be; `nicknameProblem` names the rule a candidate breaks. */
export const nicknameRules = {
  min: account.nicknameMinLength,
  max: account.nicknameMaxLength,
  /** Letters and digits of any script, spaces inside, and - _ . · */
  characters: /^[\p{L}\p{M}\p{N}_\-.·]+(?: [\p{L}\p{M}\p{N}_\-.·]+)*$/u,
} as const;

export type NicknameProblem = 'nicknameLength' | 'nicknameCharacters';

/** The first rule `nickname` breaks, or null; lengths count characters as people see them (code points). */
export function nicknameProblem(nickname: string): NicknameProblem | null {
  const length = [...nickname].length;
  if (length < nicknameRules.min || length > nicknameRules.max) return 'nicknameLength';
  if (!nicknameRules.characters.test(nickname)) return 'nicknameCharacters';
  return null;
}

/** Avatar uploads: the formats, size and dimensions accepted, and the sizes the server makes (the first is the one shown). */
export const avatarRules = {
  types: ['image/png', 'image/jpeg', 'image/webp'],
  maxBytes: account.avatarMaxMegabytes * 1024 * 1024,
  maxDimension: account.avatarMaxDimension,
  sizes: { large: 256, medium: 128, small: 48 },
} as const;

/** Where the API serves avatar files, below its base: `/api/avatars/<content hash>-<pixels>.webp`, cached for good. */
export const avatarFilesPath = '/avatars';

/** An upload travels as base64 inside JSON: four characters for every three bytes. */
const maxBase64Length = Math.ceil(avatarRules.maxBytes / 3) * 4;

export const loginHistoryLength = account.loginHistoryLength;

/** The quick-login identities: a game platform, a console network and a messaging app. */
export const quickLoginProviders = ['steam', 'microsoft', 'qq'] as const;
export type QuickLoginProvider = (typeof quickLoginProviders)[number];

/** How the user logged in: a code by SMS or e-mail, a password, a quick-login provider, or the desktop sign-in approval. */
export const loginMethods = ['sms', 'email', 'password', ...quickLoginProviders, 'device'] as const;
export type LoginMethod = (typeof loginMethods)[number];

export const LoginEvent = z.object({
  Method: z.enum(loginMethods),
  Success: z.boolean(),
  Address: text(),
  /** An ISO country code, 'local' for a private network, or null when unknown. */
  Place: z.nullable(text()),
  Device: text(),
  At: text(),
});
export type LoginEvent = z.infer<typeof LoginEvent>;

const Password = text(z.minLength(passwordRules.min), z.maxLength(passwordRules.max));
/** A password as typed to prove who one is: checked, not judged. */
const CurrentPassword = text(z.minLength(1), z.maxLength(passwordRules.max));

/** What deleting an account loses: the wallet's balance (fen), until when the cloud-idling plan runs, the auto-renewal agreements it ends, and the raffle prizes won and not claimed. */
export const DeletionLosses = z.object({
  Wallet: Minor,
  PlanUntil: z.nullable(z.iso.datetime()),
  Agreements: z.int().check(z.minimum(0)),
  UnclaimedPrizes: z.int().check(z.minimum(0)),
});
export type DeletionLosses = z.infer<typeof DeletionLosses>;

/** The messages an account may turn off: a raffle win and its reminder, by SMS or e-mail (on unless turned off). */
export const MessageChoices = z.object({ RaffleMessages: z.boolean() });
export type MessageChoices = z.infer<typeof MessageChoices>;

export const accountCalls = {
  updateNickname: route({
    method: 'POST',
    path: '/identity/v1/manage/nickname',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ NickName: text(z.trim(), z.maxLength(200)) }),
    response: UserInfo,
  }),
  /** The image as base64; the server re-encodes it into every size of `avatarRules.sizes`. The body limit bounds its length; the decoded size is judged by `avatarRules`. */
  uploadAvatar: route({
    method: 'POST',
    path: '/identity/v1/manage/avatar',
    encrypted: false,
    auth: 'required',
    shape: 'envelope',
    maxBodyBytes: maxBase64Length + 1024,
    request: z.object({ Image: text() }),
    response: UserInfo,
  }),
  /**
   * Sends an account code to the user's own phone (sms) or e-mail: what confirms setting a first password, changing
   * the phone or the e-mail, and deleting the account. Those go to the phone, or to the e-mail of an account without
   * one; an e-mail change also asks one of the current address.
   */
  sendOwnCode: route({
    method: 'POST',
    path: '/identity/v1/manage/vcodes',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ Channel: z.enum(['sms', 'email']) }),
    response: z.null(),
  }),
  /**
   * Binds or changes the phone: `Code` was sent to the new number, `OldCode` is the account code sent to the current
   * number, or to the e-mail of an account without one (an account with neither binds a phone with `Code` alone).
   * Every other session is signed out; `Revoked` says how many.
   */
  changePhone: route({
    method: 'POST',
    path: '/identity/v1/manage/phone',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ Phone, Code, OldCode: z.optional(Code) }),
    response: z.object({ User: UserInfo, Revoked: z.int() }),
  }),
  /**
   * Sends a confirmation link to `Email`, once the account proves the change: `Code` is the account code sent to its
   * phone, or to its e-mail without one; an account with both also gives `OldEmailCode`, sent to the current address.
   * The codes are used up when the link goes out; the address is bound when the link is opened.
   */
  bindEmail: route({
    method: 'POST',
    path: '/identity/v1/manage/email',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ Email, Code: z.optional(Code), OldEmailCode: z.optional(Code) }),
    response: z.null(),
  }),
  /**
   * Opens a confirmation link: whoever holds it confirms the address, logged in or not. Every session of the account
   * is signed out but the one opening the link, when it is logged in to that account; `Revoked` says how many.
   */
  confirmEmail: route({
    method: 'POST',
    path: '/identity/v1/account/confirmemail',
    encrypted: true,
    auth: 'optional',
    shape: 'envelope',
    request: z.object({ Token: text(z.trim(), z.maxLength(100)) }),
    response: z.object({ Email: text(), Revoked: z.int() }),
  }),
  /**
   * Sets a first password with `Code`, the account code sent to the phone (or the e-mail without one), or changes it
   * with `Current`; every other session is signed out, and `Revoked` says how many.
   */
  setPassword: route({
    method: 'POST',
    path: '/identity/v1/manage/password',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ Current: z.optional(CurrentPassword), Password, Code: z.optional(Code) }),
    response: z.object({ Revoked: z.int() }),
  }),
  revokeSession: route({
    method: 'DELETE',
    path: '/identity/v1/manage/sessions/:id',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: z.object({ id: text(z.regex(/^[0-9a-f-]{36}$/)) }),
    request: Empty,
    response: z.null(),
  }),
  /** Which messages the account gets besides those it asks for (`MessageChoices`). */
  messageChoices: route({
    method: 'GET',
    path: '/identity/v1/manage/messages',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: Empty,
    response: MessageChoices,
  }),
  /** Turns those messages on or off; answers the choices as they are now. */
  setMessageChoices: route({
    method: 'POST',
    path: '/identity/v1/manage/messages',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: MessageChoices,
    response: MessageChoices,
  }),
  /** The latest logins and failed attempts, newest first. */
  loginHistory: route({
    method: 'GET',
    path: '/identity/v1/manage/logins',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: Empty,
    response: z.array(LoginEvent),
  }),
  /** Deletes the account for good, confirmed by a code sent to the user's phone (or e-mail without one), or by the password. */
  /** What deleting the account would lose, with the figures, for the confirmation. */
  deletionLosses: route({
    method: 'GET',
    path: '/identity/v1/manage/delete/losses',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: Empty,
    response: DeletionLosses,
  }),
  deleteAccount: route({
    method: 'POST',
    path: '/identity/v1/manage/delete',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ Code: z.optional(Code), Password: z.optional(CurrentPassword) }),
    response: z.null(),
  }),
};
