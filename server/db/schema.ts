/**
 * The database schema (Drizzle, Postgres dialect). One migration set, generated
 * from this file with `npm run db:generate`, runs on PGlite and PostgreSQL alike.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { CdkeyGrant } from '#contract/activation.ts';
import type { OrderItem } from '#contract/commerce.ts';
import type { LocalizedText, Prize } from '#contract/raffle.ts';
import { serviceStates, type StatusNote } from '#contract/status.ts';
import { reportReasons } from '#contract/plugins.ts';
import type { LocaleCode } from '#contract/locales.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  phone: text('phone').unique(),
  email: text('email').unique(),
  nickname: text('nickname').notNull(),
  /** Avatar images by size name (spec §3 AvatarUrl). */
  avatarUrl: jsonb('avatar_url').$type<Record<string, string>>().notNull().default({}),
  passwordHash: text('password_hash'),
  createdAt: createdAt(),
});

/** Third-party identities bound to a user (unbound with `unbundleaccount/{id}`). */
export const externalAccounts = pgTable(
  'external_accounts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    displayName: text('display_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('external_accounts_provider_subject').on(t.provider, t.subject), index('external_accounts_user').on(t.userId)],
);

/** The Steam games a user wants idled in the cloud, by app id (names: contract/steam-games.ts). */
export const idleGames = pgTable(
  'idle_games',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: integer('app_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.appId] })],
);

/** One signed-in device; its tokens rotate, and revoking it ends them all. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    /** What the user agent says it is, summarised ("Chrome on Windows"). */
    device: text('device').notNull(),
    /** The client address at login and the country it belongs to ('local' for a private network, null when unknown). */
    ip: text('ip'),
    place: text('place'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/** Access and refresh tokens, stored only as SHA-256 hashes. */
export const tokens = pgTable(
  'tokens',
  {
    hash: text('hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when a refresh token is exchanged; a second use means it leaked. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('tokens_session').on(t.sessionId)],
);

/** SMS and e-mail codes; every row is one send, which is also what the send limits count. */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    target: text('target').notNull(),
    /** `login` or `account` (codes.ts): a code works only for what it was sent for. */
    purpose: text('purpose', { enum: ['login', 'account'] })
      .notNull()
      .default('login'),
    ip: text('ip').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    failedTries: integer('failed_tries').notNull().default(0),
    consumed: boolean('consumed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_target').on(t.channel, t.target, t.createdAt), index('verification_codes_ip').on(t.ip, t.createdAt)],
);

/** Each user's cloud card-idling status (contract `CloudIdleStatus`), set by operators and pushed live. */
export const cloudIdleStatuses = pgTable('cloud_idle_statuses', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  state: text('state', { enum: ['Idling', 'Paused', 'Stopped', 'Finished'] }).notNull(),
  games: jsonb('games').$type<Array<{ AppId: number; Name: string; CardsRemaining: number }>>().notNull(),
  cardsRemaining: integer('cards_remaining').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Every login attempt on a known account, successful or not: the user's login history. */
export const loginEvents = pgTable(
  'login_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    success: boolean('success').notNull(),
    ip: text('ip').notNull(),
    place: text('place'),
    device: text('device').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('login_events_user').on(t.userId, t.createdAt)],
);

/** E-mail confirmation links: one row per link sent, stored by the hash of its token; a link works once. */
export const emailConfirmations = pgTable(
  'email_confirmations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('email_confirmations_user').on(t.userId, t.createdAt)],
);

/**
 * A quick login on its way through a provider (contract/external-login.ts):
 * `state` names it in the provider's redirect and in the browser's cookie. It
 * is used once, and each caller key starts at most one, so a leaked start URL
 * cannot be replayed.
 */
export const externalLogins = pgTable('external_logins', {
  state: text('state').primaryKey(),
  provider: text('provider').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  /** The caller's AES key (base64), which seals the outcome. */
  callerKey: text('caller_key').notNull(),
  /** Set when the identity is to be linked to this account instead of logging in. */
  bindUserId: integer('bind_user_id').references(() => users.id, { onDelete: 'cascade' }),
  isWeb: boolean('is_web').notNull(),
  deviceId: text('device_id').notNull(),
  device: text('device').notNull(),
  locale: text('locale').notNull(),
  /** The PKCE verifier (OpenID Connect) and the nonce the ID token must carry. */
  verifier: text('verifier').notNull(),
  nonce: text('nonce').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** A proven identity waiting for a phone ("bind phone", spec §4): stored by the hash of its ticket, used once. */
export const externalTickets = pgTable('external_tickets', {
  ticketHash: text('ticket_hash').primaryKey(),
  provider: text('provider').notNull(),
  subject: text('subject').notNull(),
  displayName: text('display_name').notNull(),
  /** The account the identity already belongs to, when that account has no phone yet. */
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** OpenID 2.0 response nonces already accepted, per provider endpoint: an assertion counts once. */
export const openidNonces = pgTable(
  'openid_nonces',
  {
    endpoint: text('endpoint').notNull(),
    nonce: text('nonce').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.endpoint, t.nonce] })],
);

/**
 * A desktop client asking to be signed in (device authorization, RFC 8628):
 * the client holds the device code (stored by its hash) and polls; the user
 * types or scans the user code and approves or refuses. Tokens are handed
 * out once.
 */
export const deviceAuthorizations = pgTable('device_authorizations', {
  deviceCodeHash: text('device_code_hash').primaryKey(),
  userCode: text('user_code').notNull().unique(),
  deviceId: text('device_id').notNull(),
  /** The device as the client names it, and where its request came from. */
  device: text('device').notNull(),
  ip: text('ip').notNull(),
  place: text('place'),
  status: text('status', { enum: ['pending', 'approved', 'denied'] })
    .notNull()
    .default('pending'),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** When the client took its tokens. */
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

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
  (t) => [index('orders_user').on(t.userId, t.id), index('orders_open').on(t.state, t.expiresAt)],
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
  (t) => [uniqueIndex('payments_reference').on(t.method, t.reference), index('payments_order').on(t.orderId)],
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

/** A batch of cdkeys (`admin cdkey create`): what each grants, how many, until when. */
export const cdkeyBatches = pgTable('cdkey_batches', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  grant: jsonb('grant').$type<CdkeyGrant>().notNull(),
  count: integer('count').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * One cdkey of a batch. Only a hash of the key is kept: the key itself is
 * derived from the server's secret, the batch and its index, so an operator
 * can print it again (`admin cdkey export`) and a copy of the database cannot.
 */
export const cdkeys = pgTable(
  'cdkeys',
  {
    id: serial('id').primaryKey(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => cdkeyBatches.id, { onDelete: 'cascade' }),
    index: integer('index').notNull(),
    hash: text('hash').notNull().unique(),
    /** The key as a history shows it (contract cdkey-format.ts `maskCdkey`). */
    masked: text('masked').notNull(),
    usedBy: integer('used_by').references(() => users.id, { onDelete: 'set null' }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** steamRecharge: the order the key made. */
    orderKey: text('order_key'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('cdkeys_batch_index').on(t.batchId, t.index), index('cdkeys_used_by').on(t.usedBy, t.usedAt)],
);

/** Wrong keys tried, by account and address: enough of them lately locks redeeming (facts `cdkey`). */
export const cdkeyFailures = pgTable(
  'cdkey_failures',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    at: createdAt(),
  },
  (t) => [index('cdkey_failures_user').on(t.userId, t.at), index('cdkey_failures_ip').on(t.ip, t.at)],
);

/**
 * A gift of wallet balance to the project, written with its ledger row. The
 * name is shown on the sponsor page only when the donor gave one, and while
 * their account lasts; operators can hide an unsuitable name (`admin
 * donation hide`). The row itself stays, like an order, as a record of money
 * received.
 */
export const donations = pgTable(
  'donations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    amount: integer('amount').notNull(),
    name: text('name'),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('donations_user').on(t.userId, t.id),
    index('donations_named')
      .on(t.id)
      .where(sql`${t.name} is not null and ${t.hiddenAt} is null and ${t.userId} is not null`),
  ],
);

/**
 * A raffle (contract/raffle.ts). Registration raffles keep a running count of
 * entrants that hands out participation numbers: taking the next number and
 * writing the entry is one statement, so numbers are 1..N with no gap or
 * repeat. The seed stays secret until the draw; its hash is public from the
 * start. Instant raffles count their stock down instead.
 */
export const raffles = pgTable(
  'raffles',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['registration', 'instant'] }).notNull(),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    /** A stored file name (uploads/raffles), or null. */
    cover: text('cover'),
    prizes: jsonb('prizes').$type<Prize[]>().notNull(),
    opensAt: timestamp('opens_at', { withTimezone: true }).notNull(),
    closesAt: timestamp('closes_at', { withTimezone: true }).notNull(),
    drawAt: timestamp('draw_at', { withTimezone: true }),
    minAccountAgeDays: integer('min_account_age_days').notNull().default(0),
    entrants: integer('entrants').notNull().default(0),
    seed: text('seed'),
    seedHash: text('seed_hash'),
    publicSource: jsonb('public_source').$type<LocalizedText>(),
    publicValue: text('public_value'),
    drawnAt: timestamp('drawn_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /** Instant raffles: parts per million a draw wins, prizes left, draws per account. */
    odds: integer('odds'),
    stock: integer('stock'),
    perUserLimit: integer('per_user_limit'),
    createdAt: createdAt(),
  },
  (t) => [index('raffles_kind_opens').on(t.kind, t.opensAt), check('raffles_stock_not_negative', sql`${t.stock} >= 0`)],
);

/** A registration: one per user and raffle, each with its own number. A deleted account's entry keeps its number (the draw's input must not change), without a user. */
export const raffleEntries = pgTable(
  'raffle_entries',
  {
    raffleId: integer('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Set by the draw: the index of the prize won. */
    prize: integer('prize'),
    /** The order of the draw (0 first), for the public list. */
    drawOrder: integer('draw_order'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.raffleId, t.number] }),
    uniqueIndex('raffle_entries_user').on(t.raffleId, t.userId),
    index('raffle_entries_winners')
      .on(t.raffleId, t.drawOrder)
      .where(sql`${t.drawOrder} is not null`),
  ],
);

/** A user's server seed for an instant raffle: its hash is shown before any draw, the seed itself once rotated. */
export const instantSeeds = pgTable(
  'instant_seeds',
  {
    id: serial('id').primaryKey(),
    raffleId: integer('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seed: text('seed').notNull(),
    seedHash: text('seed_hash').notNull(),
    nextNonce: integer('next_nonce').notNull().default(0),
    revealedAt: timestamp('revealed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('instant_seeds_current')
      .on(t.raffleId, t.userId)
      .where(sql`${t.revealedAt} is null`),
  ],
);

/** One instant draw and its outcome. */
export const instantDraws = pgTable(
  'instant_draws',
  {
    id: serial('id').primaryKey(),
    seedId: integer('seed_id')
      .notNull()
      .references(() => instantSeeds.id, { onDelete: 'cascade' }),
    raffleId: integer('raffle_id').notNull(),
    userId: integer('user_id').notNull(),
    nonce: integer('nonce').notNull(),
    clientSeed: text('client_seed').notNull(),
    roll: integer('roll').notNull(),
    won: boolean('won').notNull(),
    soldOut: boolean('sold_out').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('instant_draws_nonce').on(t.seedId, t.nonce), index('instant_draws_user').on(t.raffleId, t.userId, t.id)],
);

/**
 * A plugin review (contract/plugins.ts): one per user and plugin. A hidden one
 * (by an operator) leaves the lists and the aggregate; its author still sees it.
 */
export const pluginEvaluations = pgTable(
  'plugin_evaluations',
  {
    id: serial('id').primaryKey(),
    plugin: text('plugin').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    body: text('body').notNull(),
    locale: text('locale').$type<LocaleCode>().notNull(),
    helpful: integer('helpful').notNull().default(0),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('plugin_evaluations_user').on(t.plugin, t.userId),
    index('plugin_evaluations_newest').on(t.plugin, t.createdAt),
    index('plugin_evaluations_helpful').on(t.plugin, t.helpful),
    check('plugin_evaluations_rating', sql`${t.rating} between 1 and 5`),
  ],
);

/**
 * Each plugin's aggregate of visible reviews, kept in the same transaction as
 * every change to them: `stars[i]` counts the reviews of i + 1 stars.
 */
export const pluginRatings = pgTable('plugin_ratings', {
  plugin: text('plugin').primaryKey(),
  stars: integer('stars').array().notNull(),
  count: integer('count').notNull().default(0),
  total: integer('total').notNull().default(0),
});

/** What one user did to one review, once: the key of the helpful marks and the reports. */
const onEvaluationByUser = () => ({
  evaluationId: integer('evaluation_id')
    .notNull()
    .references(() => pluginEvaluations.id, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/** Who marked which review helpful: once each. */
export const evaluationHelpful = pgTable('evaluation_helpful', onEvaluationByUser(), (t) => [primaryKey({ columns: [t.evaluationId, t.userId] })]);

/** Reports of a review to the operators: once per user and review. */
export const evaluationReports = pgTable('evaluation_reports', { ...onEvaluationByUser(), reason: text('reason', { enum: reportReasons }).notNull() }, (t) => [
  primaryKey({ columns: [t.evaluationId, t.userId] }),
]);

/** Each user's recent review writes and votes, counted for the hourly limits; older rows are pruned as new ones come. */
export const evaluationWrites = pgTable(
  'evaluation_writes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['review', 'vote'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('evaluation_writes_user').on(t.userId, t.kind, t.at)],
);

/** The current state of each acceleration region and service (contract/status.ts); a target never set reads as up. */
export const serviceStatus = pgTable('service_status', {
  key: text('key').primaryKey(),
  state: text('state', { enum: serviceStates }).notNull(),
  since: timestamp('since', { withTimezone: true }).notNull(),
  note: jsonb('note').$type<StatusNote>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every change operators made: the feeds' entries. */
export const statusIncidents = pgTable(
  'status_incidents',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    state: text('state', { enum: serviceStates }).notNull(),
    previous: text('previous', { enum: serviceStates }).notNull(),
    note: jsonb('note').$type<StatusNote>(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('status_incidents_at').on(t.at)],
);
