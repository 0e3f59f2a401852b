/**
 * Who runs the shop, and what was done while running it: the operators'
 * roles (server/modules/operators/), and the audit log every operator's action
 * writes a line to (server/db/audit.ts). The audit log is append-only: its
 * migration adds a trigger that refuses any update or deletion, whoever asks.
 */
import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { operatorRoles } from '#contract/admin.ts';
import { sessions, users } from './identity.ts';

export const operatorRoleGrants = pgTable('operator_roles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  role: text('role', { enum: operatorRoles }).notNull(),
  grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Who, in words: "root@shop-1 (operators' command)", or a console user's name. */
    actor: text('actor').notNull(),
    /** The console user who acted; no reference, so the log outlives a deleted account. */
    actorUserId: integer('actor_user_id'),
    address: text('address'),
    /** The command's words or the console's action, such as "role grant". */
    action: text('action').notNull(),
    /** The record acted on, such as "user 12". */
    target: text('target'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  // The console's list sorts by action and by actor, the id breaking ties, and finds an actor by the start of the name in any case.
  (t) => [
    index('audit_log_at').on(t.at),
    index('audit_log_action').on(t.action, t.id),
    index('audit_log_target').on(t.target),
    index('audit_log_actor').on(t.actor, t.id),
    index('audit_log_actor_start').on(sql`lower(${t.actor}) text_pattern_ops`),
  ],
);

/**
 * An operator's second factor for the console: a TOTP secret (base32, as
 * authenticator apps take it), confirmed once a code made from it was
 * entered, and the last time step a code was accepted for, so no code works
 * twice. The secret is kept as it is: a backup restored on another machine
 * must still let operators in, and using it needs the operator's login too.
 */
export const consoleFactors = pgTable('console_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastTimeStep: bigint('last_time_step', { mode: 'number' }),
  /** Wrong codes (authenticator or recovery) in a row; enough of them lock the console sign-in until `lockedUntil`. */
  failedTries: integer('failed_tries').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The recovery codes shown once at enrolment, stored as SHA-256 hashes; each works once. */
export const consoleRecoveryCodes = pgTable(
  'console_recovery_codes',
  {
    hash: text('hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('console_recovery_codes_user').on(t.userId)],
);

/**
 * Console sessions: short, and separate from the customer session they were
 * opened from (whose end ends them too). The token rides in an http-only
 * cookie and is stored only as its SHA-256 hash.
 */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    hash: text('hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerSessionId: uuid('customer_session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    address: text('address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('console_sessions_user').on(t.userId)],
);
