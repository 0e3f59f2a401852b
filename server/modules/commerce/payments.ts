/**
 * Paying and closing orders. Every change holds the order's row lock inside
 * one transaction; money that arrives is recorded once per provider
 * transaction (`payments`' unique reference) and a notification's nonce once
 * (`payment_nonces`), so a replayed or retried notification changes nothing.
 * Money that arrives for an order that is paid or closed already is never
 * lost: it goes to the customer's wallet. Calls to the provider happen outside
 * transactions, before the change they guard.
 */
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { OrderItem, PayOutcome } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import type { Database, Transaction as Tx } from '../../db/open.ts';
import { memberships, orders, paymentNonces, payments, settings } from '../../db/schema.ts';
import { ApiError } from '../../http/api-error.ts';
import { advance, findOrder, lockOrder, note, payable, type OrderRow, type Source } from './orders.ts';
import { changeBalance } from './wallet.ts';
import { AlreadyPaidError, ProviderError, type PaymentProvider, type Transaction } from '../../services/wechatpay-adapter.ts';

/** The payment provider, asked for only when a step needs it (the sandbox's is made on first use). */
export type ProviderOf = () => PaymentProvider | null;

/** Tells the order's owner's open pages that it changed. */
export type Announce = (row: OrderRow) => void;

/** A notification whose nonce was accepted before. */
export class ReplayedNotification extends Error {}

export async function underMaintenance(db: Database): Promise<boolean> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, 'maintenance'));
  return row?.value === true;
}

export async function setMaintenance(db: Database, on: boolean): Promise<void> {
  await db
    .insert(settings)
    .values({ key: 'maintenance', value: on })
    .onConflictDoUpdate({ target: settings.key, set: { value: on } });
}

function requireProvider(provider: ProviderOf): PaymentProvider {
  const reached = provider();
  if (!reached) throw new ApiError(ErrorCode.PaymentProviderFailed, 'paymentProviderFailed');
  return reached;
}

function refuseUnpayable(row: OrderRow): void {
  if (payable.includes(row.state)) return;
  if (row.state === 'closed' || row.state === 'failed') throw new ApiError(ErrorCode.OrderClosed, 'orderClosed');
  throw new ApiError(ErrorCode.OrderPaid, 'orderPaid');
}

/** A paid order takes effect: a membership at once (fulfilled); a Steam recharge waits for an operator. */
async function paid(tx: Tx, row: OrderRow, source: Source, method: 'wechatpay' | 'wallet'): Promise<OrderRow> {
  let current = await advance(tx, row, 'paid', source, method === 'wallet' ? 'paidFromWallet' : 'paid', { method, outcome: 'successful' });
  if (current.item.Kind === 'membership' && current.userId !== null) {
    const months = sql`make_interval(months => ${current.item.Months ?? 0})`;
    await tx
      .insert(memberships)
      .values({ userId: current.userId, until: sql`now() + ${months}` })
      .onConflictDoUpdate({ target: memberships.userId, set: { until: sql`greatest(${memberships.until}, now()) + ${months}` } });
    current = await advance(tx, current, 'fulfilled', 'system', 'membershipApplied');
  }
  return current;
}

export async function payFromWallet(db: Database, userId: number, key: string): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const row = await lockOrder(tx, key, userId);
    refuseUnpayable(row);
    await changeBalance(tx, userId, -row.price, 'payment', row.id);
    await tx.insert(payments).values({ orderId: row.id, method: 'wallet', reference: `order-${row.id}`, amount: row.price, disposition: 'applied' });
    return paid(tx, row, 'wallet', 'wallet');
  });
}

/**
 * Applies what the provider reports about an order's transaction; with a
 * notification's nonce, refuses a replay. Answers the changed order, or null
 * when nothing changed (a retry, an unknown order, a state that says nothing).
 */
export async function applyTransaction(db: Database, transaction: Transaction, nonce?: string): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    if (nonce !== undefined) {
      const fresh = await tx.insert(paymentNonces).values({ nonce }).onConflictDoNothing().returning({ nonce: paymentNonces.nonce });
      if (fresh.length === 0) throw new ReplayedNotification(nonce);
    }
    const [row] = await tx.select().from(orders).where(eq(orders.key, transaction.outTradeNo)).for('update');
    if (!row) return null;

    if (transaction.tradeState === 'SUCCESS') {
      if (!transaction.transactionId) return null;
      const appliesToOrder = payable.includes(row.state) && transaction.total === row.price;
      const recorded = await tx
        .insert(payments)
        .values({
          orderId: row.id,
          method: 'wechatpay',
          reference: transaction.transactionId,
          amount: transaction.total,
          disposition: appliesToOrder || row.userId === null ? 'applied' : 'toWallet',
        })
        .onConflictDoNothing()
        .returning({ id: payments.id });
      if (recorded.length === 0) return null;
      if (appliesToOrder) return paid(tx, row, 'provider', 'wechatpay');
      // Paid already (by another method, or twice), or closed before the money came: the money goes to the wallet.
      if (row.userId === null) return note(tx, row, 'provider', 'paymentForDeletedAccount');
      const late = row.state === 'closed' || row.state === 'failed';
      await changeBalance(tx, row.userId, transaction.total, late ? 'latePayment' : 'duplicatePayment', row.id);
      return note(tx, row, 'provider', late ? 'latePayment' : 'duplicatePayment', late ? {} : { outcome: 'paidByOther' });
    }
    if (!payable.includes(row.state)) return null;
    if (transaction.tradeState === 'PAYERROR') return advance(tx, row, 'failed', 'provider', 'paymentFailed', { outcome: 'failed' });
    if (transaction.tradeState === 'CLOSED' || transaction.tradeState === 'REVOKED')
      return advance(tx, row, 'closed', 'provider', 'closedByProvider', { outcome: 'timeout' });
    return null;
  });
}

/**
 * Closes a payable order (a customer's cancel, or expiry). A scan-to-pay
 * transaction is closed at the provider first; if the customer paid in the
 * meantime, the payment is applied instead and the order stays paid.
 */
export async function closeOrder(
  db: Database,
  provider: ProviderOf,
  key: string,
  why: { outcome: PayOutcome; source: Source; note: string; userId?: number },
): Promise<OrderRow[]> {
  const current = await findOrder(db, key, why.userId);
  refuseUnpayable(current);
  const changed = await closeAtProvider(db, provider, current);
  const closed = await db.transaction(async (tx) => {
    const row = await lockOrder(tx, key);
    return payable.includes(row.state) ? advance(tx, row, 'closed', why.source, why.note, { outcome: why.outcome }) : null;
  });
  return closed ? [...changed, closed] : changed;
}

/**
 * Closes the order's scan-to-pay transaction at the provider, if it has one.
 * If the customer paid meanwhile, the payment is applied (to the order, or to
 * the wallet when the order is settled already); answers what that changed.
 */
export async function closeAtProvider(db: Database, provider: ProviderOf, row: OrderRow): Promise<OrderRow[]> {
  if (row.method !== 'wechatpay' || !row.codeUrl) return [];
  const wechatPay = requireProvider(provider);
  try {
    await wechatPay.close(row.key);
    return [];
  } catch (error) {
    if (!(error instanceof AlreadyPaidError)) throw error;
    const transaction = await wechatPay.query(row.key);
    const applied = transaction && (await applyTransaction(db, transaction));
    return applied ? [applied] : [];
  }
}

/** What the provider's payment is for, in its records and the customer's payment app. */
const descriptionOf = (item: OrderItem) =>
  item.Kind === 'membership'
    ? `Beacon Toolkit cloud idling, ${item.Months} month(s)`
    : `Steam wallet ${((item.Amount ?? 0) / 100).toFixed(2)} ${item.Currency}`;

/** Starts (or shows again) the order's scan-to-pay transaction at the provider; answers the order, now paying, with its code URL. */
export async function startScanPay(db: Database, provider: ProviderOf, userId: number, key: string, notifyUrl: string): Promise<OrderRow> {
  const order = await findOrder(db, key, userId);
  refuseUnpayable(order);
  const codeUrl = await requireProvider(provider).createNative({
    outTradeNo: order.key,
    description: descriptionOf(order.item),
    total: order.price,
    expiresAt: order.expiresAt,
    notifyUrl,
  });
  return db.transaction(async (tx) => {
    const row = await lockOrder(tx, key, userId);
    refuseUnpayable(row);
    if (row.state === 'paying' && row.codeUrl === codeUrl) return row;
    return advance(tx, row, 'paying', 'customer', 'paymentStarted', { method: 'wechatpay', codeUrl });
  });
}

/** Closes the orders whose pay window has passed; one that the provider cannot be asked about now is tried again next time. */
export async function closeExpiredOrders(db: Database, provider: ProviderOf, announce: Announce, log: (error: unknown) => void): Promise<number> {
  const due = await db
    .select({ key: orders.key })
    .from(orders)
    .where(and(inArray(orders.state, [...payable]), lt(orders.expiresAt, sql`now()`)))
    .orderBy(asc(orders.expiresAt))
    .limit(100);
  let closed = 0;
  for (const { key } of due) {
    try {
      const changed = await closeOrder(db, provider, key, { outcome: 'timeout', source: 'system', note: 'expired' });
      changed.forEach(announce);
      closed += changed.filter((row) => row.state === 'closed').length;
    } catch (error) {
      if (error instanceof ApiError) continue; // paid or closed meanwhile
      if (error instanceof ProviderError) log(error);
      else throw error;
    }
  }
  // Nonces older than any notification the provider's signature check still accepts can go.
  await db.delete(paymentNonces).where(lt(paymentNonces.at, sql`now() - interval '1 hour'`));
  return closed;
}

/** An operator delivered a paid Steam recharge. */
export async function fulfilOrder(db: Database, key: string): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const row = await lockOrder(tx, key);
    if (row.state !== 'paid') throw new ApiError(ErrorCode.OrderClosed, 'orderNotFulfillable');
    return advance(tx, row, 'fulfilled', 'operator', 'rechargeDelivered');
  });
}

/**
 * Gives a paid order's money back the way it came: to the wallet, or through
 * the provider (asked first, with a refund number derived from the order, so
 * asking again after a failure cannot refund twice). A membership loses the
 * months it added.
 */
export async function refundOrder(db: Database, provider: ProviderOf, key: string): Promise<OrderRow> {
  const current = await findOrder(db, key);
  if (current.state !== 'paid' && current.state !== 'fulfilled') throw new ApiError(ErrorCode.OrderClosed, 'orderNotRefundable');
  if (current.method === 'wechatpay') await requireProvider(provider).refund(key, `${key}R`, current.price, current.price);
  return db.transaction(async (tx) => {
    const row = await lockOrder(tx, key);
    if (row.state !== 'paid' && row.state !== 'fulfilled') throw new ApiError(ErrorCode.OrderClosed, 'orderNotRefundable');
    if (row.method === 'wallet' && row.userId !== null) await changeBalance(tx, row.userId, row.price, 'refund', row.id);
    if (row.item.Kind === 'membership' && row.userId !== null && row.state === 'fulfilled') {
      await tx
        .update(memberships)
        .set({ until: sql`greatest(now(), ${memberships.until} - make_interval(months => ${row.item.Months ?? 0}))` })
        .where(eq(memberships.userId, row.userId));
    }
    return advance(tx, row, 'refunded', 'operator', row.method === 'wallet' ? 'refundedToWallet' : 'refunded');
  });
}
