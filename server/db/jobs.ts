/**
 * Work that must happen later (order expiry, renewals, scheduled draws) goes to pg-boss, the job queue
 * kept in the app's own database, schema `jobs`: it survives restarts, retries
 * with back-off, and hands each job to one instance. On PostgreSQL it has a
 * small pool of its own; on PGlite it shares the one connection. A job sent
 * with `inTransaction(tx)` exists exactly when the transaction commits.
 */
import { sql } from 'drizzle-orm';
import { fromDrizzle, fromPglite, PgBoss, type ConnectionOptions, type DrizzleTransactionLike } from 'pg-boss';
import type { Config } from '../config.ts';
import type { Transaction } from './database.ts';
import type { OpenDatabase } from './open.ts';

export type Jobs = PgBoss;

export async function openJobs(
  database: OpenDatabase,
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_CONNECT_TIMEOUT'>,
  log: { warn(error: unknown): void },
): Promise<Jobs> {
  const boss = database.pglite
    ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', schema: 'jobs' })
    : new PgBoss({ connectionString: config.DATABASE_URL, schema: 'jobs', max: 3, connectionTimeoutMillis: config.DATABASE_CONNECT_TIMEOUT * 1000 });
  boss.on('error', (error) => log.warn(error));
  await boss.start();
  return boss;
}

/** Sends a job as part of the transaction: it is queued if and only if the transaction commits. */
export const inTransaction = (tx: Transaction): ConnectionOptions => ({
  // pg-boss types `execute`'s result more narrowly than drizzle's generic transaction declares it; both drivers answer rows as it expects.
  db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql),
});
