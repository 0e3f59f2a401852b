/**
 * Counts the statements a benchmark's server child sends its database, so a
 * benchmark can report round trips per unit of work. Imported before the app
 * is built, it wraps the drivers' methods in this process only: every query of
 * node-postgres's clients (BEGIN and COMMIT included, as they are queries
 * there), and on PGlite every query and exec of the instance and of each
 * transaction, with a transaction's BEGIN and its COMMIT or ROLLBACK as two.
 */
import { PGlite, type Transaction } from '@electric-sql/pglite';
import pg from 'pg';

let statements = 0;

/** Statements sent so far by this process. */
export const statementsSent = (): number => statements;

function counted<A extends unknown[], R>(original: (...args: A) => R): (...args: A) => R {
  return function (this: unknown, ...args: A): R {
    statements++;
    return original.apply(this, args);
  };
}

pg.Client.prototype.query = counted(pg.Client.prototype.query) as typeof pg.Client.prototype.query;
PGlite.prototype.query = counted(PGlite.prototype.query) as typeof PGlite.prototype.query;
PGlite.prototype.exec = counted(PGlite.prototype.exec);
const transaction = PGlite.prototype.transaction;
PGlite.prototype.transaction = function <T>(this: PGlite, callback: (tx: Transaction) => Promise<T>): Promise<T> {
  statements += 2;
  return transaction.call(this, (tx) => {
    tx.query = counted(tx.query) as typeof tx.query;
    tx.exec = counted(tx.exec);
    return callback(tx);
  }) as Promise<T>;
};
