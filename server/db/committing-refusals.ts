/**
 * Refusals that must not undo what their try wrote — a wrong code's count, a
 * lockout and its audit line. The work answers an `Outcome` instead of
 * throwing; its transaction commits either way, and then the refusal is thrown.
 */
import type { ApiError } from '../http/api-error.ts';
import type { Database, Transaction } from './database.ts';

/** What work in a transaction comes to: its value, or the refusal to answer once the transaction has committed. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export const refused = (error: ApiError): Outcome<never> => ({ ok: false, error });

/** Runs `work` in a transaction that commits even when it refuses, then throws the refusal. */
export async function committingRefusals<T>(db: Database, work: (tx: Transaction) => Promise<Outcome<T>>): Promise<T> {
  const outcome = await db.transaction(work);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
