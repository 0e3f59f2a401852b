/**
 * Invoice requests (contract/invoices.ts): a customer asks for an invoice on an
 * order paid with money, within `orders.invoiceWindow` of paying and unless it
 * was refunded in full; an operator attaches the issued PDF (kept in the
 * uploads' `invoices` store, served to the order's owner alone) or refuses
 * with a reason, audited in the same transaction. One request per order is
 * open or issued at a time: the order's row lock orders two asks, and the
 * unique partial index `invoice_requests_one_live` is the last word.
 */
import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { ErrorCode } from '#contract/errors.ts';
import type { InvoiceSort, ListedInvoice } from '#contract/commands/invoices.ts';
import {
  invoiceFileMaxBytes,
  invoiceWindowMs,
  isCreditCode,
  normalTaxNumber,
  type InvoiceAsk,
  type InvoiceRequest,
  type InvoiceState,
  type OrderInvoice,
} from '#contract/invoices.ts';
import { offsetOf, type ListQuery } from '#contract/list.ts';
import type { LocaleCode } from '#contract/locales.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { orders } from '../../db/schema/commerce.ts';
import { invoiceRequests } from '../../db/schema/invoices.ts';
import { ApiError } from '../../http/api-error.ts';
import type { OutgoingMessage } from '../../messages/kinds.ts';
import type { FileStore } from '../../services/file-store.ts';
import { findOrder, type OrderRow } from './orders.ts';
import { moneyPaymentOf } from './receipts.ts';
import { refundedSoFar } from './refunds.ts';

type InvoiceRow = typeof invoiceRequests.$inferSelect;
type Db = Database | Transaction;

/** The states a request holds its order's one place in: a refused one gives it up. */
const liveStates: InvoiceState[] = ['requested', 'issued'];

const toRequest = (row: InvoiceRow): InvoiceRequest => ({
  State: row.state,
  TitleType: row.titleType,
  Title: row.title,
  TaxNumber: row.taxNumber,
  Email: row.email,
  RefusalReason: row.refusalReason,
  RequestedAt: row.createdAt.toISOString(),
  DecidedAt: row.decidedAt?.toISOString() ?? null,
});

async function latestRequest(db: Db, orderId: number): Promise<InvoiceRow | null> {
  const [row] = await db.select().from(invoiceRequests).where(eq(invoiceRequests.orderId, orderId)).orderBy(desc(invoiceRequests.id)).limit(1);
  return row ?? null;
}

/** Until when `order` may be asked for an invoice, or why it may not: not paid with money, or all its money went back. */
async function askWindowOf(db: Db, order: OrderRow): Promise<{ until: Date } | { refusal: 'invoiceUnpaid' | 'invoiceRefunded' }> {
  const payment = await moneyPaymentOf(db, order);
  if (!payment) return { refusal: 'invoiceUnpaid' };
  if (order.state === 'refunded' || (await refundedSoFar(db, order.id, 'succeeded')) >= order.price) return { refusal: 'invoiceRefunded' };
  return { until: new Date(payment.at.getTime() + invoiceWindowMs) };
}

async function invoiceOfOrder(db: Db, order: OrderRow): Promise<OrderInvoice> {
  const window = await askWindowOf(db, order);
  const request = await latestRequest(db, order.id);
  return { Request: request && toRequest(request), AskUntil: 'until' in window ? window.until.toISOString() : null };
}

/** `userId`'s order `key`'s invoice: another's order and an unknown one are "no such order". */
export async function orderInvoice(db: Database, key: string, userId: number): Promise<OrderInvoice> {
  return invoiceOfOrder(db, await findOrder(db, key, userId));
}

/** The title and tax number as kept: a company's code checked, a person's dropped (a person has none on an invoice). */
function checkedTitle(ask: InvoiceAsk): { title: string; taxNumber: string | null } {
  const title = ask.Title.trim();
  if (!title) throw new ApiError(ErrorCode.BadRequest, 'invoiceTitleRequired');
  if (ask.TitleType === 'personal') return { title, taxNumber: null };
  const taxNumber = normalTaxNumber(ask.TaxNumber ?? '');
  if (!isCreditCode(taxNumber)) throw new ApiError(ErrorCode.BadRequest, 'invoiceTaxNumberInvalid');
  return { title, taxNumber };
}

/** Asks for an invoice on `userId`'s order `key`; its e-mails go out in `locale`. */
export async function askInvoice(db: Database, key: string, userId: number, ask: InvoiceAsk, locale: LocaleCode, now = new Date()): Promise<OrderInvoice> {
  const { title, taxNumber } = checkedTitle(ask);
  const { id } = await findOrder(db, key, userId);
  try {
    return await db.transaction(async (tx) => {
      // Two asks at once wait here for each other; the second then finds the first's request.
      const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
      const window = await askWindowOf(tx, order);
      if ('refusal' in window) throw new ApiError(ErrorCode.InvoiceUnavailable, window.refusal);
      const [live] = await tx
        .select({ id: invoiceRequests.id })
        .from(invoiceRequests)
        .where(and(eq(invoiceRequests.orderId, id), inArray(invoiceRequests.state, liveStates)));
      if (live) throw new ApiError(ErrorCode.InvoiceAsked, 'invoiceAsked');
      if (now > window.until) throw new ApiError(ErrorCode.InvoiceUnavailable, 'invoiceExpired');
      await tx.insert(invoiceRequests).values({ orderId: id, titleType: ask.TitleType, title, taxNumber, email: ask.Email, locale, state: 'requested' });
      return invoiceOfOrder(tx, order);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(ErrorCode.InvoiceAsked, 'invoiceAsked');
    throw error;
  }
}

/** The issued PDF of `userId`'s order `key`: another's order is "no such order", as an unknown one is. */
export async function invoiceFile(db: Database, store: FileStore, key: string, userId: number): Promise<Buffer> {
  const order = await findOrder(db, key, userId);
  const request = await latestRequest(db, order.id);
  const file = request?.state === 'issued' && request.file ? await store.read(request.file) : null;
  if (!file) throw new ApiError(ErrorCode.NotFound, 'invoiceNotIssued');
  return Buffer.concat(await file.body.toArray());
}

const sortColumns = { asked: invoiceRequests.id, state: invoiceRequests.state, price: orders.price } as const;

export interface InvoiceQuery extends ListQuery<InvoiceSort> {
  state?: InvoiceState;
}

/** One page of the requests as the query sorts them (ties newest first), with how many there are in all. */
export async function listInvoices(db: Db, query: InvoiceQuery): Promise<{ rows: ListedInvoice[]; total: number; page: number; size: number }> {
  const where = query.state ? eq(invoiceRequests.state, query.state) : undefined;
  const direction = query.dir === 'asc' ? asc : desc;
  const rows = await invoiceRows(db, where, [direction(sortColumns[query.sort]), desc(invoiceRequests.id)], query.size, offsetOf(query));
  const [{ total }] = await db.select({ total: count() }).from(invoiceRequests).where(where);
  return { rows, total, page: query.page, size: query.size };
}

/** The request of order `orderId` that is latest, as the list shows it. */
export async function listedInvoiceOf(db: Db, orderId: number): Promise<ListedInvoice> {
  const [row] = await invoiceRows(db, eq(invoiceRequests.orderId, orderId), [desc(invoiceRequests.id)], 1, 0);
  return row;
}

/** Requests with their orders and what of those was refunded (succeeded refunds, in fen): a refunded order's request is flagged. */
async function invoiceRows(db: Db, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<ListedInvoice[]> {
  const refunded = sql<number>`(select coalesce(sum(amount), 0) from refunds where refunds.order_id = ${orders.id} and refunds.state = 'succeeded')`.mapWith(
    Number,
  );
  const rows = await db
    .select({ invoice: invoiceRequests, order: orders, refunded })
    .from(invoiceRequests)
    .innerJoin(orders, eq(orders.id, invoiceRequests.orderId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ invoice, order, refunded }) => ({
    id: invoice.id,
    orderKey: order.key,
    userId: order.userId,
    orderState: order.state,
    price: order.price,
    refunded,
    state: invoice.state,
    titleType: invoice.titleType,
    title: invoice.title,
    taxNumber: invoice.taxNumber,
    email: invoice.email,
    refusalReason: invoice.refusalReason,
    hasFile: invoice.file !== null,
    requestedAt: invoice.createdAt.toISOString(),
    decidedBy: invoice.decidedBy,
    decidedAt: invoice.decidedAt?.toISOString() ?? null,
  }));
}

/** What a PDF starts with (ISO 32000: the header `%PDF-` and its version). */
const pdfMagic = Buffer.from('%PDF-');

/** The issued file checked: there, a PDF, and no larger than the cap. */
function checkedPdf(file: Buffer | null): Buffer {
  if (!file || file.length === 0) throw new ApiError(ErrorCode.BadRequest, 'invoiceFileMissing');
  if (file.length > invoiceFileMaxBytes) throw new ApiError(ErrorCode.BadRequest, 'invoiceFileTooLarge');
  if (!file.subarray(0, pdfMagic.length).equals(pdfMagic)) throw new ApiError(ErrorCode.BadRequest, 'invoiceNotPdf');
  return file;
}

/** The order `key`'s request waiting for an operator, locked; none is a refusal. */
async function openRequest(tx: Transaction, key: string): Promise<{ order: OrderRow; request: InvoiceRow }> {
  const [found] = await tx
    .select({ order: orders, request: invoiceRequests })
    .from(invoiceRequests)
    .innerJoin(orders, eq(orders.id, invoiceRequests.orderId))
    .where(and(eq(orders.key, key), eq(invoiceRequests.state, 'requested')))
    .for('update', { of: invoiceRequests });
  if (!found) throw new ApiError(ErrorCode.InvoiceUnavailable, 'invoiceNotOpen');
  return found;
}

/** What the audit log keeps of a request: its decision, not the customer's address. */
const audited = (row: InvoiceRow) => ({
  state: row.state,
  titleType: row.titleType,
  title: row.title,
  taxNumber: row.taxNumber,
  file: row.file,
  refusalReason: row.refusalReason,
});

export interface Decided {
  request: InvoiceRow;
  order: OrderRow;
}

/** A decision on the order `key`'s open request: the audit action that names it, and what it changes. */
interface Decision {
  key: string;
  action: 'invoice issue' | 'invoice refuse';
  change: Partial<InvoiceRow> & { state: 'issued' | 'refused' };
}

async function decide(db: Database, actor: Actor, { key, action, change }: Decision): Promise<Decided> {
  return db.transaction(async (tx) => {
    const { order, request } = await openRequest(tx, key);
    const [decided] = await tx
      .update(invoiceRequests)
      .set({ ...change, decidedBy: actor.label, decidedAt: new Date() })
      .where(eq(invoiceRequests.id, request.id))
      .returning();
    await recordAudit(tx, actor, {
      action,
      target: `order ${key}`,
      before: audited(request),
      after: audited(decided),
    });
    return { request: decided, order };
  });
}

/** Attaches the issued PDF to the order's open request; the file is stored first, by its content's hash. */
export async function issueInvoice(db: Database, store: FileStore, actor: Actor, key: string, file: Buffer | null): Promise<Decided> {
  const pdf = checkedPdf(file);
  // Refused before the file is stored when there is nothing to issue.
  await db.transaction((tx) => openRequest(tx, key));
  const name = `${createHash('sha256').update(pdf).digest('hex').slice(0, 32)}.pdf`;
  await store.put(name, pdf);
  return decide(db, actor, { key, action: 'invoice issue', change: { state: 'issued', file: name } });
}

export function refuseInvoice(db: Database, actor: Actor, key: string, reason: string): Promise<Decided> {
  return decide(db, actor, { key, action: 'invoice refuse', change: { state: 'refused', refusalReason: reason } });
}

/** The customer's e-mail about a decided request, in the language they asked in, with the order's page (which holds the file). */
export function invoiceNotice({ request, order }: Decided, orderPage: string): OutgoingMessage {
  const locale = request.locale as LocaleCode;
  return request.state === 'issued'
    ? { to: request.email, kind: 'invoiceIssued', locale, params: { order: order.key, link: orderPage } }
    : { to: request.email, kind: 'invoiceRefused', locale, params: { order: order.key, reason: request.refusalReason ?? '', link: orderPage } };
}
