/**
 * The wallet: a balance in fen that never goes below zero, and its ledger.
 * The balance changes only here, with its ledger row in the same transaction,
 * under a lock on the wallet's row, so racing payments cannot both spend it.
 */
import { count, desc, eq, sql } from 'drizzle-orm';
import { ErrorCode } from '#contract/errors.ts';
import type { LedgerEntry } from '#contract/commerce.ts';
import { pageSize } from '#contract/paging.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { orders, walletLedger, wallets } from '../../db/schema/commerce.ts';
import { ApiError } from '../../http/api-error.ts';

type Reason = (typeof walletLedger.$inferInsert)['reason'];

/** The user's wallet row, locked until the transaction ends; made at zero on first use. */
async function lockWallet(tx: Transaction, userId: number): Promise<number> {
  await tx.insert(wallets).values({ userId }).onConflictDoNothing();
  const [wallet] = await tx.select({ balance: wallets.balance }).from(wallets).where(eq(wallets.userId, userId)).for('update');
  return wallet.balance;
}

/** Adds `delta` fen (negative to spend) with its ledger row; refuses with InsufficientBalance rather than go below zero. */
export async function changeBalance(tx: Transaction, userId: number, delta: number, reason: Reason, orderId: number | null): Promise<number> {
  const balance = await lockWallet(tx, userId);
  const after = balance + delta;
  if (after < 0) throw new ApiError(ErrorCode.InsufficientBalance, 'insufficientBalance');
  await tx
    .update(wallets)
    .set({ balance: after, updatedAt: sql`now()` })
    .where(eq(wallets.userId, userId));
  await tx.insert(walletLedger).values({ userId, delta, balanceAfter: after, reason, orderId });
  return after;
}

export async function balanceOf(db: Database | Transaction, userId: number): Promise<number> {
  const [wallet] = await db.select({ balance: wallets.balance }).from(wallets).where(eq(wallets.userId, userId));
  return wallet?.balance ?? 0;
}

/** One page of the ledger, newest first. */
export async function ledgerPage(db: Database, userId: number, page: number): Promise<{ Items: LedgerEntry[]; Total: number; Page: number }> {
  const rows = await db
    .select({ entry: walletLedger, order: orders.key })
    .from(walletLedger)
    .leftJoin(orders, eq(orders.id, walletLedger.orderId))
    .where(eq(walletLedger.userId, userId))
    .orderBy(desc(walletLedger.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [{ total }] = await db.select({ total: count() }).from(walletLedger).where(eq(walletLedger.userId, userId));
  return {
    Items: rows.map(({ entry, order }) => ({
      Id: entry.id,
      Delta: entry.delta,
      BalanceAfter: entry.balanceAfter,
      Reason: entry.reason,
      Order: order,
      At: entry.at.toISOString(),
    })),
    Total: total,
    Page: page,
  };
}
