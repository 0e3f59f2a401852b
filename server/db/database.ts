/**
 * What the modules use of the database, whichever opened it (open.ts): its
 * type, a transaction's, and the rows of a raw query.
 */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The handle a `db.transaction` callback receives. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The rows of a raw `db.execute(sql…)`: both drivers answer `{ rows }`, though drizzle types them apart. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
