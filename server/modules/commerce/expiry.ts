/**
 * Orders close when their pay window passes. The instance whose customer
 * made an order closes it then, on a timer; a sweep every minute (a pg-boss
 * schedule, run on one instance) closes any that a restart, or an instance
 * that went away, left open, at most a minute late. The order's row is the
 * record: nothing else is written per order. (A pg-boss job per order cost
 * its insert in the order's transaction, the dearest statement of a paid
 * order on PGlite: docs/benchmarks.md.) Closing is idempotent, so a timer and
 * the sweep meeting on one order close it once.
 */
import { and, asc, inArray, lte } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { orders } from '../../db/schema/commerce.ts';
import { payable, type OrderRow } from './orders.ts';

/** The queue of the minute's sweep. */
export const orderSweepJob = 'order-sweep';

/** How many expired orders one sweep closes at most, oldest first; more wait for the next minute. */
const sweepBatch = 500;

/** The numbers of the open orders whose window has passed, oldest first (the `orders_open` index). */
export async function expiredOrderKeys(db: Database, now = new Date()): Promise<string[]> {
  const rows = await db
    .select({ key: orders.key })
    .from(orders)
    .where(and(inArray(orders.state, payable), lte(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt))
    .limit(sweepBatch);
  return rows.map((row) => row.key);
}

/** This instance's timers for the orders its customers made, each closing its order as its window ends. */
export class OrderTimers {
  readonly #pending = new Set<NodeJS.Timeout>();
  readonly #close: (key: string) => Promise<unknown>;

  /** `close` closes an order that has expired; it must not throw. */
  constructor(close: (key: string) => Promise<unknown>) {
    this.#close = close;
  }

  watch(row: Pick<OrderRow, 'key' | 'expiresAt'>): void {
    // The timer holds the order's number only, not its whole row, for as long as the pay window lasts.
    const { key } = row;
    const timer = setTimeout(
      () => {
        this.#pending.delete(timer);
        void this.#close(key);
      },
      Math.max(0, row.expiresAt.getTime() - Date.now()),
    );
    // A pending window never keeps the process alive: the sweep covers what a stop leaves.
    timer.unref();
    this.#pending.add(timer);
  }

  /** Drops every timer (the server is closing; the sweep closes those orders later). */
  stop(): void {
    for (const timer of this.#pending) clearTimeout(timer);
    this.#pending.clear();
  }
}
