/**
 * Opens the database named by DATABASE_URL and applies the migrations:
 * `file://<folder>` — embedded PGlite in a folder (the default), locked so a
 *   second process cannot open (and corrupt) it;
 * `memory://` — PGlite in memory, for tests;
 * `postgres://…` — a real PostgreSQL server through node-postgres.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockFolder } from './folder-lock.ts';
import * as schema from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface OpenDatabase {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The embedded database's one connection, which the job queue shares; null on PostgreSQL. */
  pglite: PGlite | null;
  close(): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** The folder of a `file://` URL, relative paths against the working directory. */
export function pgliteFolder(url: string): string {
  return path.resolve(url.slice('file://'.length));
}

export interface OpenOptions {
  /** Off for the operators' command, which must not change a database it only looks at. */
  migrate?: boolean;
  /** Hears what opening did that an operator should know (a stale lock taken over). */
  log?: (line: string) => void;
}

export async function openDatabase(url: string, options: OpenOptions = {}): Promise<OpenDatabase> {
  const opened = url.startsWith('postgres://') || url.startsWith('postgresql://') ? openPostgres(url) : await openPglite(url, options.log ?? (() => {}));
  if (options.migrate !== false) {
    try {
      await opened.migrate();
    } catch (error) {
      await opened.close();
      throw error;
    }
  }
  return { db: opened.db, kind: opened.kind, pglite: opened.pglite, close: opened.close };
}

function openPostgres(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = drizzlePg(pool, { schema });
  return {
    db: db as unknown as Database,
    kind: 'postgres' as const,
    pglite: null,
    migrate: () => migratePg(db, { migrationsFolder }),
    close: () => pool.end(),
  };
}

async function openPglite(url: string, log: (line: string) => void) {
  let release = () => {};
  let client: PGlite;
  if (url === 'memory://') {
    client = new PGlite();
  } else if (url.startsWith('file://')) {
    const folder = pgliteFolder(url);
    mkdirSync(folder, { recursive: true });
    release = lockFolder(folder, log);
    try {
      client = new PGlite(folder);
    } catch (error) {
      release();
      throw error;
    }
  } else {
    throw new Error(`DATABASE_URL must start with file://, memory:// or postgres:// (got "${url}")`);
  }
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Database,
    kind: 'pglite' as const,
    pglite: client,
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: async () => {
      await client.close();
      release();
    },
  };
}

/** The handle a `db.transaction` callback receives. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The rows of a raw `db.execute(sql…)`: both drivers answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
