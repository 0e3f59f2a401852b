/**
 * Applies drizzle-kit's migrations (./migrations) with drizzle's own
 * bookkeeping (the table `drizzle.__drizzle_migrations`, so drizzle-kit and
 * this agree on what is applied), but one transaction per migration, saying
 * which it is on: a first start on a slow machine reads "applying migration 7
 * of 11" rather than looking hung. Each transaction holds an advisory lock and
 * looks again at what is applied, so instances starting together on one
 * PostgreSQL apply each migration once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { rowsOf, type Database, type Transaction } from './database.ts';

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Any constant both instances agree on: the lock that takes turns at migrating. */
const migrationLock = 7_451_020_261;

/** When the newest applied migration was written (drizzle-kit's `folderMillis`), 0 when none is. */
async function lastApplied(tx: Transaction): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(${migrationLock})`);
  await tx.execute(sql`create schema if not exists drizzle`);
  await tx.execute(sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`);
  const [last] = rowsOf<{ created_at: string }>(await tx.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`));
  return last ? Number(last.created_at) : 0;
}

/** The journal drizzle-kit keeps: each migration's name and when it was written, in order. */
export function migrationJournal(): Array<{ tag: string; when: number }> {
  return (JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string; when: number }> }).entries;
}

export async function applyMigrations(db: Database, progress: (step: string) => void): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder });
  const entries = migrationJournal();
  const applied = await db.transaction(lastApplied);
  for (const [index, migration] of migrations.entries()) {
    if (migration.folderMillis <= applied) continue;
    await db.transaction(async (tx) => {
      // Another instance may have applied it while this one waited for the lock.
      if (migration.folderMillis <= (await lastApplied(tx))) return;
      progress(`Applying migration ${index + 1} of ${migrations.length} (${entries[index].tag})…`);
      for (const statement of migration.sql) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`);
    });
  }
}
