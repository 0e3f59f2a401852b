/**
 * The customer's invoice calls (contract/invoices.ts): the order's invoice,
 * asking for one, and downloading the issued PDF — which is only ever sent to
 * the order's owner, as an attachment, never cached on the way.
 */
import type { FastifyInstance } from 'fastify';
import { invoiceCalls } from '#contract/invoices.ts';
import { registerRoute } from '../../http/route.ts';
import { askInvoice, invoiceFile, orderInvoice } from './invoices.ts';

export function invoiceRoutes(app: FastifyInstance): void {
  const { db } = app;
  registerRoute(app, invoiceCalls.invoice, async ({ auth, params }) => ({ data: await orderInvoice(db, params.key, auth.userId) }));
  registerRoute(app, invoiceCalls.askInvoice, async ({ auth, params, body, request }) => ({
    data: await askInvoice(db, params.key, auth.userId, body, request.locale),
    messageKey: 'invoiceRequested' as const,
  }));
  registerRoute(app, invoiceCalls.invoiceFile, async ({ auth, params, reply }) => {
    const pdf = await invoiceFile(db, app.uploads.store('invoices'), params.key, auth.userId);
    reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="invoice-${params.key}.pdf"`)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff');
    return pdf;
  });
}
