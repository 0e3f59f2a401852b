/**
 * The invoice part of an order's page: the request's state (with the refusal's
 * reason, or the issued PDF to download), and while one may be asked, the form:
 * made out to a person or a company (the tax number only for a company), the
 * e-mail prefilled from the account's.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { invoiceTitleMaxLength, type InvoiceAsk, type InvoiceRequest, type InvoiceTitleType } from '#contract/invoices.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import type { Translate } from '@/i18n/strings.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { invoiceEnvironment } from './invoice-environment.ts';
import { canAsk, createInvoice } from './invoice-store.ts';
import './OrderInvoice.css';

type T = Translate<KeysUnder<'account.invoice' | 'common.loading'> | FailureMessageKey>;
type Invoice = ReturnType<typeof createInvoice>;

function Request({ request, invoice, t, locale }: { request: InvoiceRequest; invoice: Invoice; t: T; locale: LocaleCode }) {
  return (
    <div className="invoice-request" data-invoice-request={request.State}>
      <p>
        <strong>{t(`account.invoice.state.${request.State}`)}</strong>
        <span className="muted"> · {t('account.invoice.requestedOn', { date: formatDateTime(request.RequestedAt, locale) })}</span>
      </p>
      <dl className="facts">
        <div>
          <dt>{t('account.invoice.title')}</dt>
          <dd>
            {request.Title} ({t(`account.invoice.${request.TitleType}`)})
          </dd>
        </div>
        {request.TaxNumber && (
          <div>
            <dt>{t('account.invoice.taxNumber')}</dt>
            <dd className="order-key">{request.TaxNumber}</dd>
          </div>
        )}
        <div>
          <dt>{t('account.invoice.email')}</dt>
          <dd>{request.Email}</dd>
        </div>
      </dl>
      {request.State === 'refused' && (
        <p data-invoice-reason>
          {t('account.invoice.reason', { reason: request.RefusalReason ?? '' })} {t('account.invoice.askAgain')}
        </p>
      )}
      {request.State === 'issued' && (
        <div className="form-actions">
          <button type="button" className="button" onClick={() => void invoice.download()} data-invoice-download>
            {t('account.invoice.download')}
          </button>
        </div>
      )}
    </div>
  );
}

function AskForm({ invoice, t, until, locale }: { invoice: Invoice; t: T; until: string; locale: LocaleCode }) {
  const busy = useStore(invoice.$busy);
  const user = useStore(invoiceEnvironment.$user);
  const [titleType, setTitleType] = useState<InvoiceTitleType>('personal');
  const [title, setTitle] = useState('');
  const [taxNumber, setTaxNumber] = useState('');
  const [email, setEmail] = useState<string | null>(null);
  const shownEmail = email ?? user?.Email ?? '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form: InvoiceAsk = { TitleType: titleType, Title: title, TaxNumber: taxNumber, Email: shownEmail.trim() };
    void invoice.ask(form);
  };
  return (
    <form className="form" onSubmit={submit} data-invoice-form>
      <p className="muted">
        {t('account.invoice.intro')} {t('account.invoice.until', { date: formatDateTime(until, locale) })}
      </p>
      <fieldset className="choice-group">
        <legend>{t('account.invoice.titleType')}</legend>
        {(['personal', 'company'] as const).map((type) => (
          <label className="choice" key={type}>
            <input type="radio" name="titleType" value={type} checked={titleType === type} onChange={() => setTitleType(type)} />
            <span>{t(`account.invoice.${type}`)}</span>
          </label>
        ))}
      </fieldset>
      <label>
        {t('account.invoice.title')}
        <input
          name="title"
          required
          maxLength={invoiceTitleMaxLength}
          autoComplete="organization"
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
        />
        <span className="hint">{t('account.invoice.titleHint')}</span>
      </label>
      {titleType === 'company' && (
        <label>
          {t('account.invoice.taxNumber')}
          <input
            name="taxNumber"
            required
            maxLength={24}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={taxNumber}
            onChange={(event) => setTaxNumber(event.currentTarget.value)}
          />
          <span className="hint">{t('account.invoice.taxNumberHint')}</span>
        </label>
      )}
      <label>
        {t('account.invoice.email')}
        <input
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          value={shownEmail}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        <span className="hint">{t('account.invoice.emailHint')}</span>
      </label>
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          {t('account.invoice.submit')}
        </button>
      </div>
    </form>
  );
}

export function OrderInvoice({ orderKey, t, locale }: { orderKey: string; t: T; locale: LocaleCode }) {
  const [invoice] = useState(() => createInvoice(invoiceEnvironment, orderKey));
  const current = useStore(invoice.$invoice);
  const notice = useStore(invoice.$notice);
  const loadNotice = useStore(invoice.$loadNotice);
  useEffect(() => void invoice.load(), [invoice]);

  const open = current ? canAsk(current, Date.now()) : false;
  return (
    <section className="card" aria-labelledby="invoice-heading" data-invoice={current?.Request?.State ?? 'none'}>
      <h2 id="invoice-heading">{t('account.invoice.heading')}</h2>
      <NoticeLine notice={loadNotice} t={t} />
      {!current ? (
        !loadNotice && <Loading text={t('common.loading')} announce={false} />
      ) : (
        <>
          {current.Request && <Request request={current.Request} invoice={invoice} t={t} locale={locale} />}
          {open && current.AskUntil && <AskForm invoice={invoice} t={t} until={current.AskUntil} locale={locale} />}
          {!open && !current.Request && <p className="muted">{t(current.AskUntil ? 'account.invoice.expired' : 'account.invoice.unavailable')}</p>}
        </>
      )}
      <NoticeLine notice={notice} t={t} />
    </section>
  );
}
