/**
 * The operators' commands about invoices (contract/invoices.ts): `invoice
 * list` of the requests, `invoice issue` with the issued PDF — the console's
 * upload, or at the shell `--file`, which the CLI reads on the operator's side
 * (the handler's `readFiles`) and sends as the attachment — and `invoice
 * refuse` with the reason the customer is told.
 */
import * as z from 'zod/mini';
import { command, UsageError } from '../command.ts';
import { OrderState } from '../commerce.ts';
import { text } from '../fields.ts';
import { listArgs, listPage, listWords } from '../list.ts';
import { invoiceReasonMaxLength, InvoiceState, InvoiceTitleType } from '../invoices.ts';

const OrderKey = text(z.regex(/^\d{20}$/, 'an order number is 20 digits'));

/** A request as operators see it: its order (and whether money went back: `refunded`, in fen, flags it), the title, and who decided it. */
export const ListedInvoice = z.object({
  id: z.int(),
  orderKey: text(),
  userId: z.nullable(z.int()),
  orderState: OrderState,
  /** The order's price and what of it was refunded so far, in fen: a refunded order's request is flagged. */
  price: z.int(),
  refunded: z.int(),
  state: InvoiceState,
  titleType: InvoiceTitleType,
  title: text(),
  taxNumber: z.nullable(text()),
  email: text(),
  refusalReason: z.nullable(text()),
  /** Whether the issued file is kept. */
  hasFile: z.boolean(),
  requestedAt: z.iso.datetime(),
  decidedBy: z.nullable(text()),
  decidedAt: z.nullable(z.iso.datetime()),
});
export type ListedInvoice = z.infer<typeof ListedInvoice>;

/** `invoice issue` and `invoice refuse`: the request as it is now and whether its customer was e-mailed, or why nothing was done. */
const InvoiceStep = {
  key: text(),
  invoice: z.nullable(ListedInvoice),
  refused: z.nullable(text()),
  emailed: z.boolean(),
};

/** What `invoice list` sorts by: when asked, the state, the order's price. */
export const invoiceSorts = ['asked', 'state', 'price'] as const;
export type InvoiceSort = (typeof invoiceSorts)[number];

export const invoiceCommands = {
  list: command({
    name: 'invoice list',
    role: 'support',
    usage: `invoice list [--state <state>] [--sort ${invoiceSorts.join('|')}] [--asc|--desc] [--page N] [--size N]
                                  invoice requests, newest first unless sorted; state is one of
                                  ${InvoiceState.options.join(', ')}`,
    args: z.strictObject({
      ...listArgs(invoiceSorts, 'asked'),
      state: z.optional(z.enum(InvoiceState.options, { error: `a state is one of ${InvoiceState.options.join(', ')}` })),
    }),
    words: listWords('invoice list', { '--state': 'state' }),
    result: listPage(ListedInvoice),
  }),
  issue: command({
    name: 'invoice issue',
    role: 'support',
    usage: `invoice issue <order> --file <invoice.pdf>
                                  attach the issued invoice (a PDF) to the order's open request;
                                  the customer is e-mailed and downloads it from the order's page`,
    // The file comes as the command's attachment: the console's upload, or what the CLI read for `--file`.
    args: z.strictObject({ order: OrderKey }),
    words(rest) {
      if (rest.length !== 1) throw new UsageError('invoice issue takes an order number (20 digits) and --file <invoice.pdf>');
      return { order: rest[0] };
    },
    result: InvoiceStep,
  }),
  refuse: command({
    name: 'invoice refuse',
    role: 'support',
    usage: `invoice refuse <order> <reason>  refuse the order's open request; the customer is e-mailed the
                                  reason and may ask again`,
    args: z.strictObject({ order: OrderKey, reason: text(z.trim(), z.minLength(1, 'a refusal needs a reason'), z.maxLength(invoiceReasonMaxLength)) }),
    words([order = '', ...reason]) {
      if (!order || reason.length === 0) throw new UsageError('invoice refuse takes an order number (20 digits) and a reason');
      return { order, reason: reason.join(' ') };
    },
    result: InvoiceStep,
  }),
};
