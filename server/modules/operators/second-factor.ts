/**
 * The console's second factor: a TOTP authenticator (otplib; RFC 6238, 30 s
 * steps, six digits, as every authenticator app makes them) and the recovery
 * codes shown once when it is confirmed. A code is accepted one step either
 * side of now (a phone's clock drifts), and never twice: the step it matched is
 * kept and later codes must come from a later step.
 *
 * Guessing is counted per account, whatever the address: every code tried for
 * an account waits for its factor row's lock, so the count of wrong ones in a
 * row is exact under any race. `lockAfterFailures` of them lock the sign-in
 * for `lockoutMs` (audited); a right code or an admin's `role unlock` clears
 * the count, time only lifts the lock — one more wrong code then locks again.
 * A refused code's count must outlive the refusal, so these checks answer an
 * `Outcome` the caller's transaction commits before it throws the refusal.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import { consoleSessionLimits } from '#contract/console.ts';
import { ErrorCode } from '#contract/errors.ts';
import { hashOpaqueToken } from '../../crypto/opaque-tokens.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import { committingRefusals, refused, type Outcome } from '../../db/committing-refusals.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { consoleFactors, consoleRecoveryCodes } from '../../db/schema/operators.ts';
import { ApiError } from '../../http/api-error.ts';
import type { CodeCheck } from '../../http/auth.ts';
import { qrSvg } from '../../services/qr-svg.ts';

/** How far a code's step may be from now, in seconds: one 30 s step either side. */
const toleranceSeconds = 30;
const issuer = 'Beacon Toolkit console';

type Factor = typeof consoleFactors.$inferSelect;

const codeInvalid = () => new ApiError(ErrorCode.ConsoleCodeInvalid, 'consoleCodeInvalid');

/** The refusal while sign-in is locked: how many minutes are left, and `Retry-After` for the page to say when. */
function lockedOut(until: Date, now: Date): ApiError {
  const left = until.getTime() - now.getTime();
  return new ApiError(ErrorCode.ConsoleLocked, 'consoleLocked', { minutes: String(Math.max(1, Math.ceil(left / 60_000))) }, { retryAfterMs: left });
}

const isLocked = (factor: Factor, now: Date) => factor.lockedUntil !== null && factor.lockedUntil > now;

/** The user's factor row, locked until the transaction ends: each code tried for one account waits its turn. */
async function factorFor(tx: Transaction, userId: number): Promise<Factor | undefined> {
  const [factor] = await tx.select().from(consoleFactors).where(eq(consoleFactors.userId, userId)).for('update');
  return factor;
}

/** A wrong code: counted, and at the limit the sign-in locks, with its audit line. Answers the refusal to give. */
async function countFailure(tx: Transaction, factor: Factor, actor: Actor, now: Date): Promise<Outcome<never>> {
  const failedTries = factor.failedTries + 1;
  if (failedTries < consoleSessionLimits.lockAfterFailures) {
    await tx.update(consoleFactors).set({ failedTries }).where(eq(consoleFactors.userId, factor.userId));
    return refused(codeInvalid());
  }
  const lockedUntil = new Date(now.getTime() + consoleSessionLimits.lockoutMs);
  await tx.update(consoleFactors).set({ failedTries, lockedUntil }).where(eq(consoleFactors.userId, factor.userId));
  await recordAudit(tx, actor, {
    action: 'console lockout',
    target: `user ${factor.userId}`,
    before: { failedTries: factor.failedTries },
    after: { failedTries, lockedUntil: lockedUntil.toISOString() },
  });
  return refused(lockedOut(lockedUntil, now));
}

/** Whether the user's authenticator is confirmed, and until when wrong codes have locked their sign-in (null: not locked). */
export async function factorState(db: Database, userId: number): Promise<{ enrolled: boolean; lockedUntil: Date | null }> {
  const [factor] = await db.select().from(consoleFactors).where(eq(consoleFactors.userId, userId));
  return { enrolled: Boolean(factor?.confirmedAt), lockedUntil: factor && isLocked(factor, new Date()) ? factor.lockedUntil : null };
}

/**
 * A new secret for the user's authenticator, replacing one never confirmed (its count of wrong codes and any lock
 * stay), once `proveOwner` has checked the fresh code to the account's own phone in the same transaction; refused once
 * one is confirmed.
 */
export async function enrol(
  db: Database,
  userId: number,
  label: string,
  proveOwner: (tx: Transaction) => Promise<CodeCheck>,
): Promise<{ Secret: string; Uri: string; QrSvg: string }> {
  const secret = generateSecret();
  await committingRefusals(db, async (tx) => {
    const current = await factorFor(tx, userId);
    if (current?.confirmedAt) return refused(new ApiError(ErrorCode.ConsoleEnrolled, 'consoleEnrolled'));
    const proof = await proveOwner(tx);
    if (!proof.ok) return refused(proof.error);
    await tx
      .insert(consoleFactors)
      .values({ userId, secret })
      .onConflictDoUpdate({ target: consoleFactors.userId, set: { secret, lastTimeStep: null, createdAt: new Date() } });
    return { ok: true, value: null };
  });
  const uri = generateURI({ issuer, label, secret });
  return { Secret: secret, Uri: uri, QrSvg: await qrSvg(uri) };
}

/** Checks a code against the user's secret (confirmed or, when `confirming`, not yet) and uses its step up; a wrong one counts. */
async function useCode(tx: Transaction, userId: number, code: string, confirming: boolean, actor: Actor): Promise<Outcome<null>> {
  const now = new Date();
  const factor = await factorFor(tx, userId);
  if (!factor || Boolean(factor.confirmedAt) === confirming) return refused(codeInvalid());
  if (isLocked(factor, now)) return refused(lockedOut(factor.lockedUntil!, now));
  const result = await verify({
    secret: factor.secret,
    token: code,
    epochTolerance: toleranceSeconds,
    ...(factor.lastTimeStep === null ? {} : { afterTimeStep: factor.lastTimeStep }),
  });
  // otplib's functional verify answers for HOTP too; a TOTP match names its time step.
  if (!result.valid || !('timeStep' in result)) return countFailure(tx, factor, actor, now);
  await tx
    .update(consoleFactors)
    .set({ lastTimeStep: result.timeStep, failedTries: 0, lockedUntil: null, ...(confirming ? { confirmedAt: now } : {}) })
    .where(eq(consoleFactors.userId, userId));
  return { ok: true, value: null };
}

/** Recovery codes as shown: five groups of four from an alphabet without look-alikes (no 0/O, 1/I/L). */
const recoveryAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
function newRecoveryCode(): string {
  const letters = [...randomBytes(20)].map((byte) => recoveryAlphabet[byte % recoveryAlphabet.length]).join('');
  return letters.match(/.{4}/g)!.join('-');
}

/** As typed: any case, with or without dashes or spaces. */
const normalRecoveryCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');
const recoveryHash = (code: string) => hashOpaqueToken(normalRecoveryCode(code));

/** Confirms the new secret with a code from it, and makes the recovery codes (returned once, kept as hashes). */
export async function confirm(tx: Transaction, userId: number, code: string, actor: Actor): Promise<Outcome<string[]>> {
  const used = await useCode(tx, userId, code, true, actor);
  if (!used.ok) return used;
  const codes = Array.from({ length: consoleSessionLimits.recoveryCodes }, newRecoveryCode);
  await tx.delete(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, userId));
  await tx.insert(consoleRecoveryCodes).values(codes.map((value) => ({ hash: recoveryHash(value), userId })));
  return { ok: true, value: codes };
}

/** A recovery code, used up by this; a wrong one counts as a wrong authenticator code does. */
async function useRecoveryCode(tx: Transaction, userId: number, code: string, actor: Actor): Promise<Outcome<null>> {
  const now = new Date();
  const factor = await factorFor(tx, userId);
  if (!factor?.confirmedAt) return refused(codeInvalid());
  if (isLocked(factor, now)) return refused(lockedOut(factor.lockedUntil!, now));
  const [used] = await tx
    .update(consoleRecoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(consoleRecoveryCodes.hash, recoveryHash(code)), eq(consoleRecoveryCodes.userId, userId), isNull(consoleRecoveryCodes.usedAt)))
    .returning({ hash: consoleRecoveryCodes.hash });
  if (!used) return countFailure(tx, factor, actor, now);
  await tx.update(consoleFactors).set({ failedTries: 0, lockedUntil: null }).where(eq(consoleFactors.userId, userId));
  return { ok: true, value: null };
}

/** A sign-in's second factor: an authenticator code, or a recovery code (used up by this). */
export async function proveSecondFactor(
  tx: Transaction,
  userId: number,
  proof: { Code: string } | { RecoveryCode: string },
  actor: Actor,
): Promise<Outcome<'code' | 'recovery code'>> {
  const used = 'Code' in proof ? await useCode(tx, userId, proof.Code, false, actor) : await useRecoveryCode(tx, userId, proof.RecoveryCode, actor);
  return used.ok ? { ok: true, value: 'Code' in proof ? 'code' : 'recovery code' } : used;
}

/** Clears the count of wrong codes and any lock (an admin's `role unlock`); answers the state before, or null when there was nothing to clear. */
export async function unlockSecondFactor(tx: Transaction, userId: number): Promise<{ failedTries: number; lockedUntil: string | null } | null> {
  const factor = await factorFor(tx, userId);
  if (!factor || (factor.failedTries === 0 && !isLocked(factor, new Date()))) return null;
  await tx.update(consoleFactors).set({ failedTries: 0, lockedUntil: null }).where(eq(consoleFactors.userId, userId));
  return { failedTries: factor.failedTries, lockedUntil: factor.lockedUntil?.toISOString() ?? null };
}

/** Forgets the user's authenticator and recovery codes (a lost phone): they enrol again at their next sign-in. */
export async function resetSecondFactor(tx: Transaction, userId: number): Promise<boolean> {
  const removed = await tx.delete(consoleFactors).where(eq(consoleFactors.userId, userId)).returning({ userId: consoleFactors.userId });
  await tx.delete(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, userId));
  return removed.length > 0;
}
