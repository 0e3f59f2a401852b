/**
 * Refunds (table `refunds`): an operator gives a paid order's money back,
 * whole or in part, to the customer's wallet or to the payment it came from.
 *
 * - To the wallet, it is settled in one transaction: the refund row, the
 *   wallet's ledger row, the order's timeline event and the audit line.
 * - To the original payment, the refund row (pending), its timeline event and
 *   audit line are written first; then the provider that was paid (WeChat
 *   Pay, Alipay) is asked, with the refund number as its refund's number
 *   (`out_refund_no`, `out_request_no`), so asking again can never refund twice. Its
 *   answer, its refund notification, or the check that asks it about refunds
 *   pending for over a minute settles the refund — once, whichever comes first.
 *   A refund it reports ABNORMAL (the money could not reach the payer's
 *   account) stays `abnormal`: still reserved, listed as needing attention,
 *   until an operator resolves it (`refund resolve`).
 *
 * The order's row lock makes every refund of an order wait for the one
 * before, so what is refunded or pending never exceeds the price. The order
 * becomes `refunded` once refunds that succeeded add up to all of it.
 *
 * A support user's refunds have two limits (settings): what one order's
 * refunds may come to with theirs, and what theirs may come to in 24 hours.
 * A lock per support user, taken before the order's, makes their refunds wait
 * for each other, so two at once on two orders cannot both pass the day's.
 */
import { and, asc, count, eq, gt, inArray, lt, ne, sql, sum } from 'drizzle-orm';
import type { RefundEntry } from '#contract/admin.ts';
import { ErrorCode } from '#contract/errors.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { memberships, orders, payments, refunds } from '../../db/schema/commerce.ts';
import { ApiError } from '../../http/api-error.ts';
import { providerMethods, RefundRefused, type ProviderMethod, type RefundStatus } from '../../services/payment-provider.ts';
import { acceptNonce } from './nonces.ts';
import { advance, lockOrder, note, type OrderRow, type Source } from './orders.ts';
import type { PayContext } from './pay-context.ts';
import { changeBalance } from './wallet.ts';

type RefundRow = typeof refunds.$inferSelect;

/** What refunding needs of paying's context: no job queue, so the CLI can refund without a server. */
type RefundContext = Pick<PayContext, 'db' | 'provider' | 'settled'>;

/** The queue of the check that asks the provider about refunds still pending (every minute). */
export const refundCheckJob = 'refund-check';
/** How long a refund may be pending before the check asks: the provider settles most within seconds, and notifies. */
const askAfterMs = 60_000;

export interface RefundRequest {
  key: string;
  /** Fen; null: all that is left to refund. */
  amount: number | null;
  /** Where the money goes; an order paid from the wallet goes back to it either way. */
  to: 'wallet' | 'original';
}

/** A support user's refund limits (fen): what one order's refunds may come to with theirs, and what theirs may come to in 24 hours. */
export interface RefundLimits {
  perOrder: number;
  perDay: number;
}

export interface Refunded {
  order: OrderRow;
  refund: RefundRow;
}

const notRefundable = () => new ApiError(ErrorCode.OrderClosed, 'orderNotRefundable');

export function refundEntry(row: RefundRow): RefundEntry {
  return {
    refundNo: row.refundNo,
    amount: row.amount,
    to: row.destination,
    state: row.state,
    actor: row.actor,
    at: row.createdAt.toISOString(),
    settledAt: row.settledAt?.toISOString() ?? null,
  };
}

export async function refundsOf(db: Database, orderId: number): Promise<RefundEntry[]> {
  return (await db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(refunds.id)).map(refundEntry);
}

/** What the order's refunds add up to: all but the failed ones (the abnormal ones stay reserved), or only the succeeded ones. */
export async function refundedSoFar(tx: Database | Transaction, orderId: number, only: 'notFailed' | 'succeeded'): Promise<number> {
  const [row] = await tx
    .select({ total: sum(refunds.amount) })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), only === 'succeeded' ? eq(refunds.state, 'succeeded') : ne(refunds.state, 'failed')));
  return Number(row?.total ?? 0);
}

/**
 * Takes back a plan's share of the months its order added, as a refund of it
 * succeeds. The months are counted as the time they span from the order's day
 * (in UTC: twelve months from 1 March are 365 days), so each refund's share is
 * an exact number of seconds; the shares are taken as differences of what all
 * refunds so far took, so refunds of the whole price take back exactly the
 * months. The plan never ends before now; time the customer has from
 * elsewhere (another order, a cdkey) is left as it is.
 */
async function takeBackMonths(tx: Transaction, row: OrderRow, refunded: number, before: number): Promise<void> {
  if (row.item.Kind !== 'membership' || row.userId === null || row.state !== 'fulfilled') return;
  const start = sql`(${row.createdAt.toISOString()}::timestamptz at time zone 'UTC')`;
  const span = sql`extract(epoch from (${start} + make_interval(months => ${row.item.Months ?? 0})) - ${start})`;
  const takenBy = (fen: number) => sql`round(${span} * ${fen}::numeric / ${row.price}::numeric)`;
  await tx
    .update(memberships)
    .set({ until: sql`greatest(now(), ${memberships.until} - make_interval(secs => (${takenBy(refunded)} - ${takenBy(before)})::float8))` })
    .where(eq(memberships.userId, row.userId));
}

/**
 * After a refund succeeded: a plan's share of its months taken back, the
 * order's timeline, and once all its price is back, the order refunded.
 */
async function afterSuccess(tx: Transaction, row: OrderRow, refund: RefundRow, source: Source): Promise<OrderRow> {
  const back = await refundedSoFar(tx, row.id, 'succeeded');
  await takeBackMonths(tx, row, back, back - refund.amount);
  const toWallet = refund.destination === 'wallet';
  if (back < row.price) return note(tx, row, source, toWallet ? 'partlyRefundedToWallet' : 'partlyRefunded');
  return advance(tx, row, 'refunded', source, toWallet ? 'refundedToWallet' : 'refunded');
}

/**
 * A support user's limits, checked under their lock and the order's: the
 * order's refunds that did not fail (anyone's: the limit bounds what of one
 * order a support user's refund can bring back, whoever gave the rest) plus
 * this one, and their own refunds of the last 24 hours that did not fail plus
 * this one. The refusal names the limit and what is left of it.
 */
async function checkLimits(tx: Transaction, actor: Actor, limits: RefundLimits, reserved: number, amount: number): Promise<void> {
  if (reserved + amount > limits.perOrder)
    throw new ApiError(ErrorCode.RefundOverLimit, 'refundOverLimit', {
      limitFen: String(limits.perOrder),
      leftFen: String(Math.max(0, limits.perOrder - reserved)),
    });
  const [today] = await tx
    .select({ total: sum(refunds.amount) })
    .from(refunds)
    .where(and(eq(refunds.actorUserId, consoleUserOf(actor)), ne(refunds.state, 'failed'), gt(refunds.createdAt, sql`now() - interval '24 hours'`)));
  const spent = Number(today?.total ?? 0);
  if (spent + amount > limits.perDay)
    throw new ApiError(ErrorCode.RefundOverLimit, 'refundOverDailyLimit', {
      limitFen: String(limits.perDay),
      leftFen: String(Math.max(0, limits.perDay - spent)),
    });
}

/** The console user a limited refund is counted against: only a console user has a role with limits. */
function consoleUserOf(actor: Actor): number {
  if (actor.userId === null) throw new Error(`a refund with limits needs the console user who makes it (${actor.label})`);
  return actor.userId;
}

/**
 * Starts a refund: checks it under the order's lock and writes it. To the
 * wallet it is settled here; to the original payment it is pending, and the
 * caller asks the provider (`askProvider`).
 */
async function startRefund(
  context: RefundContext,
  actor: Actor,
  limits: RefundLimits | null,
  request: RefundRequest,
): Promise<Refunded & { paidWith: { method: ProviderMethod; transactionId: string } | null }> {
  return context.db.transaction(async (tx) => {
    // The support user's lock first, then the order's: every transaction that takes both takes them in this order.
    if (limits) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`refunds-of:${consoleUserOf(actor)}`}))`);
    const row = await lockOrder(tx, request.key);
    const method = row.method as ProviderMethod | 'wallet' | null;
    if ((row.state !== 'paid' && row.state !== 'fulfilled') || (method !== 'wallet' && !providerMethods.some((known) => known === method)))
      throw notRefundable();
    const reserved = await refundedSoFar(tx, row.id, 'notFailed');
    const left = row.price - reserved;
    const amount = request.amount ?? left;
    if (amount < 1 || amount > left) throw new ApiError(ErrorCode.RefundAmountInvalid, 'refundAmountInvalid', { leftFen: String(left) });
    if (limits) await checkLimits(tx, actor, limits, reserved, amount);
    const toWallet = request.to === 'wallet' || method === 'wallet';
    if (toWallet && row.userId === null) throw notRefundable();

    let paidWith: { method: ProviderMethod; transactionId: string } | null = null;
    if (!toWallet) {
      const provider = method as ProviderMethod;
      const [payment] = await tx
        .select({ reference: payments.reference })
        .from(payments)
        .where(and(eq(payments.orderId, row.id), eq(payments.method, provider), eq(payments.disposition, 'applied')));
      if (!payment) throw notRefundable();
      paidWith = { method: provider, transactionId: payment.reference };
    }

    const [{ made }] = await tx.select({ made: count() }).from(refunds).where(eq(refunds.orderId, row.id));
    const [refund] = await tx
      .insert(refunds)
      .values({
        refundNo: `${row.key}R${made + 1}`,
        orderId: row.id,
        amount,
        destination: toWallet ? 'wallet' : 'original',
        state: toWallet ? 'succeeded' : 'pending',
        actor: actor.label,
        actorUserId: actor.userId,
        settledAt: toWallet ? new Date() : null,
      })
      .returning();
    await recordAudit(tx, actor, {
      action: 'order refund',
      target: `order ${row.key}`,
      before: { state: row.state, refundable: left },
      after: { refund: refund.refundNo, amount, to: refund.destination },
    });
    if (paidWith) return { order: await note(tx, row, 'operator', 'refundRequested'), refund, paidWith };
    await changeBalance(tx, row.userId!, amount, 'refund', row.id);
    return { order: await afterSuccess(tx, row, refund, 'operator'), refund, paidWith: null };
  });
}

/**
 * Settles a pending refund as the provider reports it: succeeded, failed
 * (closed: nothing was refunded, the amount is free again), or abnormal (the
 * money left but could not reach the payer's account: it stays reserved until
 * an operator resolves it). A refund settled already, or abnormal, is left as
 * it is (a replayed notification, the check job after the notification, a
 * later word on an abnormal refund: the operator who handled it says how it
 * ended). Answers the order and refund as they are now, or null when nothing
 * changed.
 */
export async function settleRefund(tx: Transaction, refundNo: string, status: RefundStatus): Promise<Refunded | null> {
  if (status === 'PROCESSING') return null;
  const [pending] = await tx.select().from(refunds).where(eq(refunds.refundNo, refundNo)).for('update');
  if (!pending || pending.state !== 'pending') return null;
  const [row] = await tx.select().from(orders).where(eq(orders.id, pending.orderId)).for('update');
  const state = status === 'SUCCESS' ? 'succeeded' : status === 'ABNORMAL' ? 'abnormal' : 'failed';
  const [refund] = await tx
    .update(refunds)
    .set({ state, settledAt: state === 'abnormal' ? null : new Date() })
    .where(eq(refunds.id, pending.id))
    .returning();
  if (state === 'failed') return { order: await note(tx, row, 'provider', 'refundFailed'), refund };
  if (state === 'abnormal') return { order: await note(tx, row, 'provider', 'refundAbnormal'), refund };
  return { order: await afterSuccess(tx, row, refund, 'provider'), refund };
}

/** A refund notification: its nonce accepted and the refund settled in one transaction, so a replay changes nothing. */
export async function applyRefund(context: RefundContext, refund: { outRefundNo: string; status: RefundStatus }, nonce: string): Promise<Refunded | null> {
  return counted(
    context,
    await context.db.transaction(async (tx) => {
      await acceptNonce(tx, nonce);
      return settleRefund(tx, refund.outRefundNo, refund.status);
    }),
  );
}

/** Counts an order a refund just made refunded (the refund that completed it succeeded), once its transaction committed. */
export function counted<R extends Refunded | null>(context: RefundContext, done: R): R {
  if (done && done.refund.state === 'succeeded' && done.order.state === 'refunded') context.settled('refunded', done.order.method);
  return done;
}

/** Settles a refund in a transaction of its own (the provider's answer, the check job). */
export async function settleRefundNow(context: RefundContext, refundNo: string, status: RefundStatus): Promise<Refunded | null> {
  return counted(context, await context.db.transaction((tx) => settleRefund(tx, refundNo, status)));
}

/**
 * An operator's refund (`npm run admin -- order refund`, the console). To the
 * original payment, the provider's answer settles it at once when it can; a
 * refusal fails it (the amount is free to refund again); no answer leaves it
 * pending for the notification or the check job.
 */
export async function refund(
  context: RefundContext,
  notifyUrl: (method: ProviderMethod) => string,
  actor: Actor,
  limits: RefundLimits | null,
  request: RefundRequest,
): Promise<Refunded> {
  const started = await startRefund(context, actor, limits, request);
  if (started.paidWith === null) return counted(context, started);
  const { method, transactionId } = started.paidWith;
  const provider = context.provider(method);
  if (!provider) return started;
  let status: RefundStatus;
  try {
    status = await provider.refund({
      transactionId,
      outRefundNo: started.refund.refundNo,
      amount: started.refund.amount,
      total: started.order.price,
      notifyUrl: notifyUrl(method),
    });
  } catch (error) {
    if (error instanceof RefundRefused) return (await settleRefundNow(context, started.refund.refundNo, 'CLOSED')) ?? started;
    return started;
  }
  return (await settleRefundNow(context, started.refund.refundNo, status)) ?? started;
}

/**
 * The check (every minute): asks the provider about each refund pending for
 * over a minute, and settles those it has an outcome for. One it has no
 * refund of never reached it, so nothing was refunded. Answers the refunds it
 * settled; the first failure to ask is thrown once the others are done.
 */
export async function checkPendingRefunds(context: RefundContext): Promise<Refunded[]> {
  // A pending refund gives back the order's payment that was applied: that provider is asked, by the refund's and the payment's numbers.
  const pending = await context.db
    .select({ refundNo: refunds.refundNo, method: payments.method, transactionId: payments.reference })
    .from(refunds)
    .innerJoin(payments, and(eq(payments.orderId, refunds.orderId), eq(payments.disposition, 'applied'), inArray(payments.method, [...providerMethods])))
    .where(and(eq(refunds.state, 'pending'), lt(refunds.createdAt, new Date(Date.now() - askAfterMs))))
    .orderBy(refunds.id)
    .limit(100);
  if (pending.length === 0) return [];
  const settled: Refunded[] = [];
  let failure: unknown = null;
  for (const { refundNo, method, transactionId } of pending) {
    try {
      const provider = context.provider(method as ProviderMethod);
      if (!provider) throw new Error(`no payment provider (${method}) to ask about pending refunds`);
      const status = await provider.queryRefund({ outRefundNo: refundNo, transactionId });
      const done = await settleRefundNow(context, refundNo, status ?? 'CLOSED');
      if (done) settled.push(done);
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure) throw failure;
  return settled;
}

/** How an operator says an abnormal refund ended: the money reached the customer another way, or it did not (its amount is free again). */
export type Resolution = 'succeeded' | 'failed';

/**
 * An operator resolves a refund the provider reported abnormal (`refund
 * resolve`): succeeded settles it as any success (timeline, a plan's months,
 * the order refunded once all is back); failed frees its amount. Once: a
 * refund that is not abnormal is refused. Audited in the same transaction.
 */
export async function resolveRefund(context: RefundContext, actor: Actor, refundNo: string, resolution: Resolution): Promise<Refunded> {
  return counted(
    context,
    await context.db.transaction(async (tx) => {
      // The refund's row, then the order's: as the provider's word settles one.
      const [abnormal] = await tx.select().from(refunds).where(eq(refunds.refundNo, refundNo)).for('update');
      if (!abnormal) throw new ApiError(ErrorCode.NotFound, 'refundNotFound', { refund: refundNo });
      if (abnormal.state !== 'abnormal') throw new ApiError(ErrorCode.RefundNotAbnormal, 'refundNotAbnormal');
      const [row] = await tx.select().from(orders).where(eq(orders.id, abnormal.orderId)).for('update');
      const [refund] = await tx.update(refunds).set({ state: resolution, settledAt: new Date() }).where(eq(refunds.id, abnormal.id)).returning();
      await recordAudit(tx, actor, {
        action: 'refund resolve',
        target: `order ${row.key}`,
        before: { refund: refundNo, state: abnormal.state, amount: abnormal.amount },
        after: { refund: refundNo, state: refund.state },
      });
      if (resolution === 'failed') return { order: await note(tx, row, 'operator', 'refundFailed'), refund };
      return { order: await afterSuccess(tx, row, refund, 'operator'), refund };
    }),
  );
}

/** The refunds that need an operator (abnormal), oldest first, each with its order's number. */
export async function refundsNeedingAttention(db: Database): Promise<Array<RefundEntry & { orderKey: string }>> {
  const rows = await db
    .select({ refund: refunds, orderKey: orders.key })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(eq(refunds.state, 'abnormal'))
    .orderBy(asc(refunds.id))
    .limit(100);
  return rows.map((row) => ({ ...refundEntry(row.refund), orderKey: row.orderKey }));
}
