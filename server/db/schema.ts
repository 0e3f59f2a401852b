/**
 * The database schema (Drizzle, Postgres dialect). One migration set, generated
 * from this file with `npm run db:generate`, runs on PGlite and PostgreSQL alike.
 */
import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
