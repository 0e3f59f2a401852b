/**
 * Proof of work before a login code that costs the shop (ALTCHA, with
 * altcha-lib): the server makes a challenge signed with keys derived from its
 * secret, the browser's widget solves it, and the solution buys one code. Its
 * signature is recorded, until the challenge expires, in the transaction that
 * issues the code, so neither a second request nor two at once can use it again
 * (unless the code could not be sent: then it is given back).
 */
import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { eq, lt } from 'drizzle-orm';
import * as z from 'zod/mini';
import { ErrorCode } from '#contract/errors.ts';
import { ProofOfWorkChallenge } from '#contract/identity.ts';
import type { Transaction } from '../../db/database.ts';
import { proofOfWorkSolutions } from '../../db/schema/identity.ts';
import { ApiError } from '../../http/api-error.ts';

/** PBKDF2 runs in every browser's WebCrypto, which the widget's bundled worker uses. */
const algorithm = 'PBKDF2/SHA-256';
const roundsPerKey = 1000;
/** Long enough to solve on a slow phone and send; short enough that a hoard of solutions goes stale. */
export const challengeLifetimeMs = 5 * 60_000;

/** The widget's payload: base64 of the challenge and the solution it found. */
const Payload = z.object({
  challenge: ProofOfWorkChallenge,
  solution: z.object({ counter: z.int(), derivedKey: z.string(), time: z.optional(z.number()) }),
});

/** The challenge's signing keys, derived from the server's secret (shared by every instance). */
function signingKeys(secret: Buffer) {
  const derive = (purpose: string) => createHmac('sha256', secret).update(`proof-of-work:${purpose}`).digest('hex');
  return { hmacSignatureSecret: derive('challenge'), hmacKeySignatureSecret: derive('key') };
}

/**
 * A new challenge: the browser tries keys from counter 0 up to a random one
 * between half of `work` and `work` (deterministic mode: the server derived
 * that key once, and checks a solution by its signature).
 */
export async function newChallenge(secret: Buffer, work: number, now = Date.now()): Promise<ProofOfWorkChallenge> {
  const challenge = await createChallenge({
    algorithm,
    cost: roundsPerKey,
    counter: randomInt(work, Math.ceil(work / 2)),
    deriveKey,
    expiresAt: new Date(now + challengeLifetimeMs),
    ...signingKeys(secret),
  });
  return ProofOfWorkChallenge.parse(challenge);
}

const invalid = () => new ApiError(ErrorCode.ProofOfWorkInvalid, 'proofOfWorkInvalid');

/** Decodes a payload; null when it is not one. */
function decode(payload: string): z.infer<typeof Payload> | null {
  try {
    const parsed = Payload.safeParse(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Checks a solution and uses it up inside the caller's transaction (which
 * issues the code): throws `ProofOfWorkInvalid` when it is not a solution of
 * an unexpired challenge of this server, or was used already. Solutions whose
 * challenge expired are forgotten on the way, as they can no longer be used.
 * Answers the solution's signature, which `forgetSolution` gives back.
 */
export async function spendSolution(tx: Transaction, secret: Buffer, payload: string, now = new Date()): Promise<string> {
  const decoded = decode(payload);
  if (!decoded) throw invalid();
  const { challenge, solution } = decoded;
  const result = await verifySolution({ challenge, solution, deriveKey, ...signingKeys(secret) });
  if (!result.verified) throw invalid();
  await tx.delete(proofOfWorkSolutions).where(lt(proofOfWorkSolutions.expiresAt, now));
  // Two requests with one solution: the second insert waits for the first's transaction and then finds its row.
  const recorded = await tx
    .insert(proofOfWorkSolutions)
    .values({ signature: challenge.signature, expiresAt: new Date(challenge.parameters.expiresAt * 1000) })
    .onConflictDoNothing()
    .returning({ signature: proofOfWorkSolutions.signature });
  if (recorded.length === 0) throw invalid();
  return challenge.signature;
}

/** Gives a spent solution back (its code could not be sent), so the customer need not solve another. */
export async function forgetSolution(tx: Transaction, signature: string): Promise<void> {
  await tx.delete(proofOfWorkSolutions).where(eq(proofOfWorkSolutions.signature, signature));
}
