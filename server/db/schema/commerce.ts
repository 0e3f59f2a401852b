/**
 * Tables of server/modules/commerce/: the catalogue, orders and their timeline, payments, the
 * wallet and its ledger, memberships, auto-renewal agreements, and the operators' run-time switches.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { OrderItem } from '#contract/commerce.ts';
import { createdAt } from './columns.ts';
import { users } from './identity.ts';

/** What is sold (contract `Product`), set by operators with `admin product …`. */
export const products = pgTable('products', {
  code: text('code').primaryKey(),
  kind: text('kind', { enum: ['steamRecharge', 'membership'] }).notNull(),
  active: boolean('active').notNull().default(true),
  sort: integer('sort').notNull().default(0),
  months: integer('months'),
  price: integer('price'),
  currency: text('currency'),
  region: text('region'),
  ratePpm: integer('rate_ppm'),
  presets: jsonb('presets').$type<number[]>().notNull().default([]),
  minAmount: integer('min_amount'),
  maxAmount: integer('max_amount'),
  /** membership: the payment provider's auto-renewal template (WeChat Pay `plan_id`); none, no auto-renewal. */
  renewalPlan: integer('renewal_plan'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An auto-renewal agreement (contract `Agreement`): `key` is the contract code
 * the provider knows it by. A user has at most one that is pending or active.
 * Its notices go out in the language it was made in.
 */
export const agreements = pgTable(
  'agreements',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    product: text('product').notNull(),
    plan: integer('plan').notNull(),
    months: integer('months').notNull(),
    price: integer('price').notNull(),
    locale: text('locale').notNull(),
    state: text('state', { enum: ['pending', 'active', 'canceled', 'lapsed'] }).notNull(),
    /** The provider's id of the signed contract, which charges name. */
    contractId: text('contract_id'),
    nextChargeAt: timestamp('next_charge_at', { withTimezone: true }),
    /** The charge date a reminder went out for, so each is reminded of once. */
    remindedFor: timestamp('reminded_for', { withTimezone: true }),
    failedCharges: integer('failed_charges').notNull().default(0),
    createdAt: createdAt(),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('agreements_one_live')
      .on(t.userId)
      .where(sql`state in ('pending', 'active')`),
    index('agreements_due')
      .on(t.nextChargeAt)
      .where(sql`state = 'active'`),
  ],
);

/** A purchase; kept when its user deletes the account (order records are retained, content/facts.json legal.orderRecordRetention). */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    /** The order number customers see and quote: 20 digits, the date first. */
    key: text('key').notNull().unique(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    product: text('product').notNull(),
    /** What was bought, as it was when the order was made (contract `OrderItem`). */
    item: jsonb('item').$type<OrderItem>().notNull(),
    price: integer('price').notNull(),
    state: text('state', { enum: ['created', 'paying', 'paid', 'fulfilled', 'closed', 'failed', 'refunded'] }).notNull(),
    outcome: text('outcome'),
    method: text('method'),
    /** The provider's code to scan while paying. */
    codeUrl: text('code_url'),
    /** The auto-renewal agreement whose period this pays. */
    agreement: text('agreement').references(() => agreements.key, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  // orders_created: the console's dashboard counts the orders made per day and how many were paid (the state beside the
  // time, so it reads the index alone), and its list reads a range of days.
  // orders_price|state|method: the console's list sorts by each (the id breaks ties) and filters by state, method or both.
  (t) => [
    index('orders_user').on(t.userId, t.id),
    index('orders_open').on(t.state, t.expiresAt),
    index('orders_created').on(t.createdAt, t.state),
    index('orders_price').on(t.price, t.id),
    index('orders_state').on(t.state, t.id),
    index('orders_method').on(t.method, t.id),
    index('orders_state_method').on(t.state, t.method, t.id),
  ],
);

/** An order's timeline: every change, when and by whom. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    state: text('state').notNull(),
    source: text('source').notNull(),
    note: text('note').notNull(),
    at: createdAt(),
  },
  (t) => [index('order_events_order').on(t.orderId, t.id)],
);

/** Money received for an order, once per provider transaction: the guard that makes a replayed notification change nothing. */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    /** The provider's transaction id, or the wallet's ledger row. */
    reference: text('reference').notNull(),
    amount: integer('amount').notNull(),
    /** `applied` paid the order; `toWallet` came for an order that was paid or closed already and went to the wallet. */
    disposition: text('disposition', { enum: ['applied', 'toWallet'] }).notNull(),
    at: createdAt(),
  },
  // payments_at: the console's dashboard sums the money taken per day.
  (t) => [uniqueIndex('payments_reference').on(t.method, t.reference), index('payments_order').on(t.orderId), index('payments_at').on(t.at)],
);

/**
 * Money given back for an order, whole or in part: to the customer's wallet
 * (settled at once, with its wallet ledger row) or to the payment it came
 * from through the provider (pending until the provider says it succeeded or
 * failed). The refund number is the provider's `out_refund_no`: asking again
 * with it can never refund twice. What is refunded or pending never exceeds
 * the order's price (checked under the order's row lock). A refund the
 * provider reports abnormal (the money could not reach the customer's card)
 * stays reserved as `abnormal` until an operator resolves it.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    refundNo: text('refund_no').notNull().unique(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    destination: text('destination', { enum: ['wallet', 'original'] }).notNull(),
    state: text('state', { enum: ['pending', 'succeeded', 'failed', 'abnormal'] }).notNull(),
    /** Who asked for it, as the audit log names them. */
    actor: text('actor').notNull(),
    /** The console user who asked for it (null at the shell): a support user's daily refund limit counts these. */
    actorUserId: integer('actor_user_id'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('refunds_order').on(t.orderId),
    index('refunds_actor').on(t.actorUserId, t.createdAt),
    // The console's dashboard sums the refunds asked for per day.
    index('refunds_created').on(t.createdAt),
    // The check every minute looks only at the few refunds still pending, however many are settled.
    index('refunds_pending')
      .on(t.createdAt)
      .where(sql`${t.state} = 'pending'`),
    // So do operators' list of refunds that need attention.
    index('refunds_abnormal')
      .on(t.id)
      .where(sql`${t.state} = 'abnormal'`),
    check('refunds_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** A user's balance in fen; it never goes below zero, and only changes together with a ledger row. */
export const wallets = pgTable(
  'wallets',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balance: integer('balance').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('wallets_balance_not_negative', sql`${t.balance} >= 0`)],
);

export const walletLedger = pgTable(
  'wallet_ledger',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    reason: text('reason', { enum: ['payment', 'refund', 'duplicatePayment', 'latePayment', 'credit', 'cdkey', 'donation', 'raffle'] }).notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    at: createdAt(),
  },
  (t) => [index('wallet_ledger_user').on(t.userId, t.id)],
);

/** Until when a user's cloud-idling plan runs. */
export const memberships = pgTable('memberships', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  until: timestamp('until', { withTimezone: true }).notNull(),
});

/** Nonces of provider notifications already accepted: a replayed one is refused. */
export const paymentNonces = pgTable('payment_nonces', {
  nonce: text('nonce').primaryKey(),
  at: createdAt(),
});

/** Switches operators flip at run time (`admin maintenance on|off`). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});
