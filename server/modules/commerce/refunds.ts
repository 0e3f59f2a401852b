/**
 * Refunds (table `refunds`): an operator gives a paid order's money back,
 * whole or in part, to the customer's wallet or to the payment it came from.
 *
 * - To the wallet, it is settled in one transaction: the refund row, the
 *   wallet's ledger row, the order's timeline event and the audit line.
 * - To the original payment, the refund row (pending), its timeline event and
 *   audit line are written first; then WeChat Pay is asked, with the refund
 *   number as `out_refund_no`, so asking again can never refund twice. Its
 *   answer, its refund notification, or the check that asks it about refunds
 *   pending for over a minute settles the refund — once, whichever comes first.
 *
 * The order's row lock makes every refund of an order wait for the one
 * before, so what is refunded or pending never exceeds the price. The order
 * becomes `refunded` once refunds that succeeded add up to all of it.
 */
import { and, count, eq, lt, ne, sql, sum } from 'drizzle-orm';
import type { RefundEntry } from '#contract/admin.ts';
import { ErrorCode } from '#contract/errors.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { memberships, orders, payments, refunds } from '../../db/schema/commerce.ts';
import { ApiError } from '../../http/api-error.ts';
import { RefundRefused, type RefundStatus } from '../../services/wechatpay-adapter.ts';
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

/** What the order's refunds add up to: all but the failed ones, or only the succeeded ones. */
async function refundedSoFar(tx: Transaction, orderId: number, only: 'notFailed' | 'succeeded'): Promise<number> {
  const [row] = await tx
    .select({ total: sum(refunds.amount) })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), only === 'succeeded' ? eq(refunds.state, 'succeeded') : ne(refunds.state, 'failed')));
  return Number(row?.total ?? 0);
}

/**
 * After a refund succeeded: the order's timeline, and once all its price is
 * back, the order refunded (a plan loses the months it added).
 */
async function afterSuccess(tx: Transaction, row: OrderRow, refund: RefundRow, source: Source): Promise<OrderRow> {
  const back = await refundedSoFar(tx, row.id, 'succeeded');
  const toWallet = refund.destination === 'wallet';
  if (back < row.price) return note(tx, row, source, toWallet ? 'partlyRefundedToWallet' : 'partlyRefunded');
  if (row.item.Kind === 'membership' && row.userId !== null && row.state === 'fulfilled') {
    await tx
      .update(memberships)
      .set({ until: sql`greatest(now(), ${memberships.until} - make_interval(months => ${row.item.Months ?? 0}))` })
      .where(eq(memberships.userId, row.userId));
  }
  return advance(tx, row, 'refunded', source, toWallet ? 'refundedToWallet' : 'refunded');
}

/**
 * Starts a refund: checks it under the order's lock and writes it. To the
 * wallet it is settled here; to the original payment it is pending, and the
 * caller asks the provider (`askProvider`).
 */
async function startRefund(
  context: RefundContext,
  actor: Actor,
  limit: number | null,
  request: RefundRequest,
): Promise<Refunded & { transactionId: string | null }> {
  return context.db.transaction(async (tx) => {
    const row = await lockOrder(tx, request.key);
    if ((row.state !== 'paid' && row.state !== 'fulfilled') || (row.method !== 'wallet' && row.method !== 'wechatpay')) throw notRefundable();
    const left = row.price - (await refundedSoFar(tx, row.id, 'notFailed'));
    const amount = request.amount ?? left;
    if (amount < 1 || amount > left) throw new ApiError(ErrorCode.RefundAmountInvalid, 'refundAmountInvalid', { leftFen: String(left) });
    if (limit !== null && amount > limit) throw new ApiError(ErrorCode.RefundOverLimit, 'refundOverLimit', { limitFen: String(limit) });
    const toWallet = request.to === 'wallet' || row.method === 'wallet';
    if (toWallet && row.userId === null) throw notRefundable();

    let transactionId: string | null = null;
    if (!toWallet) {
      const [payment] = await tx
        .select({ reference: payments.reference })
        .from(payments)
        .where(and(eq(payments.orderId, row.id), eq(payments.method, 'wechatpay'), eq(payments.disposition, 'applied')));
      if (!payment) throw notRefundable();
      transactionId = payment.reference;
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
        settledAt: toWallet ? new Date() : null,
      })
      .returning();
    await recordAudit(tx, actor, {
      action: 'order refund',
      target: `order ${row.key}`,
      before: { state: row.state, refundable: left },
      after: { refund: refund.refundNo, amount, to: refund.destination },
    });
    if (!toWallet) return { order: await note(tx, row, 'operator', 'refundRequested'), refund, transactionId };
    await changeBalance(tx, row.userId!, amount, 'refund', row.id);
    return { order: await afterSuccess(tx, row, refund, 'operator'), refund, transactionId: null };
  });
}

/**
 * Settles a pending refund as the provider reports it; a refund settled
 * already is left as it is (a replayed notification, the check job after the
 * notification). Answers the order and refund as they are now, or null when
 * nothing changed.
 */
export async function settleRefund(tx: Transaction, refundNo: string, status: RefundStatus): Promise<Refunded | null> {
  if (status === 'PROCESSING') return null;
  const [pending] = await tx.select().from(refunds).where(eq(refunds.refundNo, refundNo)).for('update');
  if (!pending || pending.state !== 'pending') return null;
  const [row] = await tx.select().from(orders).where(eq(orders.id, pending.orderId)).for('update');
  const [refund] = await tx
    .update(refunds)
    .set({ state: status === 'SUCCESS' ? 'succeeded' : 'failed', settledAt: new Date() })
    .where(eq(refunds.id, pending.id))
    .returning();
  if (refund.state === 'failed') return { order: await note(tx, row, 'provider', 'refundFailed'), refund };
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
export async function refund(context: RefundContext, notifyUrl: string, actor: Actor, limit: number | null, request: RefundRequest): Promise<Refunded> {
  const started = await startRefund(context, actor, limit, request);
  if (started.transactionId === null) return counted(context, started);
  const provider = context.provider();
  if (!provider) return started;
  let status: RefundStatus;
  try {
    status = await provider.refund({
      transactionId: started.transactionId,
      outRefundNo: started.refund.refundNo,
      amount: started.refund.amount,
      total: started.order.price,
      notifyUrl,
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
  const pending = await context.db
    .select({ refundNo: refunds.refundNo })
    .from(refunds)
    .where(and(eq(refunds.state, 'pending'), lt(refunds.createdAt, new Date(Date.now() - askAfterMs))))
    .orderBy(refunds.id)
    .limit(100);
  if (pending.length === 0) return [];
  const provider = context.provider();
  if (!provider) throw new Error('no payment provider to ask about pending refunds');
  const settled: Refunded[] = [];
  let failure: unknown = null;
  for (const { refundNo } of pending) {
    try {
      const status = await provider.queryRefund(refundNo);
      const done = await settleRefundNow(context, refundNo, status ?? 'CLOSED');
      if (done) settled.push(done);
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure) throw failure;
  return settled;
}
