/**
 * An order's invoice on its page (`order/detail?key=`): the latest request and
 * until when one may be asked for, asking (the title and tax number checked
 * here first, with the words the server would use), and downloading the issued
 * PDF, which only the order's owner gets.
 */
import { atom } from 'nanostores';
import { invoiceCalls, isCreditCode, normalTaxNumber, type InvoiceAsk, type OrderInvoice } from '#contract/invoices.ts';
import { createAction } from '@/stores/action.ts';
import type { InvoiceEnvironment } from './invoice-environment.ts';

type InvoiceNotice = 'account.invoice.asked' | 'account.invoice.titleRequired' | 'account.invoice.taxNumberInvalid';

/** Whether a request may be asked now: within the period, and none open or issued. */
export function canAsk(invoice: OrderInvoice, now: number): boolean {
  const open = invoice.Request && invoice.Request.State !== 'refused';
  return !open && invoice.AskUntil !== null && Date.parse(invoice.AskUntil) > now;
}

export function createInvoice(env: InvoiceEnvironment, key: string) {
  const $invoice = atom<OrderInvoice | null>(null);
  const action = createAction<InvoiceNotice>();
  const fetching = createAction();

  async function load(): Promise<void> {
    await fetching.run(async () => $invoice.set(await env.call(invoiceCalls.invoice, { params: { key } })));
  }

  async function ask(form: InvoiceAsk): Promise<boolean> {
    if (!form.Title.trim()) return (void action.refuse('account.invoice.titleRequired'), false);
    const company = form.TitleType === 'company';
    if (company && !isCreditCode(normalTaxNumber(form.TaxNumber ?? ''))) return (void action.refuse('account.invoice.taxNumberInvalid'), false);
    const body = { ...form, TaxNumber: company ? normalTaxNumber(form.TaxNumber ?? '') : undefined };
    const asked = await action.run(() => env.call(invoiceCalls.askInvoice, { params: { key }, body }), 'account.invoice.asked');
    if (asked) $invoice.set(asked);
    return asked !== undefined;
  }

  async function download(): Promise<void> {
    await fetching.run(async () => env.save(await env.download(invoiceCalls.invoiceFile, { params: { key } }), `invoice-${key}.pdf`));
  }

  return { $invoice, $busy: action.$busy, $notice: action.$notice, $loadNotice: fetching.$notice, load, ask, download };
}
