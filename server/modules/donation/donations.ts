/**
 * Donations: the wallet debit and the donation are written in one
 * transaction (the wallet's row lock orders concurrent gifts, so the balance
 * can never go below zero), and the sponsor list is read from named,
 * unhidden donations of accounts that still exist.
 */
import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import { pageSize } from '#contract/paging.ts';
import { donationRules, type Donation, type Sponsor } from '#contract/donation.ts';
import { ErrorCode } from '#contract/errors.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { donations } from '../../db/schema/donation.ts';
import { ApiError } from '../../http/api-error.ts';

export type DonationRow = typeof donations.$inferSelect;

/** Takes `fen` from the wallet, with its ledger row, inside `tx`; answers the balance after (the commerce module's `app.commerce.donate`). */
export type WalletDebit = (tx: Transaction, userId: number, fen: number) => Promise<number>;

export const toDonation = (row: DonationRow): Donation => ({ Id: row.id, Amount: row.amount, Name: row.name, At: row.createdAt.toISOString() });

export async function donate(
  db: Database,
  debit: WalletDebit,
  userId: number,
  amount: number,
  name: string | null,
): Promise<{ row: DonationRow; balance: number }> {
  if (amount < donationRules.minimum || amount > donationRules.maximum) throw new ApiError(ErrorCode.AmountInvalid, 'donationAmountInvalid');
  return db.transaction(async (tx) => {
    const balance = await debit(tx, userId, amount);
    const [row] = await tx.insert(donations).values({ userId, amount, name }).returning();
    return { row, balance };
  });
}

export async function ownDonations(db: Database, userId: number): Promise<Donation[]> {
  const rows = await db.select().from(donations).where(eq(donations.userId, userId)).orderBy(desc(donations.id)).limit(pageSize);
  return rows.map(toDonation);
}

/** Takes the user's name off their donation; another user's donation is as unknown as a missing one. */
export async function removeName(db: Database, userId: number, id: number): Promise<Donation> {
  const [row] = await db
    .update(donations)
    .set({ name: null })
    .where(and(eq(donations.id, id), eq(donations.userId, userId)))
    .returning();
  if (!row) throw new ApiError(ErrorCode.NotFound, 'donationNotFound');
  return toDonation(row);
}

/** The sponsor page's thank-yous, newest first. */
export async function sponsorList(db: Database): Promise<Sponsor[]> {
  const rows = await db
    .select({ name: donations.name, at: donations.createdAt })
    .from(donations)
    .where(and(isNotNull(donations.name), isNull(donations.hiddenAt), isNotNull(donations.userId)))
    .orderBy(desc(donations.id))
    .limit(donationRules.sponsorListLength);
  return rows.map((row) => ({ Name: row.name!, At: row.at.toISOString() }));
}

/** Operators hide a name unfit for a public page, or show it again; answers the donation, or null when there is none with that id. */
export async function setHidden(db: Database, actor: Actor, id: number, hidden: boolean): Promise<DonationRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(donations)
      .set({ hiddenAt: hidden ? new Date() : null })
      .where(eq(donations.id, id))
      .returning();
    if (row) await recordAudit(tx, actor, { action: hidden ? 'donation hide' : 'donation show', target: `donation ${id}`, before: null, after: { hidden } });
    return row ?? null;
  });
}

/** The latest named donations, hidden or not, for operators to look over. */
export async function namedDonations(db: Database, limit: number): Promise<DonationRow[]> {
  return db.select().from(donations).where(isNotNull(donations.name)).orderBy(desc(donations.id)).limit(limit);
}
