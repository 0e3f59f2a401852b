/**
 * Tables of server/modules/activation/: cdkey batches, their keys, and the wrong keys tried.
 */
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CdkeyGrant } from '#contract/activation.ts';
import { createdAt } from './columns.ts';
import { users } from './identity.ts';

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
