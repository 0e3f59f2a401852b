/**
 * The operators' invoice commands (contract/commands/invoices.ts): `invoice
 * list`, `invoice issue` (the PDF as the command's attachment: the console's
 * upload, or the file `--file` names, read by the CLI on the operator's side)
 * and `invoice refuse`. The customer is e-mailed the decision with a link to
 * the order's page, which holds the file: never the file itself, whose size and
 * the unverified address it would go to are both the customer's choice.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { UsageError, type ResultOf } from '#contract/command.ts';
import { invoiceCommands, type ListedInvoice } from '#contract/commands/invoices.ts';
import { invoiceFileMaxBytes } from '#contract/invoices.ts';
import { handle, refusalText, type Caller } from '../../admin-command.ts';
import { money, orDash, pageLine, table, time } from '../../admin-text.ts';
import { sitePageUrl } from '../../config.ts';
import { ApiError } from '../../http/api-error.ts';
import { MessengerError } from '../../messages/messenger.ts';
import { StorageError, storageRefusal } from '../../services/file-store.ts';
import { invoiceNotice, issueInvoice, listedInvoiceOf, listInvoices, refuseInvoice, type Decided } from './invoices.ts';

const headers = ['ORDER', 'STATE', 'TITLE', 'TAX NUMBER', 'E-MAIL', 'PRICE', 'REFUNDED', 'ASKED', 'DECIDED'];
const row = (i: ListedInvoice) => [
  i.orderKey,
  i.state,
  i.title,
  orDash(i.taxNumber),
  i.email,
  money(i.price, 'CNY'),
  i.refunded > 0 ? `${money(i.refunded, 'CNY')} (refunded)` : '-',
  time(i.requestedAt),
  i.decidedAt ? `${time(i.decidedAt)} by ${i.decidedBy}` : '-',
];

/** Tells the customer, in their language; a message that could not go does not undo the decision. */
async function tell(app: FastifyInstance, decided: Decided): Promise<boolean> {
  const page = `${sitePageUrl(app.config, decided.request.locale as Caller['locale'], '/account/center/order/detail')}?key=${decided.order.key}`;
  try {
    await app.email.send(invoiceNotice(decided, page));
    return true;
  } catch (error) {
    if (!(error instanceof MessengerError)) throw error;
    app.log.warn({ err: error }, 'could not e-mail an invoice decision');
    return false;
  }
}

type Step = ResultOf<typeof invoiceCommands.issue | typeof invoiceCommands.refuse>;

/** A decision's outcome: the request as it is now and whether its customer was told, or why nothing was done (in the operator's words). */
async function step<N extends 'invoice issue' | 'invoice refuse'>(app: FastifyInstance, caller: Caller, command: N, key: string, work: () => Promise<Decided>) {
  try {
    const decided = await work();
    const invoice = await listedInvoiceOf(app.db, decided.order.id);
    return { command, key, invoice, refused: null, emailed: await tell(app, decided) };
  } catch (error) {
    const refusal = error instanceof StorageError ? storageRefusal(error) : error;
    if (!(refusal instanceof ApiError)) throw error;
    return { command, key, invoice: null, refused: refusalText(caller, { key: refusal.messageKey, params: refusal.messageParams }), emailed: false };
  }
}

const stepText = {
  format: (result: Step) =>
    result.invoice
      ? `${table(headers, [row(result.invoice)])}\n\n${result.emailed ? 'The customer was e-mailed.' : 'The e-mail to the customer could not be sent.'}`
      : `Order ${result.key}: ${result.refused ?? 'not found'}`,
  found: (result: Step) => result.invoice !== null,
};

export const invoiceHandlers = [
  handle(invoiceCommands.list, {
    run: async (app, query) => ({ command: 'invoice list', ...(await listInvoices(app.db, query)) }),
    format: (result) => (result.rows.length ? `${table(headers, result.rows.map(row))}\n\n${pageLine(result)}` : 'No invoice requests.'),
  }),
  handle(invoiceCommands.issue, {
    readFiles(rest) {
      const [order = '', flag, path] = rest;
      if (rest.length !== 3 || flag !== '--file' || !path) throw new UsageError('invoice issue takes an order number (20 digits) and --file <invoice.pdf>');
      try {
        const attachment = readFileSync(path);
        if (attachment.length > invoiceFileMaxBytes) throw new UsageError(`${path} is larger than ${invoiceFileMaxBytes / 1024 / 1024} MB`);
        return { rest: [order], attachment };
      } catch (error) {
        throw error instanceof UsageError ? error : new UsageError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    run: (app, { order }, caller) =>
      step(app, caller, 'invoice issue', order, () => issueInvoice(app.db, app.uploads.store('invoices'), caller.actor, order, caller.attachment)),
    ...stepText,
  }),
  handle(invoiceCommands.refuse, {
    run: (app, { order, reason }, caller) => step(app, caller, 'invoice refuse', order, () => refuseInvoice(app.db, caller.actor, order, reason)),
    ...stepText,
  }),
];
