/**
 * E-mail confirmation links: a random token, stored only as its hash, that
 * binds one address to one account when opened — once, within
 * `verification.emailLinkValidity`. Sending is limited like codes are: one link
 * a minute to an address, and a daily cap per account.
 */
import { and, count, desc, eq, gt, min, sql } from 'drizzle-orm';
import { ErrorCode } from '#contract/errors.ts';
import { facts, periodMs } from '#contract/facts.ts';
import { verification } from '#contract/identity.ts';
import { hashOpaqueToken as hashOf, newOpaqueToken } from '../../crypto/opaque-tokens.ts';
import type { Database } from '../../db/database.ts';
import { emailConfirmations, users } from '../../db/schema/identity.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { ApiError, limitReached } from '../../http/api-error.ts';
import type { MessageKey } from '../../i18n/messages.ts';

const validMs = periodMs(facts.verification.emailLinkValidity);
const day = 24 * 3600_000;

/** A new link's token for `email`; throws 429, saying which limit and when to ask again, when the account asked too often. */
export async function createEmailLink(db: Database, userId: number, email: string, now = new Date()): Promise<string> {
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

export type LinkOutcome = { ok: true; userId: number; email: string } | { ok: false; error: ApiError };

const refused = (code: number, messageKey: MessageKey): LinkOutcome => ({ ok: false, error: new ApiError(code, messageKey) });

/**
 * Opens a link: binds its address to its account, exactly once. Two people
 * racing to open the same link, or two accounts racing for one address, leave
 * one winner: the row lock orders the first, the unique e-mail the second.
 */
export async function confirmEmailLink(db: Database, token: string, now = new Date()): Promise<LinkOutcome> {
  try {
    return await db.transaction(async (tx) => {
      const [link] = await tx
        .select()
        .from(emailConfirmations)
        .where(eq(emailConfirmations.tokenHash, hashOf(token)))
        .for('update');
      if (!link) return refused(ErrorCode.LinkInvalid, 'linkInvalid');
      if (link.usedAt) return refused(ErrorCode.LinkUsed, 'linkUsed');
      if (link.expiresAt <= now) return refused(ErrorCode.LinkExpired, 'linkExpired');
      await tx.update(users).set({ email: link.email }).where(eq(users.id, link.userId));
      await tx.update(emailConfirmations).set({ usedAt: now }).where(eq(emailConfirmations.id, link.id));
      return { ok: true, userId: link.userId, email: link.email };
    });
  } catch (error) {
    // The address is another account's: nothing changed, and the link stays unused.
    if (isUniqueViolation(error)) return refused(ErrorCode.EmailTaken, 'emailTaken');
    throw error;
  }
}
