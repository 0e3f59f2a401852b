/**
 * A query built once per database and run many times. Drizzle builds a
 * query's SQL anew on every call, which costs more than PGlite takes to run a
 * simple lookup; a prepared query skips that (and on PostgreSQL is parsed once
 * per connection). For the hot reads outside transactions: a prepared query
 * belongs to its database, and a transaction's queries are built as usual.
 */
import type { Database } from './database.ts';

export function preparedOn<Q>(build: (db: Database) => Q): (db: Database) => Q {
  const built = new WeakMap<Database, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
