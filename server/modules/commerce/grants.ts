/**
 * What the commerce module gives other modules (`app.commerce`): the grants a
 * redeemed cdkey or a claimed raffle prize makes and the debit of a donation, each inside the caller's
 * transaction, so a change of balance and what caused it are written together
 * or not at all.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/database.ts';
import { memberships } from '../../db/schema/commerce.ts';
import { priceOrder } from './catalogue.ts';
import { advance, insertOrder } from './orders.ts';
import { balanceOf, changeBalance } from './wallet.ts';

export interface CommerceGrants {
  /** Adds fen to the wallet, with its ledger row naming what gave it; answers the balance after. */
  credit(tx: Transaction, userId: number, fen: number, reason: 'cdkey' | 'raffle'): Promise<number>;
  /** Takes fen from the wallet for a donation, with its ledger row; answers the balance after, or refuses when it is not enough. */
  donate(tx: Transaction, userId: number, fen: number): Promise<number>;
  /** Adds days of cloud idling, from now or from the end of the plan running. */
  extendMembership(tx: Transaction, userId: number, days: number): Promise<void>;
  /** A Steam recharge already paid for, waiting for an operator like any paid one; answers its order number. */
  paidRecharge(tx: Transaction, userId: number, product: string, amount: number): Promise<string>;
  balance(db: Database, userId: number): Promise<number>;
  /** Until when the user's cloud-idling plan runs, if it does. */
  membershipUntil(db: Database, userId: number): Promise<Date | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    commerce: CommerceGrants;
  }
}

export function commerceGrants(): CommerceGrants {
  return {
    credit: (tx, userId, fen, reason) => changeBalance(tx, userId, fen, reason, null),
    donate: (tx, userId, fen) => changeBalance(tx, userId, -fen, 'donation', null),

    async extendMembership(tx, userId, days) {
      const period = sql`make_interval(days => ${days})`;
      await tx
        .insert(memberships)
        .values({ userId, until: sql`now() + ${period}` })
        .onConflictDoUpdate({ target: memberships.userId, set: { until: sql`greatest(${memberships.until}, now()) + ${period}` } });
    },

    async paidRecharge(tx, userId, product, amount) {
      const { item } = await priceOrder(tx, userId, { Product: product, Amount: amount });
      const order = await insertOrder(tx, { userId, product, item, price: 0 });
      await advance(tx, order, 'paid', 'customer', 'paidByCdkey', { method: 'cdkey', outcome: 'successful' });
      return order.key;
    },

    balance: balanceOf,

    async membershipUntil(db, userId) {
      const [row] = await db.select({ until: memberships.until }).from(memberships).where(eq(memberships.userId, userId));
      return row && row.until.getTime() > Date.now() ? row.until : null;
    },
  };
}
