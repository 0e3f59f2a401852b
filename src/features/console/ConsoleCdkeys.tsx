/** The console's cdkeys area: make a batch and hand out its keys, every batch in a sorted, paged, filtered list (kept in the URL), look a batch up, check a key, revoke either after a confirmation. */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { grantText } from '@/lib/grant-text.ts';
import { consoleIsland, type AreaProps } from './ConsoleGate.tsx';
import { batchesList, createCdkeys, emptyBatch, type BatchesPage, type BatchFilter, type BatchForm, type BatchSort } from './cdkeys-store.ts';
import { DataTable, type Column } from './DataTable.tsx';
import { useListUrl } from './list-url.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { browserConsole } from './environment.ts';
import { saveFile } from './save-file.ts';
import './console.css';

type T = AreaProps['t'];
type Cdkeys = ReturnType<typeof createCdkeys>;

function NewBatch({ cdkeys, t }: { cdkeys: Cdkeys; t: T }) {
  const products = useStore(cdkeys.$products);
  const busy = useStore(cdkeys.$busy);
  const [form, setForm] = useState<BatchForm>(emptyBatch);
  const field = (name: keyof BatchForm) => ({
    name,
    value: form[name],
    onChange: (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) => setForm({ ...form, [name]: event.currentTarget.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void cdkeys.create(form);
  };
  return (
    <section className="card" aria-labelledby="new-batch">
      <h2 id="new-batch">{t('console.cdkeys.newBatch')}</h2>
      <form className="form" onSubmit={submit}>
        <label>
          {t('console.cdkeys.name')}
          <input {...field('name')} required pattern="[a-z0-9\-]{1,40}" />
          <span className="hint">{t('console.cdkeys.nameHint')}</span>
        </label>
        <label>
          {t('console.cdkeys.count')}
          <input {...field('count')} inputMode="numeric" required />
        </label>
        <label>
          {t('console.cdkeys.grant')}
          <select {...field('kind')}>
            <option value="wallet">{t('console.cdkeys.kindWallet')}</option>
            <option value="membership">{t('console.cdkeys.kindDays')}</option>
            {products.length > 0 && <option value="steamRecharge">{t('console.cdkeys.kindSteam')}</option>}
          </select>
        </label>
        {form.kind === 'membership' ? (
          <label>
            {t('console.cdkeys.days')}
            <input {...field('days')} inputMode="numeric" required />
          </label>
        ) : (
          <>
            {form.kind === 'steamRecharge' && (
              <label>
                {t('console.cdkeys.product')}
                <select {...field('product')} required>
                  <option value="" />
                  {products.map((product) => (
                    <option key={product.Code} value={product.Code}>
                      {product.Code} ({product.Currency})
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label>
              {t(form.kind === 'wallet' ? 'console.cdkeys.amountYuan' : 'console.cdkeys.amount')}
              <input {...field('amount')} inputMode="decimal" required />
            </label>
          </>
        )}
        <label>
          {t('console.cdkeys.expires')}
          <input {...field('expires')} type="date" />
          <span className="hint">{t('console.cdkeys.expiresHint')}</span>
        </label>
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            {t('console.cdkeys.create')}
          </button>
        </div>
      </form>
    </section>
  );
}

function BatchView({ cdkeys, t, locale }: { cdkeys: Cdkeys; t: T; locale: LocaleCode }) {
  const batch = useStore(cdkeys.$batch);
  const keys = useStore(cdkeys.$keys);
  const busy = useStore(cdkeys.$busy);
  const [name, setName] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  const look = (event: FormEvent) => {
    event.preventDefault();
    void cdkeys.show(name, false);
  };
  return (
    <section className="card" aria-labelledby="batch">
      <h2 id="batch">{t('console.cdkeys.batch')}</h2>
      <form className="form" role="search" onSubmit={look}>
        <label>
          {t('console.cdkeys.name')}
          <span className="input-row">
            <input name="batch" value={name} onChange={(event) => setName(event.currentTarget.value)} required />
            <button type="submit" className="button" disabled={busy}>
              {t('console.customers.search')}
            </button>
          </span>
        </label>
      </form>
      {batch && (
        <div data-batch={batch.name}>
          <dl className="console-facts">
            <dt>{t('console.cdkeys.name')}</dt>
            <dd>{batch.name}</dd>
            <dt>{t('console.cdkeys.grant')}</dt>
            <dd>{grantText(batch.grant, locale, t)}</dd>
            <dt>{t('console.cdkeys.keys')}</dt>
            <dd data-batch-counts>{t('console.cdkeys.counts', { count: batch.count, used: batch.used, revoked: batch.revoked })}</dd>
            <dt>{t('console.cdkeys.expires')}</dt>
            <dd>{batch.expiresAt ? formatDateTime(batch.expiresAt, locale) : t('console.cdkeys.never')}</dd>
          </dl>
          {keys.length > 0 ? (
            <>
              <textarea
                className="console-keys"
                readOnly
                value={keys.join('\n')}
                rows={Math.min(keys.length, 8)}
                aria-label={t('console.cdkeys.unused')}
                data-keys
              />
              <button type="button" className="button" onClick={() => saveFile(`${batch.name}.txt`, `${keys.join('\n')}\n`, 'text/plain')}>
                {t('console.cdkeys.download')}
              </button>
            </>
          ) : (
            <button type="button" className="button" disabled={busy} onClick={() => void cdkeys.show(batch.name, true)}>
              {t('console.cdkeys.export')}
            </button>
          )}
          <div className="form-actions">
            <button type="button" className="button button-secondary" disabled={busy} onClick={() => dialog.current?.showModal()}>
              {t('console.cdkeys.revokeBatch')}
            </button>
          </div>
          <ConfirmDialog
            dialog={dialog}
            id="revoke-batch"
            question={t('console.cdkeys.confirmRevokeBatch', { name: batch.name })}
            confirm={t('console.cdkeys.revokeBatch')}
            cancel={t('console.orders.cancel')}
            onConfirm={() => void cdkeys.revokeBatch()}
            marker={{ 'data-confirm-revoke': true }}
          />
        </div>
      )}
    </section>
  );
}

function KeyCheck({ cdkeys, t, locale }: { cdkeys: Cdkeys; t: T; locale: LocaleCode }) {
  const state = useStore(cdkeys.$key);
  const busy = useStore(cdkeys.$busy);
  const [key, setKey] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  const check = (event: FormEvent) => {
    event.preventDefault();
    void cdkeys.check(key);
  };
  const found = state?.state;
  const when = (iso: string) => formatDateTime(iso, locale);
  return (
    <section className="card" aria-labelledby="key-check">
      <h2 id="key-check">{t('console.cdkeys.checkKey')}</h2>
      <form className="form" role="search" onSubmit={check}>
        <label>
          {t('console.cdkeys.key')}
          <span className="input-row">
            <input name="key" value={key} onChange={(event) => setKey(event.currentTarget.value)} required autoComplete="off" />
            <button type="submit" className="button" disabled={busy}>
              {t('console.cdkeys.check')}
            </button>
          </span>
        </label>
      </form>
      {found && (
        <div data-key-state={found.revokedAt ? 'revoked' : found.usedAt ? 'used' : 'unused'}>
          <p>
            {found.revokedAt
              ? t('console.cdkeys.keyRevoked', { date: when(found.revokedAt) })
              : found.usedAt
                ? t('console.cdkeys.keyUsed', { user: found.usedBy ?? '—', date: when(found.usedAt) })
                : t('console.cdkeys.keyUnused')}
          </p>
          <p className="muted">
            {t('console.cdkeys.ofBatch', { name: found.batch })} · {grantText(found.grant, locale, t)}
          </p>
          {!found.usedAt && !found.revokedAt && (
            <>
              <button type="button" className="button button-secondary" disabled={busy} onClick={() => dialog.current?.showModal()}>
                {t('console.cdkeys.revokeKey')}
              </button>
              <ConfirmDialog
                dialog={dialog}
                id="revoke-key"
                question={t('console.cdkeys.confirmRevokeKey')}
                confirm={t('console.cdkeys.revokeKey')}
                cancel={t('console.orders.cancel')}
                onConfirm={() => void cdkeys.revokeKey()}
                marker={{ 'data-confirm-revoke-key': true }}
              />
            </>
          )}
        </div>
      )}
    </section>
  );
}

/** The batches' columns: the name shows the batch; when made, the name, the keys and when they expire sort. */
function batchColumns(cdkeys: Cdkeys, t: T, locale: LocaleCode): Array<Column<BatchesPage['rows'][number], BatchSort>> {
  const when = (iso: string | null) => (iso ? <time dateTime={iso}>{formatDateTime(iso, locale)}</time> : t('console.cdkeys.never'));
  return [
    {
      key: 'name',
      label: t('console.cdkeys.name'),
      sort: 'name',
      cell: (batch) => (
        <button type="button" className="console-link" onClick={() => void cdkeys.show(batch.name, false)}>
          {batch.name}
        </button>
      ),
    },
    { key: 'grant', label: t('console.cdkeys.grant'), cell: (batch) => grantText(batch.grant, locale, t) },
    { key: 'count', label: t('console.cdkeys.keys'), sort: 'count', first: 'desc', numeric: true, cell: (batch) => batch.count },
    { key: 'used', label: t('console.cdkeys.used'), numeric: true, cell: (batch) => batch.used },
    { key: 'revoked', label: t('console.cdkeys.revokedCount'), numeric: true, cell: (batch) => batch.revoked },
    { key: 'expires', label: t('console.cdkeys.expires'), sort: 'expires', cell: (batch) => when(batch.expiresAt) },
    { key: 'created', label: t('console.cdkeys.made'), sort: 'created', first: 'desc', cell: (batch) => when(batch.createdAt) },
  ];
}

function BatchList({ cdkeys, t, locale }: { cdkeys: Cdkeys; t: T; locale: LocaleCode }) {
  const batches = useStore(cdkeys.$batches);
  const busy = useStore(cdkeys.list.$busy);
  const notice = useStore(cdkeys.list.$notice);
  const list = useListUrl(batchesList, (state) => void cdkeys.listBatches(state));
  const [filter, setFilter] = useState<BatchFilter>(list.state.filter);
  useEffect(() => setFilter(list.state.filter), [list.state.filter]);
  return (
    <section className="card console-wide" aria-labelledby="batches">
      <h2 id="batches">{t('console.cdkeys.batches')}</h2>
      <form
        className="form console-filter"
        data-filter
        onSubmit={(event) => {
          event.preventDefault();
          list.filter(filter);
        }}
      >
        <label>
          {t('console.cdkeys.name')}
          <input name="search" value={filter.search} onChange={(event) => setFilter({ ...filter, search: event.currentTarget.value })} maxLength={40} />
        </label>
        <label>
          {t('console.raffles.state')}
          <select name="state" value={filter.state} onChange={(event) => setFilter({ ...filter, state: event.currentTarget.value as BatchFilter['state'] })}>
            <option value="">{t('console.orders.any')}</option>
            <option value="current">{t('console.cdkeys.current')}</option>
            <option value="expired">{t('console.cdkeys.expired')}</option>
          </select>
        </label>
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            {t('console.orders.filter')}
          </button>
        </div>
      </form>
      <NoticeLine notice={notice} t={t} />
      <DataTable
        name="batches"
        caption={t('console.cdkeys.batches')}
        columns={batchColumns(cdkeys, t, locale)}
        page={batches}
        rowKey={(batch) => batch.name}
        list={list}
        busy={busy}
        locale={locale}
        t={t}
      />
    </section>
  );
}

function CdkeysArea({ t, locale }: { t: T; locale: LocaleCode }) {
  const [cdkeys] = useState(() => createCdkeys(browserConsole.run));
  const notice = useStore(cdkeys.$notice);
  useEffect(() => void cdkeys.loadProducts().catch(() => undefined), [cdkeys]);
  return (
    <>
      <NoticeLine notice={notice} t={t} />
      <div className="console-sections">
        <NewBatch cdkeys={cdkeys} t={t} />
        <BatchView cdkeys={cdkeys} t={t} locale={locale} />
        <KeyCheck cdkeys={cdkeys} t={t} locale={locale} />
        <BatchList cdkeys={cdkeys} t={t} locale={locale} />
      </div>
    </>
  );
}

export default consoleIsland(CdkeysArea);
