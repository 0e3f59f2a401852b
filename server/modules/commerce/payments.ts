/**
 * Paying and closing orders. Every change holds the order's row lock inside
 * one transaction; money that arrives is recorded once per provider
 * transaction (`payments`' unique reference) and a notification's nonce once
 * (`payment_nonces`), so a replayed or retried notification changes nothing.
 * Money that arrives for an order that is paid or closed already is never
 * lost: it goes to the customer's wallet. Calls to the provider happen outside
 * transactions, before the change they guard.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { OrderItem, PayMethod, PayOutcome } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database, Transaction as Tx } from '../../db/database.ts';
import { memberships, orderEvents, orders, payments, settings } from '../../db/schema/commerce.ts';
import { ApiError } from '../../http/api-error.ts';
import type { PaymentOutcome } from '../../plugins/metrics.ts';
import { AlreadyPaidError, type ProviderMethod, type Transaction } from '../../services/payment-provider.ts';
import { periodFailed, periodPaid, signingCode } from './agreements.ts';
import type { PayContext } from './pay-context.ts';
import { acceptNonce } from './nonces.ts';
import { advance, advanceThrough, findOrder, lockOrder, note, payable, startPaying, type OrderRow, type Source, type Step } from './orders.ts';
import { changeBalance } from './wallet.ts';

/** Tells the order's owner's open pages that it changed. */
export type Announce = (row: OrderRow) => void;

/**
 * A provider ties a trade number to the kind of transaction it was started as
 * (WeChat Pay refuses the other kind as a duplicate number), so an order paid
 * in the provider's app from a phone uses its number with this letter behind
 * it, and scan-to-pay the number itself. Each provider numbers its own.
 */
const phoneSuffix = 'H';
export const phoneTradeNo = (key: string) => `${key}${phoneSuffix}`;
/** The order a provider's trade number belongs to. */
export const orderKeyOfTrade = (outTradeNo: string) => (outTradeNo.endsWith(phoneSuffix) ? outTradeNo.slice(0, -phoneSuffix.length) : outTradeNo);

/** The order a provider's trade number belongs to, or null when this shop has none. */
export async function findOrderOfTrade(db: Database, outTradeNo: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(eq(orders.key, orderKeyOfTrade(outTradeNo)));
  return row ?? null;
}

/** The maintenance flag as the database holds it now. */
export async function readMaintenance(db: Database | Tx): Promise<boolean> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, 'maintenance'));
  return row?.value === true;
}

/**
 * How long an instance goes by the flag it last read. Every order and payment asks, and the flag
 * changes a few times a year: reading it once a second instead of on every call saves two of a
 * paid order's statements. A switch made through this instance counts at once; another
 * instance follows within this time.
 */
const maintenanceReadForMs = 1000;
const maintenanceRead = new WeakMap<Database, { on: boolean; until: number }>();

/** Whether payments are paused, as this instance last read it (at most `maintenanceReadForMs` ago). */
export async function underMaintenance(db: Database): Promise<boolean> {
  const known = maintenanceRead.get(db);
  if (known && known.until > Date.now()) return known.on;
  const on = await readMaintenance(db);
  maintenanceRead.set(db, { on, until: Date.now() + maintenanceReadForMs });
  return on;
}

export async function setMaintenance(db: Database, actor: Actor, on: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await readMaintenance(tx);
    await tx
      .insert(settings)
      .values({ key: 'maintenance', value: on })
      .onConflictDoUpdate({ target: settings.key, set: { value: on } });
    await recordAudit(tx, actor, {
      action: on ? 'maintenance on' : 'maintenance off',
      target: 'payments',
      before: { maintenance: before },
      after: { maintenance: on },
    });
  });
  maintenanceRead.set(db, { on, until: Date.now() + maintenanceReadForMs });
}

/** A provider's adapter, or the customer's "not responding" when it cannot be reached (a sandbox before the server listens). */
export function requireProvider<P>(reached: P | null): P {
  if (!reached) throw new ApiError(ErrorCode.PaymentProviderFailed, 'paymentProviderFailed');
  return reached;
}

/** The timeline's note of a started payment, by provider and way: also what tells which transactions an order has at which provider. */
const startedNotes: Record<ProviderMethod, { scan: string; phone: string }> = {
  wechatpay: { scan: 'paymentStarted', phone: 'paymentStartedInApp' },
  alipay: { scan: 'paymentStartedAlipay', phone: 'paymentStartedInAlipay' },
};

function refuseUnpayable(row: OrderRow): void {
  if (payable.includes(row.state)) return;
  if (row.state === 'closed' || row.state === 'failed') throw new ApiError(ErrorCode.OrderClosed, 'orderClosed');
  throw new ApiError(ErrorCode.OrderPaid, 'orderPaid');
}

/** A paid order takes effect: a membership at once (fulfilled); a Steam recharge waits for an operator. */
async function paid(tx: Tx, row: OrderRow, source: Source, method: PayMethod): Promise<OrderRow> {
  const payment: Step = { state: 'paid', source, note: method === 'wallet' ? 'paidFromWallet' : 'paid' };
  const changes = { method, outcome: 'successful' } as const;
  if (row.item.Kind !== 'membership' || row.userId === null) return advanceThrough(tx, row, [payment], changes);
  const months = sql`make_interval(months => ${row.item.Months ?? 0})`;
  await tx
    .insert(memberships)
    .values({ userId: row.userId, until: sql`now() + ${months}` })
    .onConflictDoUpdate({ target: memberships.userId, set: { until: sql`greatest(${memberships.until}, now()) + ${months}` } });
  // Paid and applied in one change: the order goes straight to fulfilled, and its timeline shows both steps.
  const fulfilled = await advanceThrough(tx, row, [payment, { state: 'fulfilled', source: 'system', note: 'membershipApplied' }], changes);
  await periodPaid(tx, fulfilled);
  return fulfilled;
}

export async function payFromWallet(db: Database, userId: number, key: string): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const row = await lockOrder(tx, key, userId);
    refuseUnpayable(row);
    // An auto-renewal is signed and charged through the provider's contract, which the wallet has none of.
    if (row.agreement) throw new ApiError(ErrorCode.PayMethodUnsupported, 'payMethodUnsupported');
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
export async function applyTransaction({ db, jobs, settled }: PayContext, transaction: Transaction, nonce?: string): Promise<OrderRow | null> {
  // What the transaction settled, counted once it has committed.
  const outcomes: Array<{ outcome: PaymentOutcome; method: string | null }> = [];
  const changed = await db.transaction(async (tx) => {
    if (nonce !== undefined) await acceptNonce(tx, nonce);
    const [row] = await tx
      .select()
      .from(orders)
      .where(eq(orders.key, orderKeyOfTrade(transaction.outTradeNo)))
      .for('update');
    if (!row) return null;

    if (transaction.tradeState === 'SUCCESS') {
      if (!transaction.transactionId) return null;
      const appliesToOrder = payable.includes(row.state) && transaction.total === row.price;
      const recorded = await tx
        .insert(payments)
        .values({
          orderId: row.id,
          method: transaction.method,
          reference: transaction.transactionId,
          amount: transaction.total,
          disposition: appliesToOrder || row.userId === null ? 'applied' : 'toWallet',
        })
        .onConflictDoNothing()
        .returning({ id: payments.id });
      if (recorded.length === 0) return null;
      if (appliesToOrder) {
        outcomes.push({ outcome: 'paid', method: transaction.method });
        return paid(tx, row, 'provider', transaction.method);
      }
      // Paid already (by another method, or twice), or closed before the money came: the money goes to the wallet.
      if (row.userId === null) return note(tx, row, 'provider', 'paymentForDeletedAccount');
      const late = row.state === 'closed' || row.state === 'failed';
      await changeBalance(tx, row.userId, transaction.total, late ? 'latePayment' : 'duplicatePayment', row.id);
      return note(tx, row, 'provider', late ? 'latePayment' : 'duplicatePayment', late ? {} : { outcome: 'paidByOther' });
    }
    if (!payable.includes(row.state)) return null;
    let ended: OrderRow;
    if (transaction.tradeState === 'PAYERROR') ended = await advance(tx, row, 'failed', 'provider', 'paymentFailed', { outcome: 'failed' });
    else if (transaction.tradeState === 'CLOSED' || transaction.tradeState === 'REVOKED')
      ended = await advance(tx, row, 'closed', 'provider', 'closedByProvider', { outcome: 'timeout' });
    else return null;
    await periodFailed(tx, jobs, ended);
    outcomes.push({ outcome: ended.state === 'failed' ? 'failed' : 'closed', method: ended.method });
    return ended;
  });
  for (const { outcome, method } of outcomes) settled(outcome, method);
  return changed;
}

/**
 * Closes a payable order (a customer's cancel, or expiry). A scan-to-pay
 * transaction is closed at the provider first; if the customer paid in the
 * meantime, the payment is applied instead and the order stays paid.
 */
export async function closeOrder(
  context: PayContext,
  key: string,
  why: { outcome: PayOutcome; source: Source; note: string; userId?: number },
): Promise<OrderRow[]> {
  const current = await findOrder(context.db, key, why.userId);
  refuseUnpayable(current);
  const changed = await closeAtProvider(context, current);
  const closed = await context.db.transaction(async (tx) => {
    const row = await lockOrder(tx, key);
    if (!payable.includes(row.state)) return null;
    const ended = await advance(tx, row, 'closed', why.source, why.note, { outcome: why.outcome });
    await periodFailed(tx, context.jobs, ended);
    return ended;
  });
  if (!closed) return changed;
  context.settled('closed', closed.method);
  return [...changed, closed];
}

/** The transactions the order started at each provider (scan-to-pay, on the phone), as its timeline records them. */
async function startedTrades(db: Database, row: OrderRow): Promise<Array<{ method: ProviderMethod; outTradeNo: string }>> {
  const ways = Object.entries(startedNotes).flatMap(([method, notes]) => [
    { method: method as ProviderMethod, note: notes.scan, outTradeNo: row.key },
    { method: method as ProviderMethod, note: notes.phone, outTradeNo: phoneTradeNo(row.key) },
  ]);
  const found = await db
    .selectDistinct({ note: orderEvents.note })
    .from(orderEvents)
    .where(
      and(
        eq(orderEvents.orderId, row.id),
        inArray(
          orderEvents.note,
          ways.map((way) => way.note),
        ),
      ),
    );
  return ways.filter((way) => found.some((event) => event.note === way.note));
}

/**
 * Closes the order's transactions at the providers it started them at,
 * scan-to-pay and on the phone. If the customer paid meanwhile, the payment
 * is applied (to the order, or to the wallet when the order is settled
 * already); answers what that changed.
 */
export async function closeAtProvider(context: PayContext, row: OrderRow): Promise<OrderRow[]> {
  const changed: OrderRow[] = [];
  for (const { method, outTradeNo } of await startedTrades(context.db, row)) {
    const provider = requireProvider(context.provider(method));
    try {
      await provider.close(outTradeNo);
    } catch (error) {
      if (!(error instanceof AlreadyPaidError)) throw error;
      const transaction = await provider.query(outTradeNo);
      const applied = transaction && (await applyTransaction(context, transaction));
      if (applied) changed.push(applied);
    }
  }
  return changed;
}

/** What the provider's payment is for, in its records and the customer's payment app. */
const descriptionOf = (item: OrderItem) =>
  item.Kind === 'membership'
    ? `Beacon Toolkit cloud idling, ${item.Months} month(s)`
    : `Steam wallet ${((item.Amount ?? 0) / 100).toFixed(2)} ${item.Currency}`;

/**
 * Starts (or shows again) the order's scan-to-pay transaction at the provider
 * — for the first period of an auto-renewal, the WeChat Pay contract to sign —
 * and answers the order, now paying, with the code, and whether that changed
 * it (showing the same code again does not).
 */
export async function startScanPay(
  context: PayContext,
  userId: number,
  key: string,
  method: ProviderMethod,
  notifyUrl: string,
): Promise<{ row: OrderRow; changed: boolean }> {
  const { db } = context;
  const order = await findOrder(db, key, userId);
  refuseUnpayable(order);
  if (order.agreement && method !== 'wechatpay') throw new ApiError(ErrorCode.PayMethodUnsupported, 'payMethodUnsupported');
  const codeUrl = order.agreement
    ? await signingCode(db, requireProvider(context.contracts()), order, notifyUrl)
    : await requireProvider(context.provider(method)).createNative({
        outTradeNo: order.key,
        description: descriptionOf(order.item),
        total: order.price,
        expiresAt: order.expiresAt,
        notifyUrl,
      });
  for (;;) {
    const row = await startPaying(db, key, userId, startedNotes[method].scan, { method, codeUrl });
    if (row) return { row, changed: true };
    // Not moved: paid or closed meanwhile, or showing this very code already (else it changed again since: try again).
    const current = await findOrder(db, key, userId);
    refuseUnpayable(current);
    if (current.state === 'paying' && current.method === method && current.codeUrl === codeUrl) return { row: current, changed: false };
  }
}

/**
 * Starts the order's payment in the provider's app on the phone whose
 * browser asks (`payerClientIp`), and answers the order, now paying, whether
 * that changed it, and the address to open. An auto-renewal is signed by
 * scanning, so it has none.
 */
export async function startPhonePay(
  context: PayContext,
  userId: number,
  key: string,
  method: ProviderMethod,
  way: { notifyUrl: string; payerClientIp: string; returnUrl: string },
): Promise<{ row: OrderRow; changed: boolean; payUrl: string }> {
  const { db } = context;
  const order = await findOrder(db, key, userId);
  refuseUnpayable(order);
  if (order.agreement) throw new ApiError(ErrorCode.PayMethodUnsupported, 'payMethodUnsupported');
  const payUrl = await requireProvider(context.provider(method)).createPhone({
    outTradeNo: phoneTradeNo(order.key),
    description: descriptionOf(order.item),
    total: order.price,
    expiresAt: order.expiresAt,
    ...way,
  });
  return db.transaction(async (tx) => {
    const row = await lockOrder(tx, key, userId);
    refuseUnpayable(row);
    const note = startedNotes[method].phone;
    const [before] = await tx
      .select({ id: orderEvents.id })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, row.id), eq(orderEvents.note, note)))
      .limit(1);
    // Its timeline names every transaction started (closing the order closes them): once is enough while the method stays.
    if (row.state === 'paying' && row.method === method && before) return { row, changed: false, payUrl };
    return { row: await advance(tx, row, 'paying', 'customer', note, { method }), changed: true, payUrl };
  });
}

/** The expiry job of one order: closes it if it is still unpaid. A provider that cannot be asked now throws, and the job is tried again. */
export async function closeExpiredOrder(context: PayContext, key: string): Promise<OrderRow[]> {
  try {
    return await closeOrder(context, key, { outcome: 'timeout', source: 'system', note: 'expired' });
  } catch (error) {
    if (error instanceof ApiError) return []; // paid, closed or gone meanwhile
    throw error;
  }
}

/** An operator delivered a paid Steam recharge. */
export async function fulfilOrder(db: Database, actor: Actor, key: string): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const row = await lockOrder(tx, key);
    if (row.state !== 'paid') throw new ApiError(ErrorCode.OrderClosed, 'orderNotFulfillable');
    await recordAudit(tx, actor, { action: 'order fulfil', target: `order ${key}`, before: { state: row.state }, after: { state: 'fulfilled' } });
    return advance(tx, row, 'fulfilled', 'operator', 'rechargeDelivered');
  });
}
