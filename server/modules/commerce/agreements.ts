/**
 * Auto-renewal agreements (contract/agreements.ts) over the provider's entrusted
 * payments. An agreement starts pending with the order of its first period;
 * paying that order means scanning a code that signs the contract, after which
 * the period is charged under it. When a period ends, the renewal job charges
 * the next one; a charge that fails is tried again `autoRenew.retryAttempts`
 * times over `autoRenew.retryWindow` before the agreement lapses. Every
 * change holds the agreement's row lock, and the notices it causes are queued
 * in the same transaction, so each goes out once and only if the change holds.
 */
import { and, asc, desc, eq, inArray, lte, notExists, sql } from 'drizzle-orm';
import type { Agreement } from '#contract/agreements.ts';
import type { Order } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { facts, formatPrice, periodMs } from '#contract/facts.ts';
import { formattingTag, type LocaleCode } from '#contract/locales.ts';
import { inTransaction, type Jobs } from '../../db/jobs.ts';
import type { Database, Transaction as Tx } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { agreements, memberships, orders, products } from '../../db/schema/commerce.ts';
import { users } from '../../db/schema/identity.ts';
import { ApiError } from '../../http/api-error.ts';
import { messageKinds, type OutgoingMessage } from '../../messages/kinds.ts';
import { AlreadySignedError, ChargeRefused, type Contract, type WechatPayProvider } from '../../services/wechatpay-adapter.ts';
import { membershipItem } from './catalogue.ts';
import { acceptNonce } from './nonces.ts';
import { advance, insertOrder, lockOrder, newOrderKey, note, payable, toOrder, type OrderRow } from './orders.ts';
import type { PayContext } from './pay-context.ts';

export type AgreementRow = typeof agreements.$inferSelect;

/** The renewal job, every minute: reminds of charges coming and charges the periods that are due. */
export const renewalsJob = 'agreement-renewals';
/** A notice to an agreement's owner (an `AgreementNotice`), sent by SMS, or by e-mail to an account without a phone. */
export const agreementNoticeJob = 'agreement-notice';
/** Ends a contract at the provider after its agreement ended here. */
export const contractEndJob = 'agreement-contract-end';

export type NoticeKind = 'renewalReminder' | 'renewalFailed' | 'renewalLapsed';

export interface AgreementNotice {
  userId: number;
  locale: LocaleCode;
  kind: NoticeKind;
  /** The charge's amount in fen, and the date it concerns (the coming charge or the next try). */
  price: number;
  at: string | null;
}

/** A notice as the message sent to `to`, in the language the agreement was made in. */
export function noticeMessage(notice: AgreementNotice, to: string): OutgoingMessage {
  const date = notice.at ? new Intl.DateTimeFormat(formattingTag(notice.locale), { dateStyle: 'long' }).format(new Date(notice.at)) : '';
  const values: Record<string, string> = { price: formatPrice(notice.price, notice.locale), date };
  const params = Object.fromEntries(messageKinds[notice.kind].params.map((name) => [name, values[name]]));
  return { to, kind: notice.kind, params, locale: notice.locale } as OutgoingMessage;
}

const retryAfterMs = periodMs(facts.autoRenew.retryWindow) / facts.autoRenew.retryAttempts;
const reminderBeforeMs = periodMs(facts.autoRenew.reminderBefore);

export function toAgreement(row: AgreementRow): Agreement {
  return {
    Key: row.key,
    State: row.state,
    Product: row.product,
    Months: row.months,
    Price: row.price,
    CreatedAt: row.createdAt.toISOString(),
    SignedAt: row.signedAt?.toISOString() ?? null,
    NextChargeAt: row.state === 'active' ? (row.nextChargeAt?.toISOString() ?? null) : null,
    FailedCharges: row.failedCharges,
    EndedAt: row.endedAt?.toISOString() ?? null,
  };
}

export async function listAgreements(db: Database, userId: number): Promise<Agreement[]> {
  const rows = await db.select().from(agreements).where(eq(agreements.userId, userId)).orderBy(desc(agreements.id));
  return rows.map(toAgreement);
}

async function lockAgreement(tx: Tx, key: string, userId?: number): Promise<AgreementRow> {
  const [row] = await tx
    .select()
    .from(agreements)
    .where(userId === undefined ? eq(agreements.key, key) : and(eq(agreements.key, key), eq(agreements.userId, userId)))
    .for('update');
  if (!row) throw new ApiError(ErrorCode.NotFound, 'agreementNotFound');
  return row;
}

const notify = (tx: Tx, jobs: Jobs, row: AgreementRow, kind: NoticeKind, at: Date | null) =>
  jobs.send(agreementNoticeJob, { userId: row.userId, locale: row.locale, kind, price: row.price, at: at?.toISOString() ?? null }, inTransaction(tx));

const endContract = (tx: Tx, jobs: Jobs, row: AgreementRow) => jobs.send(contractEndJob, { plan: row.plan, key: row.key }, inTransaction(tx));

/**
 * A new agreement for a membership that renews automatically, pending, with
 * the order of its first period. One still pending is replaced; one signed
 * already is "user already signed".
 */
export async function startAgreement(
  db: Database,
  jobs: Jobs,
  userId: number,
  productCode: string,
  locale: LocaleCode,
): Promise<{ agreement: AgreementRow; order: OrderRow }> {
  const [product] = await db
    .select()
    .from(products)
    .where(and(eq(products.code, productCode), eq(products.active, true), eq(products.kind, 'membership')));
  if (!product?.months || product.price === null || product.renewalPlan === null) throw new ApiError(ErrorCode.ProductUnavailable, 'productUnavailable');
  const { months, price, renewalPlan } = product;
  try {
    return await db.transaction(async (tx) => {
      const live = await tx
        .select()
        .from(agreements)
        .where(and(eq(agreements.userId, userId), inArray(agreements.state, ['pending', 'active'])))
        .for('update');
      if (live.some((row) => row.state === 'active')) throw new ApiError(ErrorCode.UserSigned, 'userSigned');
      if (live.length > 0)
        await tx
          .update(agreements)
          .set({ state: 'canceled', endedAt: sql`now()` })
          .where(eq(agreements.id, live[0].id));
      const [agreement] = await tx
        .insert(agreements)
        .values({ key: `A${newOrderKey()}`, userId, product: product.code, plan: renewalPlan, months, price, locale, state: 'pending' })
        .returning();
      const order = await insertOrder(tx, { userId, product: product.code, item: membershipItem(product.code, months), price, agreement: agreement.key });
      return { agreement, order };
    });
  } catch (error) {
    // Two started at once: the one-live-agreement index lets one through.
    if (isUniqueViolation(error)) throw new ApiError(ErrorCode.UserSigned, 'userSigned');
    throw error;
  }
}

/** The code the customer scans to sign the agreement of an order's first period. */
export async function signingCode(db: Database, provider: WechatPayProvider, order: OrderRow, notifyUrl: string): Promise<string> {
  const [agreement] = await db.select().from(agreements).where(eq(agreements.key, order.agreement!));
  if (agreement?.state === 'active') throw new ApiError(ErrorCode.AgreementSigned, 'agreementSigned');
  if (agreement?.state !== 'pending') throw new ApiError(ErrorCode.OrderClosed, 'orderClosed');
  const [user] = await db.select({ nickname: users.nickname }).from(users).where(eq(users.id, agreement.userId));
  try {
    return await provider.signContract({
      planId: agreement.plan,
      contractCode: agreement.key,
      displayAccount: user?.nickname ?? String(agreement.userId),
      userCode: String(agreement.userId),
      notifyUrl,
    });
  } catch (error) {
    if (error instanceof AlreadySignedError) {
      throw error.which === 'agreement' ? new ApiError(ErrorCode.AgreementSigned, 'agreementSigned') : new ApiError(ErrorCode.UserSigned, 'userSigned');
    }
    throw error;
  }
}

/**
 * Applies what the provider reports about a contract. Signed: the agreement
 * becomes active and answers the order of its first period, to charge now.
 * Ended in the payment app: the agreement ends. Signed after the customer
 * gave up on it here: the contract is ended at the provider.
 */
export async function applyContract(
  db: Database,
  jobs: Jobs,
  contract: Contract,
  nonce: string,
): Promise<{ charge: OrderRow; agreement: AgreementRow } | null> {
  return db.transaction(async (tx) => {
    await acceptNonce(tx, nonce);
    const [row] = await tx.select().from(agreements).where(eq(agreements.key, contract.contractCode)).for('update');
    if (!row) return null;
    if (contract.state === 'TERMINATED') {
      if (row.state === 'active' || row.state === 'pending') {
        await tx
          .update(agreements)
          .set({ state: 'canceled', endedAt: sql`now()` })
          .where(eq(agreements.id, row.id));
      }
      return null;
    }
    if (row.state !== 'pending') {
      if (row.state !== 'active') await endContract(tx, jobs, row);
      return null;
    }
    const [agreement] = await tx
      .update(agreements)
      .set({ state: 'active', contractId: contract.contractId, signedAt: sql`now()` })
      .where(eq(agreements.id, row.id))
      .returning();
    const [first] = await tx
      .select()
      .from(orders)
      // Still created when the customer signed before the code's order was saved as paying.
      .where(and(eq(orders.agreement, row.key), inArray(orders.state, [...payable])))
      .orderBy(asc(orders.id))
      .limit(1)
      .for('update');
    if (!first) return null;
    return { charge: await note(tx, first, 'provider', 'agreementSigned'), agreement };
  });
}

/**
 * Asks the provider for a period's payment; its outcome comes as a notification. A refusal is a failed charge. No
 * answer (or a 5xx) says nothing either way: it throws, and the order stays paying until its notification comes or
 * its expiry closes it at the provider. Only then is the period charged again, so it is never charged twice.
 */
export async function chargePeriod(
  { db, jobs, settled }: PayContext,
  provider: WechatPayProvider,
  agreement: AgreementRow,
  order: OrderRow,
  notifyUrl: string,
): Promise<OrderRow | null> {
  try {
    await provider.chargeContract({
      outTradeNo: order.key,
      contractId: agreement.contractId!,
      description: `Beacon Toolkit cloud idling, ${agreement.months} month(s), auto-renewal`,
      total: order.price,
      notifyUrl,
    });
    return null;
  } catch (error) {
    if (!(error instanceof ChargeRefused)) throw error;
    const failed = await db.transaction(async (tx) => {
      const row = await lockOrder(tx, order.key);
      if (!payable.includes(row.state)) return null;
      const failed = await advance(tx, row, 'failed', 'provider', 'chargeRefused', { outcome: 'failed' });
      await periodFailed(tx, jobs, failed);
      return failed;
    });
    if (failed) settled('failed', failed.method);
    return failed;
  }
}

/** A period's order was paid: the agreement is next charged when the membership it extended ends. */
export async function periodPaid(tx: Tx, order: OrderRow): Promise<void> {
  if (!order.agreement || order.userId === null) return;
  const [membership] = await tx.select({ until: memberships.until }).from(memberships).where(eq(memberships.userId, order.userId));
  await tx
    .update(agreements)
    .set({ failedCharges: 0, nextChargeAt: membership.until })
    .where(and(eq(agreements.key, order.agreement), eq(agreements.state, 'active')));
}

/**
 * A period's order failed or closed unpaid. A first period that fails ends
 * the agreement (the customer sees it fail and can start again); a renewal is
 * tried again later, and after the last try the agreement lapses.
 */
export async function periodFailed(tx: Tx, jobs: Jobs, order: OrderRow): Promise<void> {
  if (!order.agreement) return;
  const row = await lockAgreement(tx, order.agreement);
  if (row.state === 'pending') {
    await tx
      .update(agreements)
      .set({ state: 'canceled', endedAt: sql`now()` })
      .where(eq(agreements.id, row.id));
    return;
  }
  if (row.state !== 'active') return;
  const failedCharges = row.failedCharges + 1;
  if (row.nextChargeAt === null || failedCharges > facts.autoRenew.retryAttempts) {
    await tx
      .update(agreements)
      .set({ state: 'lapsed', failedCharges, nextChargeAt: null, endedAt: sql`now()` })
      .where(eq(agreements.id, row.id));
    await endContract(tx, jobs, row);
    if (row.nextChargeAt !== null) await notify(tx, jobs, row, 'renewalLapsed', null);
    return;
  }
  const retryAt = new Date(Date.now() + retryAfterMs);
  await tx.update(agreements).set({ failedCharges, nextChargeAt: retryAt }).where(eq(agreements.id, row.id));
  await notify(tx, jobs, row, 'renewalFailed', retryAt);
}

/**
 * The customer ends an agreement: the contract is ended at the provider first
 * (so nothing more can be charged), then here. A pending one just ends: its
 * first period's order can no longer be paid, and closes when its window passes.
 */
export async function cancelAgreement(db: Database, provider: () => WechatPayProvider | null, userId: number, key: string): Promise<AgreementRow> {
  const [current] = await db
    .select()
    .from(agreements)
    .where(and(eq(agreements.key, key), eq(agreements.userId, userId)));
  if (!current) throw new ApiError(ErrorCode.NotFound, 'agreementNotFound');
  if (current.state === 'active') {
    const reached = provider();
    if (!reached) throw new ApiError(ErrorCode.PaymentProviderFailed, 'paymentProviderFailed');
    await reached.terminateContract(current.plan, current.key);
  }
  return db.transaction(async (tx) => {
    const row = await lockAgreement(tx, key, userId);
    if (row.state !== 'active' && row.state !== 'pending') return row;
    const [ended] = await tx
      .update(agreements)
      .set({ state: 'canceled', nextChargeAt: null, endedAt: sql`now()` })
      .where(eq(agreements.id, row.id))
      .returning();
    return ended;
  });
}

/** The user's agreements that have not ended (active, or pending their first payment). */
async function openAgreementKeys(db: Database, userId: number): Promise<string[]> {
  const rows = await db
    .select({ key: agreements.key })
    .from(agreements)
    .where(and(eq(agreements.userId, userId), inArray(agreements.state, ['active', 'pending'])));
  return rows.map((row) => row.key);
}

export async function openAgreementCount(db: Database, userId: number): Promise<number> {
  return (await openAgreementKeys(db, userId)).length;
}

/** Ends every agreement of a user as the customer would, one by one: the contracts at the provider first (before the account is deleted). */
export async function cancelAllAgreements(db: Database, provider: () => WechatPayProvider | null, userId: number): Promise<void> {
  for (const key of await openAgreementKeys(db, userId)) await cancelAgreement(db, provider, userId, key);
}

/** Reminds, once per charge, of the charges due within `autoRenew.reminderBefore`. */
export async function remindOfCharges(db: Database, jobs: Jobs): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .update(agreements)
      .set({ remindedFor: agreements.nextChargeAt })
      .where(
        and(
          eq(agreements.state, 'active'),
          eq(agreements.failedCharges, 0),
          lte(agreements.nextChargeAt, new Date(Date.now() + reminderBeforeMs)),
          sql`${agreements.remindedFor} is distinct from ${agreements.nextChargeAt}`,
        ),
      )
      .returning();
    for (const row of due) await notify(tx, jobs, row, 'renewalReminder', row.nextChargeAt);
    return due.length;
  });
}

/**
 * Starts the charge of each agreement that is due: its order is made and the
 * next charge moved past the order's pay window in one transaction (skipping
 * agreements another instance holds), then the provider is asked. If the
 * process stops in between, or the provider does not answer (which ends this
 * run), the order closes unpaid at its expiry and counts as a failed charge,
 * to be tried again.
 */
export async function chargeDueAgreements(
  context: PayContext,
  provider: WechatPayProvider,
  notifyUrl: string,
  announce: (row: OrderRow) => void,
): Promise<Order[]> {
  const { db } = context;
  const started: Order[] = [];
  for (;;) {
    const next = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(agreements)
        .where(
          and(
            eq(agreements.state, 'active'),
            lte(agreements.nextChargeAt, sql`now()`),
            // A period's order still open past its window is closed first (a timer or the minute's sweep, expiry.ts), which
            // counts the failed charge and moves the next one: never a second order for a period whose first may still be paid.
            notExists(
              tx
                .select({ open: sql`1` })
                .from(orders)
                .where(and(eq(orders.agreement, agreements.key), inArray(orders.state, payable))),
            ),
          ),
        )
        .orderBy(asc(agreements.nextChargeAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return null;
      const created = await insertOrder(tx, {
        userId: row.userId,
        product: row.product,
        item: membershipItem(row.product, row.months),
        price: row.price,
        agreement: row.key,
        source: 'system',
      });
      const order = await advance(tx, created, 'paying', 'system', 'renewalCharged', { method: 'wechatpay' });
      await tx.update(agreements).set({ nextChargeAt: order.expiresAt }).where(eq(agreements.id, row.id));
      return { agreement: row, order };
    });
    if (!next) return started;
    started.push(toOrder(next.order));
    const failed = await chargePeriod(context, provider, next.agreement, next.order, notifyUrl);
    if (failed) announce(failed);
  }
}
