/**
 * Tables of server/modules/donation/: gifts of wallet balance to the project.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './identity.ts';

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
