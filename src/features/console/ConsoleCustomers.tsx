/** The console's customers area: every customer in a sorted, paged, searchable list (kept in the URL); find one, and read their profile, identities, sessions, logins, wallet and orders. */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { roleIncludes } from '#contract/console.ts';
import { formatMonths, formatPrice } from '#contract/facts.ts';
import { NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import type { UiKey } from '@/i18n/strings.ts';
import { grantText } from '@/lib/grant-text.ts';
import { itemText, orderStatus } from '@/lib/order-text.ts';
import { consoleIsland, type AreaProps } from './ConsoleGate.tsx';
import { createCustomers, customersList, type CustomerView, type UserFilter, type UserSort, type UsersPage } from './customers-store.ts';
import { DataTable, type Column } from './DataTable.tsx';
import { useListUrl } from './list-url.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { browserConsole } from './environment.ts';
import './console.css';

function Customer({
  view,
  t,
  locale,
  endSession,
}: {
  view: CustomerView;
  t: (key: UiKey, params?: Record<string, string | number>) => string;
  locale: LocaleCode;
  /** Signs a device out, for a role that may (null: this one may not). */
  endSession: ((sessionId: string) => void) | null;
}) {
  const { user, wallet, orders, redemptions, raffles } = view;
  const dialog = useRef<HTMLDialogElement>(null);
  const [ending, setEnding] = useState<{ id: string; device: string } | null>(null);
  const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso, locale)}</time>;
  return (
    <div className="console-sections" data-customer={user.id}>
      <section className="card" aria-labelledby="customer-profile">
        <h2 id="customer-profile">{t('console.customers.profile')}</h2>
        <dl className="console-facts">
          <dt>{t('console.customers.id')}</dt>
          <dd>{user.id}</dd>
          <dt>{t('console.customers.nickname')}</dt>
          <dd>{user.nickname}</dd>
          <dt>{t('console.customers.phone')}</dt>
          <dd>{user.phone ?? '—'}</dd>
          <dt>{t('console.customers.email')}</dt>
          <dd>{user.email ?? '—'}</dd>
          <dt>{t('console.customers.password')}</dt>
          <dd>{t(user.hasPassword ? 'console.customers.passwordSet' : 'console.customers.passwordNotSet')}</dd>
          <dt>{t('console.customers.since')}</dt>
          <dd>{when(user.createdAt)}</dd>
        </dl>
      </section>

      <section className="card" aria-labelledby="customer-wallet">
        <h2 id="customer-wallet">{t('console.customers.wallet')}</h2>
        {wallet && (
          <>
            <p>
              <strong data-balance>{formatPrice(wallet.balance, locale)}</strong>
              {' · '}
              {wallet.planUntil ? t('console.customers.planUntil', { date: formatDateTime(wallet.planUntil, locale) }) : t('console.customers.noPlan')}
            </p>
            {wallet.ledger.length === 0 ? (
              <p className="muted">{t('console.customers.noLedger')}</p>
            ) : (
              <ul className="item-list" data-ledger>
                {wallet.ledger.map((entry) => (
                  <li key={entry.Id}>
                    <span className="item-main">
                      <strong>{t(`account.wallet.reason.${entry.Reason}`)}</strong>
                      <span className="muted">
                        {when(entry.At)}
                        {entry.Order && <> · {entry.Order}</>}
                      </span>
                    </span>
                    <span className="item-main">
                      <span>{`${entry.Delta > 0 ? '+' : '−'}${formatPrice(Math.abs(entry.Delta), locale)}`}</span>
                      <span className="muted">{formatPrice(entry.BalanceAfter, locale)}</span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </section>

      <section className="card" aria-labelledby="customer-orders">
        <h2 id="customer-orders">{t('console.customers.orders')}</h2>
        {orders.length === 0 ? (
          <p className="muted">{t('console.customers.noOrders')}</p>
        ) : (
          <ul className="item-list" data-orders>
            {orders.map((order) => (
              <li key={order.Key}>
                <span className="item-main">
                  <a href={`${localizePath(locale, '/admin/orders')}?key=${order.Key}`}>
                    <span className="order-key">{order.Key}</span>
                  </a>
                  <span className="muted">
                    {itemText(order.Item, locale, t)} · {when(order.CreatedAt)}
                  </span>
                </span>
                <span className="item-main">
                  <strong>{formatPrice(order.Price, locale)}</strong>
                  <span className="muted">{t(`account.order.state.${orderStatus(order)}`)}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="customer-more">
        <h2 id="customer-more">{t('console.customers.more')}</h2>
        <h3>{t('account.agreements.title')}</h3>
        {!wallet?.agreements.length ? (
          <p className="muted">{t('console.customers.none')}</p>
        ) : (
          <ul className="item-list" data-agreements>
            {wallet.agreements.map((agreement) => (
              <li key={agreement.Key}>
                <span className="item-main">
                  <strong>
                    {t('account.agreements.plan', { price: formatPrice(agreement.Price, locale), period: formatMonths(agreement.Months, locale) })}
                  </strong>
                  <span className="muted">
                    {agreement.Key} · {when(agreement.CreatedAt)}
                  </span>
                </span>
                <span className="muted">{t(`account.agreements.state.${agreement.State}`)}</span>
              </li>
            ))}
          </ul>
        )}
        <h3>{t('console.customers.redemptions')}</h3>
        {redemptions.length === 0 ? (
          <p className="muted">{t('console.customers.none')}</p>
        ) : (
          <ul className="item-list" data-redemptions>
            {redemptions.map((redemption) => (
              <li key={redemption.Key + redemption.At}>
                <span className="item-main">
                  <strong>{grantText(redemption.Grant, locale, t)}</strong>
                  <span className="muted">
                    {redemption.Key} · {redemption.Batch}
                  </span>
                </span>
                <span className="muted">{when(redemption.At)}</span>
              </li>
            ))}
          </ul>
        )}
        <h3>{t('console.customers.raffles')}</h3>
        {raffles.length === 0 ? (
          <p className="muted">{t('console.customers.none')}</p>
        ) : (
          <ul className="item-list" data-raffle-entries>
            {raffles.map((entry) => (
              <li key={entry.raffleId}>
                <span className="item-main">
                  <strong>
                    #{entry.raffleId} {entry.title}
                  </strong>
                  <span className="muted">
                    {t('console.customers.raffleNumber', { number: entry.number })} · {when(entry.at)}
                  </span>
                </span>
                <span className="muted">
                  {entry.prize
                    ? `${entry.prize} · ${entry.claimedAt ? t('console.raffles.claimed', { date: formatDateTime(entry.claimedAt, locale) }) : t('console.raffles.unclaimed')}`
                    : t('console.customers.noPrize')}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="customer-access">
        <h2 id="customer-access">{t('console.customers.access')}</h2>
        <h3>{t('console.customers.identities')}</h3>
        {user.externalAccounts.length === 0 ? (
          <p className="muted">{t('console.customers.none')}</p>
        ) : (
          <ul className="item-list">
            {user.externalAccounts.map((account) => (
              <li key={account.id}>
                <span className="item-main">
                  <strong>{t(`account.safe.method.${account.provider}` as UiKey)}</strong>
                  <span className="muted">{account.displayName}</span>
                </span>
                <span className="muted">{when(account.boundAt)}</span>
              </li>
            ))}
          </ul>
        )}
        <h3>{t('console.customers.sessions')}</h3>
        {user.activeSessions.length === 0 ? (
          <p className="muted">{t('console.customers.none')}</p>
        ) : (
          <ul className="item-list" data-sessions>
            {user.activeSessions.map((session) => (
              <li key={session.id}>
                <span className="item-main">
                  <strong>{session.device}</strong>
                  <span className="muted">{t('console.customers.signedIn', { date: formatDateTime(session.createdAt, locale) })}</span>
                </span>
                <span className="item-main">
                  <span className="muted">{t('console.customers.lastSeen', { date: formatDateTime(session.lastSeenAt, locale) })}</span>
                  {endSession && (
                    <button
                      type="button"
                      className="button button-secondary button-small"
                      onClick={() => {
                        setEnding({ id: session.id, device: session.device });
                        dialog.current?.showModal();
                      }}
                    >
                      {t('console.customers.endSession')}
                    </button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
        <ConfirmDialog
          dialog={dialog}
          id="end-session"
          question={t('console.customers.confirmEndSession', { device: ending?.device ?? '' })}
          confirm={t('console.customers.endSession')}
          cancel={t('console.orders.cancel')}
          onConfirm={() => {
            if (ending) endSession?.(ending.id);
          }}
          marker={{ 'data-confirm-end-session': true }}
        />
        <h3>{t('console.customers.logins')}</h3>
        {user.loginHistory.length === 0 ? (
          <p className="muted">{t('console.customers.none')}</p>
        ) : (
          <ul className="item-list" data-logins>
            {user.loginHistory.map((login) => (
              <li key={login.At + login.Address}>
                <span className="item-main">
                  <strong>{t(`account.safe.method.${login.Method}`)}</strong>
                  <span className="muted">
                    {when(login.At)} · {login.Address} · {login.Device}
                  </span>
                </span>
                <span className={login.Success ? 'muted' : 'console-failed'}>
                  {t(login.Success ? 'console.customers.loginOk' : 'console.customers.loginFailed')}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** The customers' columns: the id opens the customer below the list; created, nickname, e-mail and phone sort. */
function userColumns(open: (id: number) => void, t: AreaProps['t'], locale: LocaleCode): Array<Column<UsersPage['rows'][number], UserSort>> {
  return [
    {
      key: 'id',
      label: t('console.customers.id'),
      numeric: true,
      cell: (row) => (
        <button type="button" className="console-link" onClick={() => open(row.id)}>
          {row.id}
        </button>
      ),
    },
    { key: 'nickname', label: t('console.customers.nickname'), sort: 'nickname', cell: (row) => row.nickname },
    { key: 'email', label: t('console.customers.email'), sort: 'email', cell: (row) => row.email ?? '–' },
    { key: 'phone', label: t('console.customers.phone'), sort: 'phone', cell: (row) => row.phone ?? '–' },
    {
      key: 'created',
      label: t('console.customers.since'),
      sort: 'created',
      first: 'desc',
      cell: (row) => <time dateTime={row.createdAt}>{formatDateTime(row.createdAt, locale)}</time>,
    },
    { key: 'sessions', label: t('console.customers.sessions'), numeric: true, cell: (row) => row.activeSessions },
  ];
}

function CustomersArea({ t, locale }: AreaProps) {
  const [customers] = useState(() => createCustomers(browserConsole.run));
  const session = useStore(browserConsole.$session);
  const customer = useStore(customers.$customer);
  const users = useStore(customers.$users);
  const notice = useStore(customers.$notice);
  const busy = useStore(customers.$busy);
  const listBusy = useStore(customers.listOutcome.$busy);
  const listNotice = useStore(customers.listOutcome.$notice);
  const list = useListUrl(customersList, (state) => void customers.list(state));
  // The list's form as typed; the list follows it when it is sent.
  const [filter, setFilter] = useState<UserFilter>(list.state.filter);
  useEffect(() => setFilter(list.state.filter), [list.state.filter]);
  const [query, setQuery] = useState(() => (typeof location === 'undefined' ? '' : (new URLSearchParams(location.search).get('q') ?? '')));
  const search = (event: FormEvent) => {
    event.preventDefault();
    void customers.find(query);
  };
  const open = (id: number) => {
    setQuery(String(id));
    void customers.find(String(id));
  };
  const field = (name: keyof UserFilter) => ({
    name,
    value: filter[name],
    onChange: (event: { currentTarget: { value: string } }) => setFilter({ ...filter, [name]: event.currentTarget.value }),
  });
  return (
    <>
      <form className="form console-search" role="search" onSubmit={search}>
        <label>
          {t('console.customers.find')}
          <span className="input-row">
            <input name="q" type="search" value={query} onChange={(event) => setQuery(event.currentTarget.value)} required maxLength={200} />
            <button type="submit" className="button" disabled={busy}>
              {t('console.customers.search')}
            </button>
          </span>
          <span className="hint">{t('console.customers.findHint')}</span>
        </label>
      </form>
      <NoticeLine notice={notice} t={t} />
      {customer && (
        <Customer
          view={customer}
          t={t}
          locale={locale}
          endSession={session && roleIncludes(session.Role, 'operator') ? (id) => void customers.endSession(id) : null}
        />
      )}
      <div className="console-sections">
        <section className="card console-wide" aria-labelledby="customers-list">
          <h2 id="customers-list">{t('console.customers.all')}</h2>
          <form
            className="form console-filter"
            data-filter
            onSubmit={(event) => {
              event.preventDefault();
              list.filter(filter);
            }}
          >
            <label>
              {t('console.customers.listSearch')}
              <input {...field('search')} type="search" maxLength={200} />
            </label>
            <label>
              {t('console.orders.since')}
              <input {...field('since')} type="date" />
            </label>
            <label>
              {t('console.orders.until')}
              <input {...field('until')} type="date" />
            </label>
            <div className="form-actions">
              <button type="submit" className="button" disabled={listBusy}>
                {t('console.orders.filter')}
              </button>
            </div>
          </form>
          <NoticeLine notice={listNotice} t={t} />
          <DataTable
            name="customers"
            caption={t('console.customers.all')}
            columns={userColumns(open, t, locale)}
            page={users}
            rowKey={(row) => row.id}
            list={list}
            busy={listBusy}
            locale={locale}
            t={t}
          />
        </section>
      </div>
    </>
  );
}

export default consoleIsland(CustomersArea);
