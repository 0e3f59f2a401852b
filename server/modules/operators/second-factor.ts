/**
 * The console's second factor: a TOTP authenticator (otplib; RFC 6238, 30 s
 * steps, six digits, as every authenticator app makes them) and the recovery
 * codes shown once when it is confirmed. A code is accepted one step either
 * side of now (a phone's clock drifts), and never twice: the step it matched is
 * kept and later codes must come from a later step.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import { consoleSessionLimits } from '#contract/console.ts';
import { ErrorCode } from '#contract/errors.ts';
import { hashOpaqueToken } from '../../crypto/opaque-tokens.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { consoleFactors, consoleRecoveryCodes } from '../../db/schema/operators.ts';
import { ApiError } from '../../http/api-error.ts';
import { qrSvg } from '../../services/qr-svg.ts';

/** How far a code's step may be from now, in seconds: one 30 s step either side. */
const toleranceSeconds = 30;
const issuer = 'Beacon Toolkit console';

const codeInvalid = () => new ApiError(ErrorCode.ConsoleCodeInvalid, 'consoleCodeInvalid');

export async function isEnrolled(db: Database, userId: number): Promise<boolean> {
  const [factor] = await db.select({ confirmedAt: consoleFactors.confirmedAt }).from(consoleFactors).where(eq(consoleFactors.userId, userId));
  return Boolean(factor?.confirmedAt);
}

/** A new secret for the user's authenticator, replacing one never confirmed; refused once one is confirmed. */
export async function enrol(db: Database, userId: number, label: string): Promise<{ Secret: string; Uri: string; QrSvg: string }> {
  const secret = generateSecret();
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(consoleFactors).where(eq(consoleFactors.userId, userId)).for('update');
    if (current?.confirmedAt) throw new ApiError(ErrorCode.ConsoleEnrolled, 'consoleEnrolled');
    await tx
      .insert(consoleFactors)
      .values({ userId, secret })
      .onConflictDoUpdate({ target: consoleFactors.userId, set: { secret, createdAt: new Date() } });
  });
  const uri = generateURI({ issuer, label, secret });
  return { Secret: secret, Uri: uri, QrSvg: await qrSvg(uri) };
}

/** Checks a code against the user's secret (confirmed or, when `confirming`, not yet) and uses its step up. */
async function useCode(tx: Transaction, userId: number, code: string, confirming: boolean): Promise<void> {
  const [factor] = await tx.select().from(consoleFactors).where(eq(consoleFactors.userId, userId)).for('update');
  if (!factor || Boolean(factor.confirmedAt) === confirming) throw codeInvalid();
  const result = await verify({
    secret: factor.secret,
    token: code,
    epochTolerance: toleranceSeconds,
    ...(factor.lastTimeStep === null ? {} : { afterTimeStep: factor.lastTimeStep }),
  });
  // otplib's functional verify answers for HOTP too; a TOTP match names its time step.
  if (!result.valid || !('timeStep' in result)) throw codeInvalid();
  await tx
    .update(consoleFactors)
    .set({ lastTimeStep: result.timeStep, ...(confirming ? { confirmedAt: new Date() } : {}) })
    .where(eq(consoleFactors.userId, userId));
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
export async function confirm(tx: Transaction, userId: number, code: string): Promise<string[]> {
  await useCode(tx, userId, code, true);
  const codes = Array.from({ length: consoleSessionLimits.recoveryCodes }, newRecoveryCode);
  await tx.delete(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, userId));
  await tx.insert(consoleRecoveryCodes).values(codes.map((value) => ({ hash: recoveryHash(value), userId })));
  return codes;
}

/** A sign-in's second factor: an authenticator code, or a recovery code (used up by this). */
export async function proveSecondFactor(
  tx: Transaction,
  userId: number,
  proof: { Code: string } | { RecoveryCode: string },
): Promise<'code' | 'recovery code'> {
  if ('Code' in proof) {
    await useCode(tx, userId, proof.Code, false);
    return 'code';
  }
  const [used] = await tx
    .update(consoleRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(consoleRecoveryCodes.hash, recoveryHash(proof.RecoveryCode)), eq(consoleRecoveryCodes.userId, userId), isNull(consoleRecoveryCodes.usedAt)))
    .returning({ hash: consoleRecoveryCodes.hash });
  if (!used) throw codeInvalid();
  return 'recovery code';
}

/** Forgets the user's authenticator and recovery codes (a lost phone): they enrol again at their next sign-in. */
export async function resetSecondFactor(tx: Transaction, userId: number): Promise<boolean> {
  const removed = await tx.delete(consoleFactors).where(eq(consoleFactors.userId, userId)).returning({ userId: consoleFactors.userId });
  await tx.delete(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, userId));
  return removed.length > 0;
}
