/**
 * Who runs the shop, and what was done while running it: the operators'
 * roles (server/modules/operators/), and the audit log every operator's action
 * writes a line to (server/db/audit.ts). The audit log is append-only: its
 * migration adds a trigger that refuses any update or deletion, whoever asks.
 */
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { operatorRoles } from '#contract/admin.ts';
import { users } from './identity.ts';

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
  (t) => [index('audit_log_at').on(t.at), index('audit_log_action').on(t.action)],
);
