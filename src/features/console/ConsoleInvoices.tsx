/**
 * The console's invoices area: the customers' requests in a sorted, paged
 * table (a refunded order's flagged), filtered by state; one opened shows its
 * title, tax number and e-mail, and a support user issues it with the PDF or
 * refuses it with the reason the customer reads. Both are audited.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { invoiceCommands, type ListedInvoice, type InvoiceSort } from '#contract/commands/invoices.ts';
import { roleIncludes } from '#contract/console.ts';
import { formatPrice } from '#contract/facts.ts';
import { invoiceFileMaxBytes, invoiceReasonMaxLength, InvoiceState } from '#contract/invoices.ts';
import { NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { consoleIsland, type AreaProps } from './ConsoleGate.tsx';
import { DataTable, type Column } from './DataTable.tsx';
import { browserConsole } from './environment.ts';
import { createInvoices, invoicesList, type InvoiceFilter } from './invoices-store.ts';
import { useListUrl } from './list-url.ts';
import './console.css';
import './ConsoleInvoices.css';

type T = AreaProps['t'];
type Invoices = ReturnType<typeof createInvoices>;
const megabytes = invoiceFileMaxBytes / 1024 / 1024;

/** A refunded order's request, flagged: what went back, or all of it. */
function RefundFlag({ invoice, t, locale }: { invoice: ListedInvoice; t: T; locale: LocaleCode }) {
  if (invoice.refunded === 0 && invoice.orderState !== 'refunded') return null;
  return (
    <span className="badge badge-red" data-refunded>
      {t('console.invoices.refundedFlag', { amount: formatPrice(invoice.refunded, locale) })}
    </span>
  );
}

function columns(open: (invoice: ListedInvoice) => void, t: T, locale: LocaleCode): Array<Column<ListedInvoice, InvoiceSort>> {
  return [
    {
      key: 'order',
      label: t('console.invoices.order'),
      cell: (row) => (
        <button type="button" className="console-link" onClick={() => open(row)} data-open-invoice={row.orderKey}>
          <span className="order-key">{row.orderKey}</span>
        </button>
      ),
    },
    {
      key: 'asked',
      label: t('console.invoices.asked'),
      sort: 'asked',
      first: 'desc',
      cell: (row) => <time dateTime={row.requestedAt}>{formatDateTime(row.requestedAt, locale)}</time>,
    },
    {
      key: 'state',
      label: t('console.invoices.state'),
      sort: 'state',
      cell: (row) => (
        <>
          {t(`console.invoices.stateName.${row.state}`)} <RefundFlag invoice={row} t={t} locale={locale} />
        </>
      ),
    },
    { key: 'title', label: t('console.invoices.title'), cell: (row) => row.title },
    { key: 'price', label: t('console.invoices.price'), sort: 'price', first: 'desc', numeric: true, cell: (row) => formatPrice(row.price, locale) },
  ];
}

function Decide({ invoices, invoice, t }: { invoices: Invoices; invoice: ListedInvoice; t: T }) {
  const busy = useStore(invoices.$deciding);
  const [file, setFile] = useState<File | null>(null);
  const [reason, setReason] = useState('');
  const issue = (event: FormEvent) => {
    event.preventDefault();
    if (file) void invoices.issue(invoice.orderKey, { size: file.size, bytes: async () => new Uint8Array(await file.arrayBuffer()) });
  };
  const refuse = (event: FormEvent) => {
    event.preventDefault();
    void invoices.refuse(invoice.orderKey, reason);
  };
  return (
    <div className="console-invoice-decide">
      <form className="form" onSubmit={issue} data-issue-form>
        <label>
          {t('console.invoices.file')}
          <input name="file" type="file" accept="application/pdf,.pdf" required onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />
          <span className="hint">{t('console.invoices.fileHint', { megabytes })}</span>
        </label>
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy || !file}>
            {t('console.invoices.issue')}
          </button>
        </div>
      </form>
      <form className="form" onSubmit={refuse} data-refuse-form>
        <label>
          {t('console.invoices.reason')}
          <textarea
            name="reason"
            required
            rows={3}
            maxLength={invoiceReasonMaxLength}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
        </label>
        <div className="form-actions">
          <button type="submit" className="button button-secondary" disabled={busy || !reason.trim()}>
            {t('console.invoices.refuse')}
          </button>
        </div>
      </form>
    </div>
  );
}

function Opened({ invoices, invoice, t, locale }: { invoices: Invoices; invoice: ListedInvoice; t: T; locale: LocaleCode }) {
  const session = useStore(browserConsole.$session);
  const notice = useStore(invoices.$notice);
  const mayDecide = session !== null && roleIncludes(session.Role, invoiceCommands.issue.role!);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from the list below it: the request comes into view, and the keyboard's focus with it.
  useEffect(() => heading.current?.focus(), [invoice.id]);
  return (
    <section className="card console-wide console-invoice" aria-labelledby="invoice-heading" data-invoice={invoice.orderKey} data-state={invoice.state}>
      <h2 id="invoice-heading" ref={heading} tabIndex={-1}>
        {t('console.invoices.order')} <span className="order-key">{invoice.orderKey}</span>
      </h2>
      <p>
        <strong>{t(`console.invoices.stateName.${invoice.state}`)}</strong> <RefundFlag invoice={invoice} t={t} locale={locale} />
      </p>
      <dl className="facts">
        <div>
          <dt>{t('console.invoices.title')}</dt>
          <dd>
            {invoice.title} ({t(`console.invoices.${invoice.titleType}`)})
          </dd>
        </div>
        {invoice.taxNumber && (
          <div>
            <dt>{t('console.invoices.taxNumber')}</dt>
            <dd className="order-key">{invoice.taxNumber}</dd>
          </div>
        )}
        <div>
          <dt>{t('console.invoices.email')}</dt>
          <dd>{invoice.email}</dd>
        </div>
        <div>
          <dt>{t('console.invoices.customer')}</dt>
          <dd>{invoice.userId ?? '–'}</dd>
        </div>
        <div>
          <dt>{t('console.invoices.price')}</dt>
          <dd>{formatPrice(invoice.price, locale)}</dd>
        </div>
        <div>
          <dt>{t('console.invoices.asked')}</dt>
          <dd>
            <time dateTime={invoice.requestedAt}>{formatDateTime(invoice.requestedAt, locale)}</time>
          </dd>
        </div>
        {invoice.decidedAt && (
          <div>
            <dt>{t('console.invoices.decidedLabel')}</dt>
            <dd>{t('console.invoices.decided', { time: formatDateTime(invoice.decidedAt, locale), by: invoice.decidedBy ?? '' })}</dd>
          </div>
        )}
      </dl>
      {invoice.refusalReason && <p>{t('console.invoices.reasonShown', { reason: invoice.refusalReason })}</p>}
      <NoticeLine notice={notice} t={t} />
      {invoice.state === 'requested' && mayDecide && <Decide key={invoice.id} invoices={invoices} invoice={invoice} t={t} />}
    </section>
  );
}

function InvoicesArea({ t, locale }: { t: T; locale: LocaleCode }) {
  const [invoices] = useState(() => createInvoices(browserConsole.run));
  const page = useStore(invoices.$page);
  const opened = useStore(invoices.$open);
  const busy = useStore(invoices.$busy);
  const listNotice = useStore(invoices.$listNotice);
  const list = useListUrl(invoicesList, (state) => void invoices.list(state));
  const [filter, setFilter] = useState<InvoiceFilter>(list.state.filter);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invoices.open(null);
    list.filter(filter);
  };
  return (
    <div className="console-sections">
      {opened && <Opened invoices={invoices} invoice={opened} t={t} locale={locale} />}
      <section className="card console-wide" aria-labelledby="invoices-list">
        <h2 id="invoices-list">{t('console.nav.invoices')}</h2>
        <form className="form console-filter" onSubmit={submit} data-filter>
          <label>
            {t('console.invoices.filter')}
            <select name="state" value={filter.state} onChange={(event) => setFilter({ state: event.currentTarget.value as InvoiceFilter['state'] })}>
              <option value="">{t('console.invoices.any')}</option>
              {InvoiceState.options.map((state) => (
                <option key={state} value={state}>
                  {t(`console.invoices.stateName.${state}`)}
                </option>
              ))}
            </select>
          </label>
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy}>
              {t('console.invoices.show')}
            </button>
          </div>
        </form>
        <NoticeLine notice={listNotice} t={t} />
        <DataTable
          name="invoices"
          caption={t('console.nav.invoices')}
          columns={columns(invoices.open, t, locale)}
          page={page}
          rowKey={(row) => row.id}
          list={list}
          busy={busy}
          locale={locale}
          t={t}
        />
      </section>
    </div>
  );
}

export default consoleIsland(InvoicesArea);
