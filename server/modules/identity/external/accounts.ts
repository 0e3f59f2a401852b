/**
 * Identities on accounts: linking one, and the "bind phone" ticket a new
 * identity (or one whose account has no phone) gets before it can log in.
 */
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { QuickLoginProvider } from '#contract/account.ts';
import { ErrorCode } from '#contract/errors.ts';
import { externalLoginLifetimeMs } from '#contract/external-login.ts';
import { hashOpaqueToken, newOpaqueToken } from '../../../crypto/opaque-tokens.ts';
import type { Transaction } from '../../../db/database.ts';
import { externalAccounts, externalTickets, users } from '../../../db/schema/identity.ts';
import { ApiError } from '../../../http/api-error.ts';
import { defaultNickname, nicknameFromProvider, userForPhone } from '../users.ts';
import type { Identity } from './provider.ts';

/** The account an identity belongs to, with its phone, or null for an identity seen for the first time. */
export async function ownerOf(tx: Transaction, provider: QuickLoginProvider, subject: string): Promise<{ userId: number; phone: string | null } | null> {
  const [owner] = await tx
    .select({ userId: users.id, phone: users.phone })
    .from(externalAccounts)
    .innerJoin(users, eq(users.id, externalAccounts.userId))
    .where(and(eq(externalAccounts.provider, provider), eq(externalAccounts.subject, subject)));
  return owner ?? null;
}

/** Keeps the name the provider shows up to date. */
export async function renameIdentity(tx: Transaction, provider: QuickLoginProvider, identity: Identity): Promise<void> {
  await tx
    .update(externalAccounts)
    .set({ displayName: identity.displayName })
    .where(and(eq(externalAccounts.provider, provider), eq(externalAccounts.subject, identity.subject)));
}

/**
 * Links an identity nobody has to an account. One identity per provider per
 * account: `alreadyLinked` when the account has another of this provider;
 * `taken` when a racing login linked this one elsewhere first.
 */
export async function linkIdentity(
  tx: Transaction,
  userId: number,
  provider: QuickLoginProvider,
  identity: Identity,
): Promise<'linked' | 'alreadyLinked' | 'taken'> {
  const [other] = await tx
    .select({ id: externalAccounts.id })
    .from(externalAccounts)
    .where(and(eq(externalAccounts.userId, userId), eq(externalAccounts.provider, provider)));
  if (other) return 'alreadyLinked';
  const inserted = await tx
    .insert(externalAccounts)
    .values({ userId, provider, subject: identity.subject, displayName: identity.displayName })
    .onConflictDoNothing()
    .returning({ id: externalAccounts.id });
  return inserted.length > 0 ? 'linked' : 'taken';
}

/** A ticket for proving a phone; `userId` is the identity's account when it has one (without a phone). */
export async function issueTicket(tx: Transaction, provider: QuickLoginProvider, identity: Identity, userId: number | null): Promise<string> {
  const ticket = newOpaqueToken();
  await tx.insert(externalTickets).values({
    ticketHash: hashOpaqueToken(ticket),
    provider,
    subject: identity.subject,
    displayName: identity.displayName,
    userId,
    expiresAt: new Date(Date.now() + externalLoginLifetimeMs),
  });
  return ticket;
}

/**
 * Uses a ticket once the phone is proven: the phone becomes the phone of the
 * identity's account, or the identity joins the phone's account (made when
 * new, with the provider's name for the person as its nickname). Answers the account to log in, or why not; a refused ticket stays
 * valid, so another phone can be tried.
 */
export async function redeemTicket(tx: Transaction, ticket: string, phone: string): Promise<number | ApiError> {
  const now = new Date();
  const ticketHash = hashOpaqueToken(ticket);
  const [valid] = await tx
    .select()
    .from(externalTickets)
    .where(and(eq(externalTickets.ticketHash, ticketHash), isNull(externalTickets.usedAt), gt(externalTickets.expiresAt, now)))
    .for('update');
  if (!valid) return new ApiError(ErrorCode.ExternalTicketInvalid, 'externalTicketInvalid');
  const userId = await ticketAccount(tx, valid, phone);
  if (userId instanceof ApiError) return userId;
  await tx.update(externalTickets).set({ usedAt: now }).where(eq(externalTickets.ticketHash, ticketHash));
  return userId;
}

async function ticketAccount(tx: Transaction, ticket: typeof externalTickets.$inferSelect, phone: string): Promise<number | ApiError> {
  const [phoneOwner] = await tx.select({ id: users.id }).from(users).where(eq(users.phone, phone));
  if (ticket.userId !== null) {
    if (phoneOwner && phoneOwner.id !== ticket.userId) return new ApiError(ErrorCode.PhoneTaken, 'phoneTaken');
    // Unless the account got a phone of its own meanwhile: then that phone logs in, and this ticket is no use.
    const updated = await tx
      .update(users)
      .set({ phone })
      .where(and(eq(users.id, ticket.userId), or(isNull(users.phone), eq(users.phone, phone))))
      .returning({ id: users.id });
    return updated.length > 0 ? ticket.userId : new ApiError(ErrorCode.ExternalTicketInvalid, 'externalTicketInvalid');
  }
  // A new account is named as the provider names the person, when it does.
  const userId = phoneOwner?.id ?? (await userForPhone(tx, phone, nicknameFromProvider(ticket) ?? defaultNickname(phone)));
  const linked = await linkIdentity(tx, userId, ticket.provider as QuickLoginProvider, { subject: ticket.subject, displayName: ticket.displayName });
  if (linked === 'alreadyLinked') return new ApiError(ErrorCode.ProviderLinked, 'providerLinked');
  if (linked === 'taken') return new ApiError(ErrorCode.ExternalTicketInvalid, 'externalTicketInvalid');
  return userId;
}
