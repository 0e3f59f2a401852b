/**
 * Tables of server/modules/identity/: accounts and everything that signs them in (sessions and
 * their tokens, codes, login history, e-mail links, quick and device login). Nearly every other
 * table belongs to a user, so the other modules' files reference `users` here.
 */
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { defaultLocale, type LocaleCode } from '#contract/locales.ts';
import { createdAt } from './columns.ts';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    phone: text('phone').unique(),
    email: text('email').unique(),
    nickname: text('nickname').notNull(),
    /** Avatar images by size name (AvatarUrl); the first is the one shown. */
    avatarUrl: jsonb('avatar_url').$type<Record<string, string>>().notNull().default({}),
    passwordHash: text('password_hash'),
    /** The language the account last signed in with: what its messages are written in. */
    locale: text('locale').$type<LocaleCode>().notNull().default(defaultLocale),
    /** Whether a raffle win and its reminder are told by SMS or e-mail (account centre, "Messages"). */
    raffleMessages: boolean('raffle_messages').notNull().default(true),
    createdAt: createdAt(),
  },
  // The console's dashboard counts the accounts opened per day.
  // The console's list sorts users by nickname (phone and e-mail have their unique indexes), and searches by the start
  // of the phone, e-mail or nickname in any case (text_pattern_ops: LIKE 'abc%' walks the index whatever the collation).
  (t) => [
    index('users_created').on(t.createdAt),
    index('users_nickname').on(t.nickname, t.id),
    index('users_phone_start').on(t.phone.op('text_pattern_ops')),
    index('users_email_start').on(sql`lower(${t.email}) text_pattern_ops`),
    index('users_nickname_start').on(sql`lower(${t.nickname}) text_pattern_ops`),
  ],
);

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

/**
 * Every code message handed to a provider (verificationCodes keeps only the codes that went out): which provider,
 * and its refusal when it did not send it (messages/messenger.ts `Refusal`). The console's dashboard counts them per day.
 */
export const codeSends = pgTable(
  'code_sends',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    provider: text('provider').notNull(),
    refusal: text('refusal'),
    createdAt: createdAt(),
  },
  (t) => [index('code_sends_created').on(t.createdAt)],
);

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

/** A proven identity waiting for a phone ("bind phone": quick login asks for one before it signs in): stored by the hash of its ticket, used once. */
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
 * Proof-of-work challenges (ALTCHA) already solved, by their signature, kept
 * until they expire: a solution buys one code request, never two.
 */
export const proofOfWorkSolutions = pgTable(
  'proof_of_work_solutions',
  {
    signature: text('signature').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('proof_of_work_solutions_expiry').on(t.expiresAt)],
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
