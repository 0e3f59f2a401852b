/**
 * Who is calling. The contract says which calls need whom; the modules that
 * know the answers provide them as decorators — identity the sessions behind
 * bearer tokens and the codes that prove an account's own phone, admin the
 * operators' command, operators the console session —
 * so this layer never imports a module.
 */
import type { OperatorRole } from '#contract/admin.ts';
import type { Transaction } from '../db/database.ts';
import type { ApiError } from './api-error.ts';

export interface Authenticated {
  userId: number;
  sessionId: string;
}

/** Who is at the operators' console: the operator's account and role, and the console session's token hash. */
export interface ConsoleCaller {
  userId: number;
  nickname: string;
  role: OperatorRole;
  sessionHash: string;
  /** When the console session ends at the latest (ms since the epoch). */
  expiresAt: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The session behind a valid access token, or null (the identity module provides it). */
    authenticate(accessToken: string): Promise<Authenticated | null>;
    /** Whether a request comes from the operators' command on this machine (the admin module provides it). */
    isAdminCaller(request: FastifyRequest): boolean;
    /** The console session a request carries, checked for cross-site use; throws the console's refusal (the operators module provides it). */
    consoleCaller(request: FastifyRequest): Promise<ConsoleCaller>;
    /** The codes that prove the caller holds the account's own phone or e-mail (the identity module provides them). */
    accountCodes: AccountCodes;
  }
}

/** A code checked: a wrong one is returned, not thrown, so the caller's transaction can commit its failed try. */
export type CodeCheck = { ok: true } | { ok: false; error: ApiError };

/** The account's own codes, sent by `accountCalls.sendOwnCode` to the phone, or to the e-mail of an account without one. */
export interface AccountCodes {
  /** Where the user's codes go, the phone masked as shown; null for an account with neither phone nor e-mail. */
  destination(userId: number): Promise<{ channel: 'sms' | 'email'; shown: string } | null>;
  /** Checks and uses up the user's current code in the caller's transaction. */
  consume(tx: Transaction, userId: number, code: string): Promise<CodeCheck>;
}

/** The token of an `Authorization: Bearer …` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match ? match[1] : null;
}
