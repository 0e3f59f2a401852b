/**
 * The operators' console (`/admin`): signing in with the normal login and a
 * second factor (TOTP, with recovery codes shown once), the console's own
 * short session, and running an operators' command from it. The console runs
 * exactly the commands `npm run admin` runs (contract/commands.ts),
 * each allowed from a role up.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { Attachment, attachmentMaxBase64, CommandAnswer, OperatorRole, operatorRoles } from './admin.ts';
import { facts, periodMs } from './facts.ts';
import { Empty, text } from './fields.ts';
import { Code } from './identity.ts';

/** Whether a role includes another: each role includes the ones before it in `operatorRoles`. */
export const roleIncludes = (role: OperatorRole, needed: OperatorRole): boolean => operatorRoles.indexOf(role) >= operatorRoles.indexOf(needed);

/** Facts the console's pages state too (content/facts.json `console`). */
export const consoleSessionLimits = {
  /** The digits of an authenticator's code. */
  codeDigits: facts.console.codeDigits,
  /** A console left alone this long signs out. */
  idleMs: periodMs(facts.console.idle),
  /** The console warns this long before the idle end, with a way to stay signed in. */
  idleWarningMs: periodMs(facts.console.idleWarning),
  /**
   * How stale the server lets a session's last use get before a call writes it again (sparing a write per
   * call): a call may leave the idle end up to this much earlier than the call's own time, so the page counts
   * its idle end that much early too.
   */
  lastUseSlackMs: 30_000,
  /** And no console session lasts longer than this, in use or not. */
  lifetimeMs: periodMs(facts.console.lifetime),
  /** Recovery codes made at enrolment, each good for one sign-in without the authenticator. */
  recoveryCodes: facts.console.recoveryCodes,
  /** Wrong codes in a row (authenticator or recovery) that lock the account's console sign-in… */
  lockAfterFailures: facts.console.lockAfterFailures,
  /** …for this long, or until an admin's `role unlock`. */
  lockoutMs: periodMs(facts.console.lockout),
};

/** The header every console call but a read sends, with the session's `Csrf` value: a page on another site cannot know it. */
export const consoleCsrfHeader = 'x-console-csrf';

/** The console session's cookie (http-only: the page never reads it). */
export const consoleCookie = 'beacon_console';

/** Where the console session's cookie is sent: the console's calls and nothing else. */
export const consolePath = '/api/console';

const TotpCode = text(z.regex(new RegExp(`^\\d{${consoleSessionLimits.codeDigits}}$`)));
/** As shown: five groups of four letters and digits, dash-separated; typed in any case, with or without dashes. */
const RecoveryCode = text(z.regex(/^[A-Za-z0-9-]{16,30}$/));

/** The console session as the page keeps it: who, with what role, the token for state-changing calls, and until when. */
export const ConsoleSession = z.object({
  UserId: z.int(),
  Nickname: text(),
  Role: OperatorRole,
  Csrf: text(),
  /** When it ends at the latest (ms since the epoch), used or not. */
  ExpiresAt: z.int(),
});
export type ConsoleSession = z.infer<typeof ConsoleSession>;

/**
 * What the signed-in customer may do next: nothing (no role), enrol an authenticator, or sign in with it.
 * `EnrolTo`: where the code that enrolment needs is sent (`accountCalls.sendOwnCode`), the phone masked; null when
 * enrolled, or when the account has neither phone nor e-mail. `LockedUntil`: when a sign-in locked by wrong codes
 * may try again (ms since the epoch), or null.
 */
export const ConsoleAccess = z.object({
  Role: z.nullable(OperatorRole),
  Enrolled: z.boolean(),
  EnrolTo: z.nullable(z.object({ Channel: z.enum(['sms', 'email']), To: text() })),
  LockedUntil: z.nullable(z.int()),
});
export type ConsoleAccess = z.infer<typeof ConsoleAccess>;

export const consoleCalls = {
  access: route({
    method: 'GET',
    path: '/console/access',
    encrypted: false,
    auth: 'required',
    shape: 'envelope',
    request: z.object({}),
    response: ConsoleAccess,
  }),
  /**
   * A new secret for the authenticator (replacing one not yet confirmed); refused once one is confirmed.
   * `Code`: a fresh code sent to the account's own phone (or e-mail) by `accountCalls.sendOwnCode`, so a stolen login alone enrols nothing.
   */
  enrol: route({
    method: 'POST',
    path: '/console/factor',
    encrypted: false,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ Code }),
    /** The secret to type, and as the otpauth URI and its QR code (SVG) to scan. */
    response: z.object({ Secret: text(), Uri: text(), QrSvg: text() }),
  }),
  /** A code from the new secret confirms it: the recovery codes come back once, and the console session opens. */
  confirm: route({
    method: 'POST',
    path: '/console/factor/confirm',
    encrypted: false,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ Code: TotpCode }),
    response: z.object({ RecoveryCodes: z.array(text()), Session: ConsoleSession }),
  }),
  signIn: route({
    method: 'POST',
    path: '/console/session',
    encrypted: false,
    auth: 'required',
    shape: 'envelope',
    request: z.union([z.object({ Code: TotpCode }), z.object({ RecoveryCode })]),
    response: ConsoleSession,
  }),
  /** The open console session (a new tab asks for its `Csrf`). */
  session: route({
    method: 'GET',
    path: '/console/session',
    encrypted: false,
    auth: 'console',
    shape: 'envelope',
    request: z.object({}),
    response: ConsoleSession,
  }),
  signOut: route({ method: 'DELETE', path: '/console/session', encrypted: false, auth: 'console', shape: 'envelope', request: Empty, response: z.null() }),
  /**
   * One operators' command by its name and arguments, as its declaration in contract/commands/ takes them; refused unless
   * the session's role includes the declaration's. `Attachment` is a file the command takes where the CLI would read one
   * from disk (a raffle's cover), as base64. The answer is the command's result (`ResultOf` its declaration).
   */
  run: route({
    method: 'POST',
    path: '/console/run',
    encrypted: false,
    auth: 'console',
    shape: 'envelope',
    request: z.object({ Command: text(z.maxLength(100)), Args: z.unknown(), Attachment: z.optional(Attachment) }),
    response: CommandAnswer,
    maxBodyBytes: attachmentMaxBase64 + 200_000,
  }),
};
