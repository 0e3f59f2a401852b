/**
 * Invoices (发票): a customer asks for one on an order paid with money, within
 * `orders.invoiceWindow` of paying (content/facts.json), made out to a person
 * or a company (with its unified social credit code); an operator attaches the
 * issued PDF or refuses with a reason (contract/commands/invoices.ts), and the
 * customer downloads it from the order's page. An order has one request open
 * or issued at a time; a refused one may be asked again.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { facts, periodMs } from './facts.ts';
import { Empty, text } from './fields.ts';
import { Email } from './identity.ts';

/** How long after paying a customer may ask for an invoice. */
export const invoiceWindowMs: number = periodMs(facts.orders.invoiceWindow);

/** The largest issued file an operator may attach. */
export const invoiceFileMaxBytes: number = facts.orders.invoiceFileMaxMegabytes * 1024 * 1024;

export const invoiceTitleMaxLength = 100;
export const invoiceReasonMaxLength = 500;

export const InvoiceTitleType = z.enum(['personal', 'company']);
export type InvoiceTitleType = z.infer<typeof InvoiceTitleType>;

export const InvoiceState = z.enum(['requested', 'issued', 'refused']);
export type InvoiceState = z.infer<typeof InvoiceState>;

/** The unified social credit code's alphabet (GB 32100-2015): digits and the capitals but I, O, S, V and Z, each worth its place. */
const creditCodeAlphabet = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const creditCodeWeights = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/**
 * Whether `code` is a unified social credit code (统一社会信用代码), the tax
 * number of every mainland company: 18 characters of its alphabet, the last
 * the check character of the first 17 (their weighted sum, modulo 31).
 */
export function isCreditCode(code: string): boolean {
  if (!/^[0-9A-HJ-NPQRTUWXY]{18}$/.test(code)) return false;
  const sum = creditCodeWeights.reduce((total, weight, i) => total + weight * creditCodeAlphabet.indexOf(code[i]), 0);
  return creditCodeAlphabet[(31 - (sum % 31)) % 31] === code[17];
}

/** A tax number as people type it: spaces dropped, letters in capitals. */
export const normalTaxNumber = (typed: string): string => typed.replace(/\s+/g, '').toUpperCase();

/**
 * What the customer asks for. The title and tax number are checked by the
 * server with their own words (a company needs a valid tax number), so the
 * schema only bounds them.
 */
export const InvoiceAsk = z.object({
  TitleType: InvoiceTitleType,
  Title: text(z.maxLength(invoiceTitleMaxLength)),
  TaxNumber: z.optional(text(z.maxLength(40))),
  Email,
});
export type InvoiceAsk = z.input<typeof InvoiceAsk>;

/** A request as its customer sees it. */
export const InvoiceRequest = z.object({
  State: InvoiceState,
  TitleType: InvoiceTitleType,
  Title: text(),
  TaxNumber: z.nullable(text()),
  Email: text(),
  /** Why an operator refused it (a refused request only). */
  RefusalReason: z.nullable(text()),
  RequestedAt: z.iso.datetime(),
  /** When it was issued or refused. */
  DecidedAt: z.nullable(z.iso.datetime()),
});
export type InvoiceRequest = z.infer<typeof InvoiceRequest>;

/**
 * An order's invoice: its latest request (null: none yet), and until when one
 * may be asked for — null when the order can have none (not paid with money,
 * or refunded in full).
 */
export const OrderInvoice = z.object({
  Request: z.nullable(InvoiceRequest),
  AskUntil: z.nullable(z.iso.datetime()),
});
export type OrderInvoice = z.infer<typeof OrderInvoice>;

const orderKey = z.object({ key: text(z.regex(/^[0-9]{20}$/)) });

/** The issued file's bytes: the server sends a Buffer, the site reads a Blob (`download` of src/lib/api/client.ts). */
const PdfFile = z
  .custom<Uint8Array>((value) => value instanceof Uint8Array)
  .check(z.meta({ type: 'string', contentMediaType: 'application/pdf', description: 'The issued invoice, a PDF, sent as an attachment.' }));

export const invoiceCalls = {
  /** The order's invoice: another user's order and an unknown one are "no such order". */
  invoice: route({
    method: 'GET',
    path: '/commerce/v1/orders/:key/invoice',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: orderKey,
    request: Empty,
    response: OrderInvoice,
  }),
  /** Asks for an invoice on a paid order, within the period; refused when one is open or issued already. */
  askInvoice: route({
    method: 'POST',
    path: '/commerce/v1/orders/:key/invoice',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: orderKey,
    request: InvoiceAsk,
    response: OrderInvoice,
  }),
  /** The issued PDF (`Content-Disposition: attachment`), to the order's owner only; otherwise answered as "no such order". */
  invoiceFile: route({
    method: 'GET',
    path: '/commerce/v1/orders/:key/invoice/file',
    encrypted: false,
    auth: 'required',
    shape: 'raw',
    params: orderKey,
    request: Empty,
    response: PdfFile,
  }),
};
