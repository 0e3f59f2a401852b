/**
 * A paid order's receipt (contract `Receipt`): the order as it was bought, the
 * payment that paid it (its method, time and the payment service's
 * transaction number) and the seller the settings name. Only money makes a
 * receipt: an order paid, fulfilled or refunded through a payment of its own.
 * One paid with a cdkey has none (its money, if any, was paid elsewhere), nor
 * has one never paid.
 */
import { and, asc, eq } from 'drizzle-orm';
import { PayMethod, type OrderState, type Receipt, type Seller } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import type { Config } from '../../config.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { payments } from '../../db/schema/commerce.ts';
import { ApiError } from '../../http/api-error.ts';
import { findOrder, type OrderRow } from './orders.ts';
import { refundedSoFar } from './refunds.ts';

/** The states of an order that was paid: a refunded one keeps its receipt, which says what went back. */
const receiptStates: readonly OrderState[] = ['paid', 'fulfilled', 'refunded'];

export const sellerOf = (config: Config): Seller => ({
  Name: config.SELLER_NAME,
  Address: config.SELLER_ADDRESS ?? null,
  TaxId: config.SELLER_TAX_ID ?? null,
  Contact: config.SELLER_CONTACT ?? null,
});

/** The money that paid `row` (its method, time and reference), or null for an order not paid with money; an invoice asks the same. */
export async function moneyPaymentOf(db: Database | Transaction, row: OrderRow): Promise<{ method: PayMethod; at: Date; reference: string } | null> {
  // The payment that paid the order: a second one, sent to the wallet, is not it.
  const [payment] = receiptStates.includes(row.state)
    ? await db
        .select()
        .from(payments)
        .where(and(eq(payments.orderId, row.id), eq(payments.disposition, 'applied')))
        .orderBy(asc(payments.id))
        .limit(1)
    : [];
  const method = PayMethod.safeParse(payment?.method);
  return payment && method.success ? { method: method.data, at: payment.at, reference: payment.reference } : null;
}

/** The receipt of `userId`'s order `key`: another's order and an unknown one are "no such order", one not paid with money "no receipt". */
export async function receiptOf(db: Database, key: string, userId: number, seller: Seller): Promise<Receipt> {
  const row = await findOrder(db, key, userId);
  const payment = await moneyPaymentOf(db, row);
  if (!payment) throw new ApiError(ErrorCode.NotFound, 'receiptUnpaid');
  const refunded = await refundedSoFar(db, row.id, 'succeeded');
  return {
    Seller: seller,
    Key: row.key,
    State: row.state,
    Item: row.item,
    Price: row.price,
    Method: payment.method,
    PaidAt: payment.at.toISOString(),
    // The wallet's own reference is an internal row, not a transaction the customer could quote anywhere.
    Transaction: payment.method === 'wallet' ? null : payment.reference,
    Refunded: refunded,
  };
}
