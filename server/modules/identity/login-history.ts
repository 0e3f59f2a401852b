/**
 * The login history (the account centre's security page): every login and failed attempt
 * on an existing account, with its method, address, place and device. Attempts
 * on accounts that do not exist belong to no one and are not kept.
 */
import { desc, eq, lt } from 'drizzle-orm';
import { facts, periodMs } from '#contract/facts.ts';
import { loginHistoryLength, type LoginEvent, type LoginMethod } from '#contract/account.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { loginEvents } from '../../db/schema/identity.ts';
import type { ClientInfo } from './client-info.ts';

export async function recordLogin(db: Database | Transaction, userId: number, method: LoginMethod, success: boolean, client: ClientInfo): Promise<void> {
  await db.insert(loginEvents).values({ userId, method, success, ip: client.ip, place: client.place, device: client.device });
}

export async function loginHistory(db: Database, userId: number): Promise<LoginEvent[]> {
  const rows = await db
    .select()
    .from(loginEvents)
    .where(eq(loginEvents.userId, userId))
    .orderBy(desc(loginEvents.createdAt), desc(loginEvents.id))
    .limit(loginHistoryLength);
  return rows.map((row) => ({
    Method: row.method as LoginMethod,
    Success: row.success,
    Address: row.ip,
    Place: row.place,
    Device: row.device,
    At: row.createdAt.toISOString(),
  }));
}

/** Forgets attempts older than the privacy policy keeps server logs (called at start). */
export async function pruneLoginHistory(db: Database, now = new Date()): Promise<void> {
  await db.delete(loginEvents).where(lt(loginEvents.createdAt, new Date(now.getTime() - periodMs(facts.legal.serverLogRetention))));
}
