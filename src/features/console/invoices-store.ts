/**
 * The console's invoices area: the customers' invoice requests as a sorted,
 * paged list (its state filter, sort and page in the URL), one opened, and
 * the two decisions — issuing it with the PDF (checked here first: a PDF's
 * header, the size cap), or refusing it with the reason the customer reads.
 */
import { atom } from 'nanostores';
import { invoiceCommands, invoiceSorts, type InvoiceSort, type ListedInvoice } from '#contract/commands/invoices.ts';
import { invoiceFileMaxBytes } from '#contract/invoices.ts';
import { listSize } from '#contract/list.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';
import type { ListStart, ListState } from './list-url.ts';

export type InvoiceFilter = { state: '' | ListedInvoice['state'] };

export const invoicesList: ListStart<InvoiceSort, InvoiceFilter> = {
  columns: invoiceSorts,
  // What waits for an operator first.
  start: { query: { sort: 'asked', dir: 'desc', page: 1, size: listSize.default }, filter: { state: 'requested' } },
};

type DecisionNotice =
  'console.invoices.issuedDone' | 'console.invoices.refusedDone' | 'console.invoices.notEmailed' | 'console.invoices.notPdf' | 'console.invoices.tooLarge';

/** What a PDF starts with (`%PDF-`). */
const pdfMagic = [0x25, 0x50, 0x44, 0x46, 0x2d];

/** Bytes as base64, for a command's attachment. */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function createInvoices(run: RunCommand) {
  const $page = atom<{ rows: ListedInvoice[]; total: number } | null>(null);
  const $open = atom<ListedInvoice | null>(null);
  const listing = createAction();
  const deciding = createAction<DecisionNotice>();

  async function list({ query, filter }: ListState<InvoiceSort, InvoiceFilter>): Promise<void> {
    await listing.run(async () => {
      const { rows, total } = await run(invoiceCommands.list, { ...query, state: filter.state || undefined });
      $page.set({ rows, total });
    });
  }

  const open = (invoice: ListedInvoice | null) => {
    deciding.clear();
    $open.set(invoice);
  };

  /** The decided request in place of the one listed; the outcome as the notice. */
  function decided(result: { invoice: ListedInvoice | null; refused: string | null; emailed: boolean }, done: DecisionNotice) {
    if (!result.invoice) return deciding.$notice.set({ kind: 'error', text: result.refused ?? '' });
    const invoice = result.invoice;
    const page = $page.get();
    if (page) $page.set({ ...page, rows: page.rows.map((row) => (row.id === invoice.id ? invoice : row)) });
    $open.set(invoice);
    if (result.emailed) deciding.say('ok', done);
    else deciding.say('error', 'console.invoices.notEmailed');
  }

  async function issue(orderKey: string, file: { size: number; bytes: () => Promise<Uint8Array> }): Promise<void> {
    if (file.size > invoiceFileMaxBytes) return deciding.refuse('console.invoices.tooLarge', { megabytes: invoiceFileMaxBytes / 1024 / 1024 });
    const bytes = await file.bytes();
    if (!pdfMagic.every((byte, i) => bytes[i] === byte)) return deciding.refuse('console.invoices.notPdf');
    const result = await deciding.run(() => run(invoiceCommands.issue, { order: orderKey }, base64Of(bytes)));
    if (result) decided(result, 'console.invoices.issuedDone');
  }

  async function refuse(orderKey: string, reason: string): Promise<void> {
    const result = await deciding.run(() => run(invoiceCommands.refuse, { order: orderKey, reason: reason.trim() }));
    if (result) decided(result, 'console.invoices.refusedDone');
  }

  return {
    $page,
    $open,
    $busy: listing.$busy,
    $listNotice: listing.$notice,
    $deciding: deciding.$busy,
    $notice: deciding.$notice,
    list,
    open,
    issue,
    refuse,
  };
}
