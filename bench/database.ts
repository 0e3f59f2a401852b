/**
 * The database a benchmark's server child runs on, as the hub, raffle and
 * payment benchmarks start it: `file` is embedded PGlite in a folder (the
 * default deployment), `memory` in-memory PGlite, both inside the server
 * process, which makes and migrates them as `npm start` does on a fresh
 * folder; `postgres` a throwaway PostgreSQL from Debian's packages
 * (`tests/setup/postgres.ts`), or the one TEST_POSTGRES_URL names, in its own
 * process. `stop` stops what was started (nothing for PGlite, which goes with
 * the server and its work folder).
 */
import path from 'node:path';
import pg from 'pg';
import { startPostgres } from '../tests/setup/postgres.ts';

export const databaseKinds = ['file', 'memory', 'postgres'] as const;
export type DatabaseKind = (typeof databaseKinds)[number];

export interface BenchDatabase {
  /** The server's DATABASE_URL. */
  url: string;
  /** For the tables: "PGlite in a folder", "in-memory PGlite", "PostgreSQL 17.6". */
  label: string;
  /** What the results file records of it. */
  record: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts the database of `kind`; a `file` database lives in `folder`/db. Prints which it is. */
export async function startDatabase(kind: DatabaseKind, folder: string): Promise<BenchDatabase> {
  if (kind === 'file') {
    console.log('Database: PGlite in a folder, inside the server process');
    return { url: `file://${path.join(folder, 'db')}`, label: 'PGlite in a folder', record: { kind: 'file' }, stop: async () => {} };
  }
  if (kind === 'memory') {
    console.log('Database: in-memory PGlite, inside the server process');
    return { url: 'memory://', label: 'in-memory PGlite', record: { kind: 'memory' }, stop: async () => {} };
  }
  const source = process.env.TEST_POSTGRES_URL ? 'TEST_POSTGRES_URL' : 'throwaway';
  const postgres = await startPostgres();
  try {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    const version = ((await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? 'unknown').split(' ')[0];
    await client.end();
    console.log(
      `Database: PostgreSQL ${version}, ${source === 'throwaway' ? 'a throwaway server (tests/setup/postgres.ts)' : 'from TEST_POSTGRES_URL'} in its own process`,
    );
    return { url: postgres.url, label: `PostgreSQL ${version}`, record: { kind: 'postgres', version, source }, stop: postgres.stop };
  } catch (error) {
    await postgres.stop();
    throw error;
  }
}
