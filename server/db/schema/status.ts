/**
 * Tables of server/modules/status/: the state of each region and service, and the incidents feed.
 */
import { index, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { serviceStates, type StatusNote } from '#contract/status.ts';

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
