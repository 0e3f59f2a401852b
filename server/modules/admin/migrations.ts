/** `migrations status`: every migration of the journal, applied or not. */
import { sql } from 'drizzle-orm';
import type { MigrationStatus } from '#contract/admin.ts';
import { migrationJournal } from '../../db/migrate.ts';
import { rowsOf, type Database } from '../../db/database.ts';
import { adminCommands } from '#contract/commands/admin.ts';
import { handle } from '../../admin-command.ts';
import { table, time } from '../../admin-text.ts';

/**
 * Drizzle records an applied migration in `drizzle.__drizzle_migrations` with
 * the journal's `when` as its `created_at` (a bigint: a string through
 * node-postgres, a number in PGlite).
 */
async function migrationStatus(db: Database): Promise<MigrationStatus[]> {
  const applied = new Set<number>();
  // A database never migrated has no such table yet.
  const [{ present }] = rowsOf<{ present: boolean }>(await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`));
  if (present) {
    const rows = rowsOf<{ created_at: string | number }>(await db.execute(sql`select created_at from drizzle.__drizzle_migrations`));
    for (const row of rows) applied.add(Number(row.created_at));
  }
  return migrationJournal().map((entry) => ({ tag: entry.tag, createdAt: new Date(entry.when).toISOString(), applied: applied.has(entry.when) }));
}

export const migrationCommands = [
  handle(adminCommands.migrations, {
    run: async (app) => ({ command: 'migrations status', migrations: await migrationStatus(app.db) }),
    format: (result) =>
      table(
        ['MIGRATION', 'CREATED', 'APPLIED'],
        result.migrations.map((migration) => [migration.tag, time(migration.createdAt), migration.applied ? 'yes' : 'no']),
      ),
  }),
];
