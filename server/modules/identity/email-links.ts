/**
 * E-mail confirmation links: a random token, stored only as its hash, that
 * binds one address to one account when opened — once, within
 * `verification.emailLinkValidity`. Sending is limited like codes are: one link
 * a minute to an address, and a daily cap per account. Opening one is three
 * steps the caller runs around its own sign-outs (account-routes.ts): whose
 * link it is, whether it can be used (under a row lock), and using it.
 */
import { and, count, desc, eq, gt, min, sql } from 'drizzle-orm';
import { ErrorCode } from '#contract/errors.ts';
import { facts, periodMs } from '#contract/facts.ts';
import { verification } from '#contract/identity.ts';
import { hashOpaqueToken as hashOf, newOpaqueToken } from '../../crypto/opaque-tokens.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { emailConfirmations, users } from '../../db/schema/identity.ts';
import { ApiError, limitReached } from '../../http/api-error.ts';
import type { Contacts } from './security-notices.ts';

const validMs = periodMs(facts.verification.emailLinkValidity);
const day = 24 * 3600_000;

/**
 * A new link's token for `email`; throws 429, saying which limit and when to ask again, when the account asked too
 * often. Given a transaction, the link is made inside it (with the codes that proved the change).
 */
export async function createEmailLink(db: Database | Transaction, userId: number, email: string, now = new Date()): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`email-link:${userId}`}))`);
    const [latest] = await tx
      .select({ createdAt: emailConfirmations.createdAt })
      .from(emailConfirmations)
      .where(and(eq(emailConfirmations.userId, userId), eq(emailConfirmations.email, email)))
      .orderBy(desc(emailConfirmations.createdAt))
      .limit(1);
    const waited = latest ? now.getTime() - latest.createdAt.getTime() : Infinity;
    if (waited < verification.resendAfterMs) throw limitReached('linkResendWait', verification.resendAfterMs - waited);
    const [today] = await tx
      .select({ sent: count(), oldest: min(emailConfirmations.createdAt) })
      .from(emailConfirmations)
      .where(and(eq(emailConfirmations.userId, userId), gt(emailConfirmations.createdAt, new Date(now.getTime() - day))));
    if (today.sent >= verification.dailyPerTarget) throw limitReached('linkDailyLimit', today.oldest!.getTime() + day - now.getTime());
    const token = newOpaqueToken(24);
    await tx.insert(emailConfirmations).values({ userId, email, tokenHash: hashOf(token), expiresAt: new Date(now.getTime() + validMs), createdAt: now });
    return token;
  });
}

/** The account a link's token belongs to, or null when it names no link. */
export async function linkOwner(db: Database, token: string): Promise<number | null> {
  const [link] = await db
    .select({ userId: emailConfirmations.userId })
    .from(emailConfirmations)
    .where(eq(emailConfirmations.tokenHash, hashOf(token)));
  return link?.userId ?? null;
}

/**
 * Why a link cannot be opened (unknown, used, expired), or null when it can. It locks the link's row until the
 * caller's transaction ends, so two people racing to open the same link leave one winner.
 */
export async function linkRefusal(tx: Transaction, token: string, now = new Date()): Promise<ApiError | null> {
  const [link] = await tx
    .select({ usedAt: emailConfirmations.usedAt, expiresAt: emailConfirmations.expiresAt })
    .from(emailConfirmations)
    .where(eq(emailConfirmations.tokenHash, hashOf(token)))
    .for('update');
  if (!link) return new ApiError(ErrorCode.LinkInvalid, 'linkInvalid');
  if (link.usedAt) return new ApiError(ErrorCode.LinkUsed, 'linkUsed');
  if (link.expiresAt <= now) return new ApiError(ErrorCode.LinkExpired, 'linkExpired');
  return null;
}

/**
 * Opens a link `linkRefusal` let through in the same transaction: binds its address to its account, exactly once,
 * and answers the address with the contacts the account had before. Two accounts racing for one address leave one
 * winner: the unique e-mail throws for the other, whose caller's transaction then changes nothing.
 */
export async function useLink(tx: Transaction, token: string, now = new Date()): Promise<{ email: string; before: Contacts }> {
  const [link] = await tx
    .update(emailConfirmations)
    .set({ usedAt: now })
    .where(eq(emailConfirmations.tokenHash, hashOf(token)))
    .returning({ userId: emailConfirmations.userId, email: emailConfirmations.email });
  const [before] = await tx.select({ phone: users.phone, email: users.email }).from(users).where(eq(users.id, link.userId)).for('update');
  await tx.update(users).set({ email: link.email }).where(eq(users.id, link.userId));
  return { email: link.email, before };
}
