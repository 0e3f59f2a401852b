/**
 * The child process that makes the embedded database in a new folder
 * (new-folder.ts forks it): `node new-folder-process.ts <folder> migrate|bare`.
 * It creates the database, applies the migrations when asked, closes it and
 * exits, reporting each step and any failure to its parent over IPC.
 */
import { inspect } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import type { Database } from './database.ts';
import { applyMigrations } from './migrate.ts';
import type { CreationMessage } from './new-folder.ts';
import { pgliteStartParams } from './pglite-settings.ts';

const send = (message: CreationMessage) => process.send?.(message);
const [folder, mode] = process.argv.slice(2);

try {
  const client = new PGlite(folder, { startParams: pgliteStartParams });
  await client.waitReady;
  if (mode === 'migrate') await applyMigrations(drizzle(client) as unknown as Database, (step) => send({ progress: step }));
  await client.close();
} catch (error) {
  // PGlite's file system throws plain objects (an ErrnoError with its number), which say more inspected than as strings.
  send({ failed: error instanceof Error ? error.message : inspect(error, { breakLength: Infinity }) });
  process.exitCode = 1;
}
