/**
 * Orders and their timeline. An order's state changes only through `advance`,
 * inside a transaction that holds the order's row lock, and each change writes
 * its timeline event in that same transaction: an order can never be in two
 * states, nor change without a trace.
 */
import { randomInt } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import dayjs from 'dayjs';
import {
  orderPayWindowMs,
  type Order,
  type OrderDetail,
  type OrderHistory,
  type OrderItem,
  type OrderNotice,
  type OrderState,
  type PayMethod,
  type PayOutcome,
} from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { pageSize } from '#contract/paging.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { preparedOn } from '../../db/prepared.ts';
import { orderEvents, orders } from '../../db/schema/commerce.ts';
import { ApiError } from '../../http/api-error.ts';
import type { ProviderMethod } from '../../services/payment-provider.ts';

export type OrderRow = typeof orders.$inferSelect;
export type Source = 'customer' | 'provider' | 'wallet' | 'operator' | 'system';

/** States an order can still be paid in. */
export const payable: readonly OrderState[] = ['created', 'paying'];

/** The order number: the date, then twelve random digits (an agreement's key is the same behind an A). */
export function newOrderKey(): string {
  const random = Array.from({ length: 12 }, () => randomInt(10)).join('');
  return `${dayjs().format('YYYYMMDD')}${random}`;
}

export function toOrder(row: OrderRow): Order {
  return {
    Key: row.key,
    State: row.state,
    Outcome: (row.outcome as PayOutcome | null) ?? null,
    Item: row.item,
    Price: row.price,
    Method: (row.method as Order['Method']) ?? null,
    CreatedAt: row.createdAt.toISOString(),
    ExpiresAt: row.expiresAt.toISOString(),
    Agreement: row.agreement,
  };
}

/** What the hub pushes to the owner's open pages about an order. */
export function orderNotice(row: OrderRow): OrderNotice {
  return { Key: row.key, State: row.state, Outcome: toOrder(row).Outcome };
}

const orderByKey = preparedOn((db) =>
  db
    .select()
    .from(orders)
    .where(eq(orders.key, sql.placeholder('key')))
    .prepare('order_by_key'),
);
const usersOrderByKey = preparedOn((db) =>
  db
    .select()
    .from(orders)
    .where(and(eq(orders.key, sql.placeholder('key')), eq(orders.userId, sql.placeholder('userId'))))
    .prepare('users_order_by_key'),
);

/** The user's order by its number (unlocked); another user's order is as unknown as a missing one. */
export async function findOrder(db: Database, key: string, userId?: number): Promise<OrderRow> {
  const [row] = userId === undefined ? await orderByKey(db).execute({ key }) : await usersOrderByKey(db).execute({ key, userId });
  if (!row) throw new ApiError(ErrorCode.NotFound, 'orderNotFound');
  return row;
}

export interface NewOrderRow {
  /** Null for an order made in the desktop client, until a /bindorder link gives it an account. */
  userId: number | null;
  product: string;
  item: OrderItem;
  price: number;
  /** The auto-renewal agreement whose period it pays. */
  agreement?: string;
  source?: Source;
  /** The first timeline event's note. */
  note?: string;
}

/**
 * Makes an order with its first timeline event, in one statement (the event's insert reads the new
 * row from the CTE). A number that is taken already is drawn again. Its pay window's end is closed by
 * the caller's `OrderTimers` or, at the latest, by the minute's sweep (expiry.ts).
 */
export async function insertOrder(db: Database | Transaction, order: NewOrderRow): Promise<OrderRow> {
  const { source = 'customer', note = 'created', ...values } = order;
  for (let attempt = 0; ; attempt++) {
    const inserted = db.$with('inserted').as(
      db
        .insert(orders)
        .values({ ...values, key: newOrderKey(), state: 'created', expiresAt: new Date(Date.now() + orderPayWindowMs) })
        // A number drawn twice inserts nothing, rather than failing (and aborting a transaction it is part of).
        .onConflictDoNothing({ target: orders.key })
        .returning(),
    );
    const event = db
      .$with('event', {})
      .as(sql`insert into ${orderEvents} (order_id, state, source, note) select id, 'created', ${source}, ${note} from ${inserted}`);
    const [row] = await db.with(inserted, event).select().from(inserted);
    if (row) return row;
    if (attempt >= 2) throw new Error('three order numbers drawn in a row were taken');
  }
}

/** The user's order by its number, locked for the rest of the transaction; another user's order is as unknown as a missing one. */
export async function lockOrder(tx: Transaction, key: string, userId?: number): Promise<OrderRow> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(userId === undefined ? eq(orders.key, key) : and(eq(orders.key, key), eq(orders.userId, userId)))
    .for('update');
  if (!row) throw new ApiError(ErrorCode.NotFound, 'orderNotFound');
  return row;
}

/** One step on an order's timeline: the state it reached, who moved it there, and why. */
export interface Step {
  state: OrderState;
  source: Source;
  note: string;
}

type OrderChanges = Partial<Pick<OrderRow, 'outcome' | 'method' | 'codeUrl'>>;

/** Moves a locked order through `steps` to the last one's state, with a timeline event for each: one statement however many steps. */
export async function advanceThrough(tx: Transaction, row: OrderRow, steps: [Step, ...Step[]], changes: OrderChanges = {}): Promise<OrderRow> {
  const events = tx.$with('events').as(tx.insert(orderEvents).values(steps.map((step) => ({ orderId: row.id, ...step }))));
  const [updated] = await tx
    .with(events)
    .update(orders)
    .set({ state: steps[steps.length - 1].state, ...changes })
    .where(eq(orders.id, row.id))
    .returning();
  return updated;
}

/** Moves a locked order to `state`, with its timeline event. */
export function advance(tx: Transaction, row: OrderRow, state: OrderState, source: Source, note: string, changes: OrderChanges = {}): Promise<OrderRow> {
  return advanceThrough(tx, row, [{ state, source, note }], changes);
}

/**
 * Moves the user's order to paying by `method` with the provider's `codeUrl`, with its timeline
 * event, in one statement that locks the row while it runs: no transaction around a read, the lock
 * and the write. Null when the order is not the user's, not payable, or paying so already.
 */
export async function startPaying(
  db: Database,
  key: string,
  userId: number,
  note: string,
  changes: { method: ProviderMethod; codeUrl: string },
): Promise<OrderRow | null> {
  const target = db.$with('target').as(
    db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.key, key),
          eq(orders.userId, userId),
          inArray(orders.state, payable),
          sql`not (${orders.state} = 'paying' and ${orders.method} is not distinct from ${changes.method} and ${orders.codeUrl} is not distinct from ${changes.codeUrl})`,
        ),
      )
      .for('update'),
  );
  const events = db
    .$with('events', {})
    .as(sql`insert into ${orderEvents} (order_id, state, source, note) select id, 'paying', 'customer', ${note} from ${target}`);
  const [row] = await db
    .with(target, events)
    .update(orders)
    .set({ state: 'paying', ...changes })
    .from(target)
    .where(eq(orders.id, target.id))
    .returning();
  return row ?? null;
}

/** Records what happened to an order without changing its state (a duplicate payment sent to the wallet). */
export async function note(tx: Transaction, row: OrderRow, source: Source, text: string, changes: Partial<Pick<OrderRow, 'outcome'>> = {}): Promise<OrderRow> {
  return advance(tx, row, row.state, source, text, changes);
}

/** The order with its timeline; `userId` limits it to that user's orders (an operator's look leaves it out). */
/** A customer's order, with its timeline and the ways it can be paid with `providers`. */
export async function orderDetail(db: Database, key: string, userId: number, providers: readonly ProviderMethod[]): Promise<OrderDetail> {
  const row = await findOrder(db, key, userId);
  return { ...(await historyOf(db, row)), PayWith: payWith(row, providers) };
}

/**
 * How an unpaid order can be paid, given the providers this server takes: by
 * each of them and from the wallet; an auto-renewal's first period only
 * through WeChat Pay's contract. A settled order has no way left.
 */
export function payWith(row: OrderRow, providers: readonly ProviderMethod[]): PayMethod[] {
  if (!payable.includes(row.state)) return [];
  if (row.agreement) return providers.filter((method) => method === 'wechatpay');
  return [...providers, 'wallet'];
}

/** An order row read already, with its timeline. */
export async function historyOf(db: Database, row: OrderRow): Promise<OrderHistory> {
  const events = await db.select().from(orderEvents).where(eq(orderEvents.orderId, row.id)).orderBy(asc(orderEvents.id));
  return {
    ...toOrder(row),
    Timeline: events.map((event) => ({ State: event.state as OrderState, Source: event.source as Source, Note: event.note, At: event.at.toISOString() })),
  };
}

export async function orderPage(db: Database, userId: number, page: number): Promise<{ Items: Order[]; Total: number; Page: number }> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [{ total }] = await db.select({ total: count() }).from(orders).where(eq(orders.userId, userId));
  return { Items: rows.map(toOrder), Total: total, Page: page };
}
