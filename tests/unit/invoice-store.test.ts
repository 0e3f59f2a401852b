/**
 * The invoice parts of the order's page and of the console in Node
 * (src/features/account/invoice-store.ts, src/features/console/invoices-store.ts):
 * a request is asked only with a title and, for a company, a valid tax number
 * (typed with spaces and small letters, sent as the code); the form shows while
 * the period lasts and nothing is open; the issued file is saved under the
 * order's name. The console checks a PDF's header and the size cap before
 * sending it, as the command's attachment, and shows the decided request in
 * place of the one listed.
 */
import { atom } from 'nanostores';
import { describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { invoiceCommands, type ListedInvoice } from '#contract/commands/invoices.ts';
import { invoiceCalls, invoiceFileMaxBytes, type OrderInvoice } from '#contract/invoices.ts';
import { canAsk, createInvoice } from '@/features/account/invoice-store.ts';
import type { InvoiceEnvironment } from '@/features/account/invoice-environment.ts';
import { base64Of, createInvoices } from '@/features/console/invoices-store.ts';
import type { RunCommand } from '@/features/console/console-store.ts';

const key = '20260101000000000001';
const asked: OrderInvoice = {
  Request: {
    State: 'requested',
    TitleType: 'company',
    Title: 'Test Co.',
    TaxNumber: '9144030071526726XG',
    Email: 'a@example.com',
    RefusalReason: null,
    RequestedAt: '2026-01-02T00:00:00.000Z',
    DecidedAt: null,
  },
  AskUntil: '2026-07-01T00:00:00.000Z',
};

function customerWorld() {
  const calls: Array<{ route: ApiRoute; body?: unknown }> = [];
  const saved: string[] = [];
  const env: InvoiceEnvironment = {
    call: vi.fn(async (route: ApiRoute, options?: { body?: unknown }) => {
      calls.push({ route, body: options?.body });
      return asked;
    }) as never,
    download: vi.fn(async () => new Blob(['%PDF-1.4'])),
    save: (_file, name) => saved.push(name),
    $user: atom(null),
  };
  return { env, calls, saved };
}

describe('the order page’s invoice', () => {
  it('asks for a company’s invoice with the tax number as the code, and shows the request', async () => {
    const world = customerWorld();
    const store = createInvoice(world.env, key);
    expect(await store.ask({ TitleType: 'company', Title: 'Test Co.', TaxNumber: ' 9144 0300 7152 6726xg', Email: 'a@example.com' })).toBe(true);
    expect(world.calls).toEqual([
      { route: invoiceCalls.askInvoice, body: { TitleType: 'company', Title: 'Test Co.', TaxNumber: '9144030071526726XG', Email: 'a@example.com' } },
    ]);
    expect(store.$invoice.get()).toEqual(asked);
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'account.invoice.asked' });
  });

  it('refuses an empty title and a wrong tax number before any call, and sends a person’s without one', async () => {
    const world = customerWorld();
    const store = createInvoice(world.env, key);
    expect(await store.ask({ TitleType: 'personal', Title: '  ', Email: 'a@example.com' })).toBe(false);
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'account.invoice.titleRequired' });
    expect(await store.ask({ TitleType: 'company', Title: 'Test Co.', TaxNumber: '9144030071526726XH', Email: 'a@example.com' })).toBe(false);
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'account.invoice.taxNumberInvalid' });
    expect(world.calls).toEqual([]);
    await store.ask({ TitleType: 'personal', Title: 'Li Lei', TaxNumber: 'typed anyway', Email: 'a@example.com' });
    expect(world.calls[0].body).toMatchObject({ TitleType: 'personal', TaxNumber: undefined });
  });

  it('offers the form within the period while nothing is open, and again after a refusal', () => {
    const now = Date.parse('2026-03-01T00:00:00Z');
    expect(canAsk({ Request: null, AskUntil: asked.AskUntil }, now)).toBe(true);
    expect(canAsk(asked, now)).toBe(false);
    expect(canAsk({ ...asked, Request: { ...asked.Request!, State: 'refused' } }, now)).toBe(true);
    expect(canAsk({ Request: null, AskUntil: asked.AskUntil }, Date.parse('2026-08-01T00:00:00Z'))).toBe(false);
    expect(canAsk({ Request: null, AskUntil: null }, now)).toBe(false);
  });

  it('saves the issued file under the order’s name', async () => {
    const world = customerWorld();
    await createInvoice(world.env, key).download();
    expect(world.env.download).toHaveBeenCalledWith(invoiceCalls.invoiceFile, { params: { key } });
    expect(world.saved).toEqual([`invoice-${key}.pdf`]);
  });
});

const listed: ListedInvoice = {
  id: 7,
  orderKey: key,
  userId: 3,
  orderState: 'paid',
  price: 1500,
  refunded: 0,
  state: 'requested',
  titleType: 'company',
  title: 'Test Co.',
  taxNumber: '9144030071526726XG',
  email: 'a@example.com',
  refusalReason: null,
  hasFile: false,
  requestedAt: '2026-01-02T00:00:00.000Z',
  decidedBy: null,
  decidedAt: null,
};

describe('the console’s invoices', () => {
  const pdf = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');

  it('issues with the PDF as the attachment and shows the issued request in the list', async () => {
    const issued = { ...listed, state: 'issued' as const, hasFile: true };
    const run = vi.fn(async (command: { name: string }) =>
      command.name === 'invoice list' ? { rows: [listed], total: 1, page: 1, size: 25 } : { invoice: issued, refused: null, emailed: true },
    );
    const store = createInvoices(run as unknown as RunCommand);
    await store.list({ query: { sort: 'asked', dir: 'desc', page: 1, size: 25 }, filter: { state: 'requested' } });
    expect(run).toHaveBeenLastCalledWith(invoiceCommands.list, { sort: 'asked', dir: 'desc', page: 1, size: 25, state: 'requested' });
    store.open(listed);
    await store.issue(key, { size: pdf.length, bytes: async () => pdf });
    expect(run).toHaveBeenLastCalledWith(invoiceCommands.issue, { order: key }, base64Of(pdf));
    expect(store.$page.get()?.rows).toEqual([issued]);
    expect(store.$open.get()).toEqual(issued);
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'console.invoices.issuedDone' });
  });

  it('refuses a file that is no PDF, or too large, without sending it', async () => {
    const run = vi.fn();
    const store = createInvoices(run as unknown as RunCommand);
    await store.issue(key, { size: 10, bytes: async () => new TextEncoder().encode('<html>') });
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'console.invoices.notPdf' });
    await store.issue(key, { size: invoiceFileMaxBytes + 1, bytes: async () => pdf });
    expect(store.$notice.get()).toMatchObject({ kind: 'error', key: 'console.invoices.tooLarge' });
    expect(run).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal in its own words, and says when the customer could not be e-mailed', async () => {
    const run = vi.fn(async () => ({ invoice: null, refused: 'This order has no invoice request waiting.', emailed: false }));
    const store = createInvoices(run as unknown as RunCommand);
    await store.refuse(key, '  Wrong name  ');
    expect(run).toHaveBeenCalledWith(invoiceCommands.refuse, { order: key, reason: 'Wrong name' });
    expect(store.$notice.get()).toEqual({ kind: 'error', text: 'This order has no invoice request waiting.' });
    run.mockResolvedValueOnce({ invoice: { ...listed, state: 'refused' }, refused: null, emailed: false } as never);
    await store.refuse(key, 'Wrong name');
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'console.invoices.notEmailed' });
  });
});
