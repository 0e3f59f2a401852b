/**
 * Opens the database named by DATABASE_URL and applies the migrations:
 * `file://<folder>` — embedded PGlite in a folder (the default), locked so a
 *   second process cannot open (and corrupt) it;
 * `memory://` — PGlite in memory, for tests and benchmarks;
 * `postgres://…` — a real PostgreSQL server through node-postgres.
 * Every step that takes long says so as it starts (`progress`), and waiting
 * for PostgreSQL is the one step with a deadline: real work never races a timer.
 * Once started, PostgreSQL may go away and come back (a restart, a fail-over):
 * the pool logs what it hears of that, a request meanwhile fails within
 * `requestConnectTimeoutMs` (answered 503: plugins/errors.ts), and the next
 * connection after the server is back simply works.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { defaultConnectTimeoutSeconds, isPostgresUrl } from '../config.ts';
import { StartupError } from '../startup-error.ts';
import type { Database } from './database.ts';
import { lockFolder } from './folder-lock.ts';
import { memoryTemplate } from './memory-template.ts';
import { applyMigrations } from './migrate.ts';
import { createFolderDatabase } from './new-folder.ts';
import { pgliteStartParams } from './pglite-settings.ts';
import * as schema from './schema.ts';

export interface OpenDatabase {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The embedded database's one connection, which the job queue shares; null on PostgreSQL. */
  pglite: PGlite | null;
  close(): Promise<void>;
}

/** The folder of a `file://` URL, relative paths against the working directory. */
export function pgliteFolder(url: string): string {
  return path.resolve(url.slice('file://'.length));
}

export interface OpenOptions {
  /** Off for the operators' command, which must not change a database it only looks at. */
  migrate?: boolean;
  /** Hears each long step as it starts (creating the database, each migration), so a slow first start shows where it is. */
  progress?: (step: string) => void;
  /** Hears what an operator should know: a stale lock taken over on opening; on PostgreSQL, connections the server ended. */
  log?: (line: string) => void;
  /** How long PostgreSQL may take to accept a connection before the start fails (DATABASE_CONNECT_TIMEOUT). */
  connectTimeoutSeconds?: number;
  /** A PGlite dump (a backup's) to make a new `file://` folder's database from. */
  loadDataDir?: Blob;
}

export async function openDatabase(url: string, options: OpenOptions = {}): Promise<OpenDatabase> {
  const progress = options.progress ?? (() => {});
  const opened = isPostgresUrl(url)
    ? await openPostgres(url, options.connectTimeoutSeconds ?? defaultConnectTimeoutSeconds, options.log ?? (() => {}))
    : await openPglite(url, { ...options, progress, log: options.log ?? (() => {}) });
  if (options.migrate !== false) {
    try {
      await applyMigrations(opened.db, progress);
    } catch (error) {
      await opened.close();
      throw error;
    }
  }
  return opened;
}

/** Connections each instance keeps to PostgreSQL. */
export const postgresPoolSize = 10;

/** How long opening a connection may take while PostgreSQL does not answer: the customer is told at once, not when a proxy gives up. */
const requestConnectTimeoutMs = 3_000;
/**
 * How long a request may wait for one of the pool's connections. A burst
 * (hundreds at once) waits its turn and is served; only a request that would
 * still be waiting when nginx gives up on it (15 s) is answered 503 first.
 */
const requestQueueTimeoutMs = 12_000;

/** A pooled connection with its own opening deadline: the pool's `connectionTimeoutMillis` is the wait for a free one. */
class PooledClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: requestConnectTimeoutMs });
  }
}

async function openPostgres(url: string, connectTimeoutSeconds: number, log: (line: string) => void): Promise<OpenDatabase> {
  // Start-up waits up to DATABASE_CONNECT_TIMEOUT for the server; requests later wait only briefly.
  const first = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutSeconds * 1000 });
  try {
    await first.connect();
    await first.end();
  } catch (error) {
    await first.end().catch(() => {});
    // The URL may carry a password: name the server by its host only.
    const server = `PostgreSQL at ${new URL(url).host} (DATABASE_URL)`;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StartupError(
      /timeout/i.test(reason)
        ? `${server} did not answer within ${connectTimeoutSeconds} s (DATABASE_CONNECT_TIMEOUT): is it running and reachable?`
        : `Could not connect to ${server}: ${reason}`,
    );
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: postgresPoolSize,
    connectionTimeoutMillis: requestQueueTimeoutMs,
    Client: PooledClient,
  });
  // An idle connection the server ended (a restart): the pool drops it; unheard, the error would end the process.
  pool.on('error', (error) => log(`PostgreSQL ended an idle connection (${error.message}); the next query opens a new one`));
  return { db: drizzlePg(pool, { schema }) as unknown as Database, kind: 'postgres', pglite: null, close: () => pool.end() };
}

async function openPglite(
  url: string,
  { progress, log, loadDataDir, migrate }: OpenOptions & Required<Pick<OpenOptions, 'progress' | 'log'>>,
): Promise<OpenDatabase> {
  let client: PGlite;
  let release = () => {};
  try {
    if (url === 'memory://') {
      client = new PGlite({ loadDataDir: await memoryTemplate(progress), startParams: pgliteStartParams });
    } else if (url.startsWith('file://')) {
      const folder = pgliteFolder(url);
      mkdirSync(folder, { recursive: true });
      release = lockFolder(folder, log);
      if (loadDataDir) progress(`Loading the backup into ${folder}…`);
      else if (existsSync(path.join(folder, 'PG_VERSION'))) progress(`Opening the database in ${folder}…`);
      else {
        progress(`Creating the database in ${folder} (first start only)…`);
        await createFolderDatabase(folder, { migrate: migrate !== false, progress });
      }
      client = new PGlite(folder, { loadDataDir, startParams: pgliteStartParams });
    } else {
      throw new StartupError(`DATABASE_URL must start with file://, memory:// or postgres:// (got "${url}")`);
    }
    await client.waitReady;
  } catch (error) {
    release();
    throw error;
  }
  return {
    db: drizzlePglite({ client: withoutQueryParsers(client), schema }) as unknown as Database,
    kind: 'pglite',
    pglite: client,
    close: async () => {
      await client.close();
      release();
    },
  };
}

type Queries = Pick<PGlite, 'query'>;

/**
 * The PGlite connection as drizzle is given it: drizzle hands every query the
 * same few type parsers (timestamps and dates as text, which it then turns
 * into Date itself), and PGlite merges them into its table of some 300 parsers
 * on every query: a third of a simple query's time, and about a tenth of the
 * server's CPU on the payment path. Without them PGlite reads a timestamp as a
 * Date, which drizzle's timestamp columns keep as it is; no column here has
 * one of the other types (date, interval). A transaction's connection is
 * handed over the same way.
 */
function withoutQueryParsers<T extends Queries & Partial<Pick<PGlite, 'transaction'>>>(connection: T): T {
  // Made once per connection: drizzle reads `query` on every query.
  const query = (text: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) => {
    const { parsers: _, ...rest } = options ?? {};
    return connection.query(text, params, rest);
  };
  const transaction = <R>(callback: (tx: Transaction) => Promise<R>) => connection.transaction!((tx) => callback(withoutQueryParsers(tx)));
  return new Proxy(connection, {
    get(target, property) {
      if (property === 'query') return query;
      if (property === 'transaction') return transaction;
      const value: unknown = Reflect.get(target, property, target);
      // PGlite's methods use private fields: they run on the connection itself, not on this proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
