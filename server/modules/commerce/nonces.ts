/**
 * The nonces of the provider's notifications: each is accepted once, so a
 * replayed notification is refused whole. Old ones go once the signature's
 * time window would refuse them anyway.
 */
import { lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/database.ts';
import { paymentNonces } from '../../db/schema/commerce.ts';

/** A notification whose nonce was accepted before. */
export class ReplayedNotification extends Error {}

export async function acceptNonce(tx: Transaction, nonce: string): Promise<void> {
  const fresh = await tx.insert(paymentNonces).values({ nonce }).onConflictDoNothing().returning({ nonce: paymentNonces.nonce });
  if (fresh.length === 0) throw new ReplayedNotification(nonce);
}

/** The queue of the hourly clean-up. */
export const nonceCleanupJob = 'payment-nonce-cleanup';

export async function forgetOldNonces(db: Database): Promise<void> {
  await db.delete(paymentNonces).where(lt(paymentNonces.at, sql`now() - interval '1 hour'`));
}
