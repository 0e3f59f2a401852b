/**
 * Invoice requests (发票) of server/modules/commerce/invoices.ts: a customer asks
 * for one on a paid order, an operator attaches the issued file or refuses
 * with a reason. An order has at most one request that is open or issued
 * (a unique partial index, so two asks at once make one); a refused one may
 * be asked again, as a new row beside it.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { orders } from './commerce.ts';

export const invoiceRequests = pgTable(
  'invoice_requests',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    titleType: text('title_type', { enum: ['personal', 'company'] }).notNull(),
    /** The name the invoice is made out to: a person's or a company's. */
    title: text('title').notNull(),
    /** A company's unified social credit code (统一社会信用代码); null for a person. */
    taxNumber: text('tax_number'),
    /** Where the customer is told when it is issued or refused. */
    email: text('email').notNull(),
    /** The language the customer asked in, which the e-mail is written in. */
    locale: text('locale').notNull(),
    state: text('state', { enum: ['requested', 'issued', 'refused'] }).notNull(),
    refusalReason: text('refusal_reason'),
    /** The issued PDF's name in the uploads' `invoices` store (content-hashed; never served publicly). */
    file: text('file'),
    /** Who issued or refused it, as the audit log names them, and when. */
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invoice_requests_one_live')
      .on(t.orderId)
      .where(sql`state in ('requested', 'issued')`),
    index('invoice_requests_order').on(t.orderId, t.id),
    index('invoice_requests_state').on(t.state, t.id),
  ],
);
