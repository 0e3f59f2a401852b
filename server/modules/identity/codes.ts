/**
 * One-time codes sent by SMS or e-mail: 6 digits, valid 5 minutes,
 * one send per target a minute, daily caps per target and per client address
 * (each refusal says which, and when to ask again),
 * and 5 wrong tries burn the code. A login code that costs the shop — past
 * an hour's thresholds per address or for the whole shop — needs a proof of
 * work first (proof-of-work.ts). Every send is a row, which is what the
 * limits count, under the client's address group (IPv6 by its /64, as the
 * rate limiter counts); advisory locks per target and per address keep racing
 * sends honest. The row is written before the gateway is called, so that two
 * sends at once cannot both pass a cap, and no transaction waits on the
 * gateway; a send the gateway did not take is withdrawn — its row, and the
 * proof of work it spent — so it counts against nothing and the code sent
 * before it still works. Each message handed to a provider is noted (code_sends: the provider, and its
 * refusal if any), which the console's dashboard counts.
 */
import { createHmac, randomInt } from 'node:crypto';
import { and, count, countDistinct, desc, eq, gt, min, ne, sql } from 'drizzle-orm';
import { ErrorCode } from '#contract/errors.ts';
import { verification } from '#contract/identity.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { codeSends, verificationCodes } from '../../db/schema/identity.ts';
import { addressGroup } from '../../http/address-group.ts';
import { ApiError, limitReached, tooManyRequests } from '../../http/api-error.ts';
import type { CodeCheck } from '../../http/auth.ts';
import type { MessageKind } from '../../messages/kinds.ts';
import { MessengerError, type Channel, type Refusal } from '../../messages/messenger.ts';
import { forgetSolution, spendSolution } from './proof-of-work.ts';

/**
 * What a code is for: `login` codes go to any number or address (login,
 * registration, a new phone number); `account` codes only to the logged-in
 * user's own, to confirm a change or a deletion. A code works only for its
 * purpose, and each purpose has its own resend wait, so asking for one right
 * after the other works; the daily caps count both.
 */
export type CodePurpose = 'login' | 'account';

const hour = 3600_000;
const day = 24 * hour;

/** The codes of one target and purpose that are still unused. */
const unusedCodesOf = (channel: Channel, target: string, purpose: CodePurpose) =>
  and(
    eq(verificationCodes.channel, channel),
    eq(verificationCodes.target, target),
    eq(verificationCodes.purpose, purpose),
    eq(verificationCodes.consumed, false),
  );

function hashCode(secret: Buffer, target: string, code: string): string {
  return createHmac('sha256', secret).update(`${target}:${code}`).digest('hex');
}

/** The limits a code request meets: the daily cap per address, and when a login code needs a proof of work (config.ts). */
export type CodeLimits = Pick<
  Config,
  'CODES_PER_ADDRESS_PER_DAY' | 'CODE_CHALLENGE_TARGETS_PER_HOUR' | 'CODE_CHALLENGE_CODES_PER_HOUR' | 'CODE_CHALLENGE_SHOP_CODES_PER_HOUR'
>;

/** Whether this login code costs the shop enough to need a proof of work: past an hour's thresholds of its address or of the whole shop. */
async function needsProofOfWork(tx: Transaction, target: string, address: string, limits: CodeLimits, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - hour);
  const recent = gt(verificationCodes.createdAt, since);
  const fromAddress = and(eq(verificationCodes.ip, address), recent);
  const [codes] = await tx.select({ sent: count() }).from(verificationCodes).where(fromAddress);
  if (codes.sent >= limits.CODE_CHALLENGE_CODES_PER_HOUR) return true;
  // A code to a number or address asked for already is no new target.
  const [others] = await tx
    .select({ targets: countDistinct(verificationCodes.target) })
    .from(verificationCodes)
    .where(and(fromAddress, ne(verificationCodes.target, target)));
  if (others.targets >= limits.CODE_CHALLENGE_TARGETS_PER_HOUR) return true;
  // Across the shop: whether the K-th newest code (by the key, which grows with time: no scan of the
  // table) is less than an hour old. It is read without a lock, so a burst may pass the threshold by
  // the requests in flight, no more.
  const shopThreshold = limits.CODE_CHALLENGE_SHOP_CODES_PER_HOUR;
  if (shopThreshold === 0) return true;
  const [kth] = await tx
    .select({ createdAt: verificationCodes.createdAt })
    .from(verificationCodes)
    .orderBy(desc(verificationCodes.id))
    .offset(shopThreshold - 1)
    .limit(1);
  return kth !== undefined && kth.createdAt > since;
}

/** A code stored and not sent yet: its row, the code, and the proof of work it spent (the solution's signature). */
export interface IssuedCode {
  id: number;
  code: string;
  solution: string | null;
}

/**
 * Stores a new code for `target` and returns it, or throws 429 saying which
 * limit was reached — or, for a login code that needs a proof of work,
 * `ProofOfWorkRequired` without one and `ProofOfWorkInvalid` with a wrong or
 * used one. A refused request stores nothing, so it counts against no limit.
 * The new code shadows the older ones of its target and purpose (only the
 * newest is checked), which stay unused until it is used or burned: a new
 * code that could not be sent is withdrawn, and the one before it still works.
 */
export async function issueCode(
  db: Database,
  secret: Buffer,
  request: { channel: Channel; target: string; purpose: CodePurpose; address: string; proofOfWork?: string },
  limits: CodeLimits,
  now = new Date(),
): Promise<IssuedCode> {
  const { channel, target, purpose, address, proofOfWork } = request;
  return db.transaction(async (tx) => {
    // Target first, then address, in every request: two locks taken in one order never deadlock.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${channel}:${target}`}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`code-address:${address}`}))`);
    const since = new Date(now.getTime() - day);
    const [latest] = await tx
      .select({ createdAt: verificationCodes.createdAt })
      .from(verificationCodes)
      .where(and(eq(verificationCodes.channel, channel), eq(verificationCodes.target, target), eq(verificationCodes.purpose, purpose)))
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    const waited = latest ? now.getTime() - latest.createdAt.getTime() : Infinity;
    if (waited < verification.resendAfterMs)
      throw limitReached(channel === 'sms' ? 'codeResendWaitSms' : 'codeResendWaitEmail', verification.resendAfterMs - waited);
    // A day's cap frees a send when the oldest of the day's sends turns a day old.
    const [toTarget] = await tx
      .select({ sent: count(), oldest: min(verificationCodes.createdAt) })
      .from(verificationCodes)
      .where(and(eq(verificationCodes.channel, channel), eq(verificationCodes.target, target), gt(verificationCodes.createdAt, since)));
    if (toTarget.sent >= verification.dailyPerTarget) {
      throw limitReached(channel === 'sms' ? 'codeDailyLimitSms' : 'codeDailyLimitEmail', toTarget.oldest!.getTime() + day - now.getTime());
    }
    const [fromAddress] = await tx
      .select({ sent: count(), oldest: min(verificationCodes.createdAt) })
      .from(verificationCodes)
      .where(and(eq(verificationCodes.ip, address), gt(verificationCodes.createdAt, since)));
    if (fromAddress.sent >= limits.CODES_PER_ADDRESS_PER_DAY) throw limitReached('codeDailyLimitNetwork', fromAddress.oldest!.getTime() + day - now.getTime());

    // A solution given is checked (and used up) whether or not one was needed: a wrong one is never let through.
    const solution = proofOfWork === undefined ? null : await spendSolution(tx, secret, proofOfWork, now);
    // Account codes go only to the signed-in user's own number or address, which the caps above bound.
    if (solution === null && purpose === 'login' && (await needsProofOfWork(tx, target, address, limits, now)))
      throw new ApiError(ErrorCode.ProofOfWorkRequired, 'proofOfWorkRequired');

    const code = String(randomInt(0, 10 ** verification.codeLength)).padStart(verification.codeLength, '0');
    const [row] = await tx
      .insert(verificationCodes)
      .values({
        channel,
        target,
        purpose,
        ip: address,
        codeHash: hashCode(secret, target, code),
        expiresAt: new Date(now.getTime() + verification.validMs),
        createdAt: now,
      })
      .returning({ id: verificationCodes.id });
    return { id: row.id, code, solution };
  });
}

/** Forgets a code whose message could not be sent, so it neither works nor counts, and gives back the proof of work it spent. */
export async function withdrawCode(db: Database, issued: IssuedCode): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(verificationCodes).where(eq(verificationCodes.id, issued.id));
    if (issued.solution !== null) await forgetSolution(tx, issued.solution);
  });
}

/**
 * The per-address limit of the calls that send a code: a quarter of the logins' (`perMinute`). Its refusal is the SMS
 * flow's "too many requests, take a break" (spec §8); every other limit's refusal is "too fast".
 */
export const codeSendLimit = (perMinute: number) => ({
  rateLimit: { max: Math.floor(perMinute / 4), timeWindow: 60_000, errorResponseBuilder: () => tooManyRequests('route', 'tooManyRequests') },
});

/** The message each purpose's code goes in. */
const codeKinds = { login: 'loginCode', account: 'accountCode' } as const satisfies Record<CodePurpose, MessageKind>;

/**
 * Sends a new code to `target` by SMS or e-mail, and says so in the user's language (the answer of a code-sending call);
 * `proofOfWork` is the solved challenge a login code request brought (identity.codeChallenge).
 */
export async function sendCode(app: FastifyInstance, channel: Channel, target: string, purpose: CodePurpose, request: FastifyRequest, proofOfWork?: string) {
  const address = addressGroup(request.ip);
  const issued = await issueCode(app.db, app.keys.secret, { channel, target, purpose, address, proofOfWork }, app.config);
  const messenger = app[channel];
  // Which provider took the message or refused it, for the console's dashboard; a failure to note it fails no send.
  const noteSend = (refusal: Refusal | null) =>
    app.db
      .insert(codeSends)
      .values({ channel, provider: messenger.provider, refusal })
      .catch((error: unknown) => request.log.error({ err: error }, 'could not note a code send'));
  try {
    await messenger.send({ to: target, kind: codeKinds[purpose], params: { code: issued.code }, locale: request.locale });
  } catch (error) {
    await withdrawCode(app.db, issued);
    await noteSend(error instanceof MessengerError ? error.refusal : 'unreachable');
    throw error;
  }
  await noteSend(null);
  return { data: null, messageKey: channel === 'sms' ? ('smsSent' as const) : ('emailSent' as const) };
}

/**
 * Checks and uses up the current code of `target` inside the caller's
 * transaction. A wrong code is returned, not thrown, so the caller can commit
 * the failed try while rejecting the request.
 */
export async function consumeCode(
  tx: Transaction,
  secret: Buffer,
  channel: Channel,
  target: string,
  purpose: CodePurpose,
  code: string,
  now = new Date(),
): Promise<CodeCheck> {
  const [current] = await tx
    .select()
    .from(verificationCodes)
    .where(and(unusedCodesOf(channel, target, purpose), gt(verificationCodes.expiresAt, now)))
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1)
    .for('update');
  if (!current) return { ok: false, error: new ApiError(ErrorCode.CodeInvalid, 'codeInvalid') };
  // Used or burned, the newest code takes the older ones it shadowed with it (they would expire before it anyway).
  const useUp = () =>
    tx
      .update(verificationCodes)
      .set({ consumed: true })
      .where(unusedCodesOf(channel, target, purpose));
  if (current.codeHash === hashCode(secret, target, code)) {
    await useUp();
    return { ok: true };
  }
  const failedTries = current.failedTries + 1;
  if (failedTries >= verification.maxTries) {
    await tx.update(verificationCodes).set({ failedTries }).where(eq(verificationCodes.id, current.id));
    await useUp();
    return { ok: false, error: new ApiError(ErrorCode.CodeBurned, 'codeBurned') };
  }
  await tx.update(verificationCodes).set({ failedTries }).where(eq(verificationCodes.id, current.id));
  return { ok: false, error: new ApiError(ErrorCode.CodeInvalid, 'codeInvalid') };
}
