/**
 * The console's orders area: the refunds that need attention, the orders sorted, paged and filtered (kept in the URL), open one with its timeline,
 * fulfil or refund it, and resolve an abnormal refund, each after a confirmation.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { commerceCommands } from '#contract/commands/commerce.ts';
import { OrderMethod, OrderState } from '#contract/commerce.ts';
import { roleIncludes } from '#contract/console.ts';
import { formatPrice } from '#contract/facts.ts';
import { NoticeLine } from '@/components/island.tsx';
import { OrderTimeline } from '@/components/OrderTimeline.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import type { UiKey } from '@/i18n/strings.ts';
import type { RefundEntry } from '#contract/admin.ts';
import { itemText, orderStatus } from '@/lib/order-text.ts';
import { consoleIsland, type AreaProps } from './ConsoleGate.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { DataTable, type Column } from './DataTable.tsx';
import { useListUrl } from './list-url.ts';
import { browserConsole } from './environment.ts';
import {
  createOrders,
  leftToRefund,
  ordersList,
  type AttentionRefund,
  type ListedOrder,
  type OrderFilter,
  type OrderSort,
  type RefundAsked,
  type Resolution,
  type ShownOrder,
} from './orders-store.ts';
import { minorOf } from '@/lib/money-input.ts';
import './console.css';

type T = AreaProps['t'];

type Orders = ReturnType<typeof createOrders>;

function OrderView({
  orders,
  order,
  t,
  eventText,
  locale,
}: {
  orders: Orders;
  order: ShownOrder;
  t: T;
  eventText: (note: string) => string;
  locale: LocaleCode;
}) {
  const session = useStore(browserConsole.$session);
  const busy = useStore(orders.orderOutcome.$busy);
  const fulfilDialog = useRef<HTMLDialogElement>(null);
  const refundDialog = useRef<HTMLDialogElement>(null);
  const resolveDialog = useRef<HTMLDialogElement>(null);
  const [resolving, setResolving] = useState<{ refund: RefundEntry; resolution: Resolution } | null>(null);
  const canResolve = session !== null && roleIncludes(session.Role, commerceCommands.refundResolve.role!);
  const askResolve = (refund: RefundEntry, resolution: Resolution) => {
    setResolving({ refund, resolution });
    resolveDialog.current?.showModal();
  };
  const left = leftToRefund(order);
  const [typed, setTyped] = useState('');
  const [to, setTo] = useState<RefundAsked['to']>('original');
  const money = (fen: number) => formatPrice(fen, locale);
  const amount = minorOf(typed, 'CNY');
  const amountOk = amount !== null && amount >= 1 && amount <= left;
  // A payment through a provider (WeChat Pay, Alipay) goes back to the account that paid, or to the wallet; a wallet payment only to the wallet.
  const atProvider = order.Method === 'wechatpay' || order.Method === 'alipay';
  const destination = atProvider ? to : 'wallet';
  const canFulfil =
    order.State === 'paid' && order.Item.Kind === 'steamRecharge' && session !== null && roleIncludes(session.Role, commerceCommands.fulfil.role!);
  const canRefund = (order.State === 'paid' || order.State === 'fulfilled') && (order.Method === 'wallet' || atProvider) && left > 0;
  const askRefund = () => {
    setTyped((left / 100).toFixed(2));
    setTo('original');
    refundDialog.current?.showModal();
  };
  const refund = (event: FormEvent) => {
    event.preventDefault();
    if (!amountOk) return;
    refundDialog.current?.close();
    void orders.refund({ amount: amount!, to: destination });
  };
  return (
    <section className="card" aria-labelledby="order-shown" data-order={order.Key}>
      <h2 id="order-shown">
        <span className="order-key">{order.Key}</span>
      </h2>
      <dl className="console-facts">
        <dt>{t('console.orders.state')}</dt>
        <dd data-order-state={order.State}>{t(`account.order.state.${orderStatus(order)}`)}</dd>
        <dt>{t('console.orders.item')}</dt>
        <dd>{itemText(order.Item, locale, t)}</dd>
        <dt>{t('console.orders.price')}</dt>
        <dd>{money(order.Price)}</dd>
        <dt>{t('console.orders.method')}</dt>
        <dd>{order.Method ? t(`pay.method.${order.Method}`) : '—'}</dd>
        <dt>{t('console.orders.customer')}</dt>
        <dd>{order.UserId ? <a href={`${localizePath(locale, '/admin/customers')}?q=${order.UserId}`}>{order.UserId}</a> : '—'}</dd>
      </dl>
      <h3>{t('console.orders.timeline')}</h3>
      <OrderTimeline timeline={order.Timeline} eventText={eventText} t={t} locale={locale} />
      {order.Refunds.length > 0 && (
        <>
          <h3>{t('console.orders.refunds')}</h3>
          <ul className="item-list" data-refunds>
            {order.Refunds.map((entry) => (
              <li key={entry.refundNo} data-refund-state={entry.state}>
                <span className="item-main">
                  <strong>{money(entry.amount)}</strong>
                  <span className="muted">
                    {t(`console.orders.refundTo.${entry.to}`)} · {entry.actor} · <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time>
                  </span>
                  {entry.state === 'abnormal' && <span>{t('console.orders.abnormalHint')}</span>}
                </span>
                <RefundState state={entry.state} t={t} />
                {entry.state === 'abnormal' && canResolve && (
                  <span className="console-row-actions">
                    {(['succeeded', 'failed'] as const).map((resolution) => (
                      <button
                        key={resolution}
                        type="button"
                        className="button button-secondary button-small"
                        disabled={busy}
                        onClick={() => askResolve(entry, resolution)}
                      >
                        {t(resolution === 'succeeded' ? 'console.orders.resolveSucceeded' : 'console.orders.resolveFailed')}
                      </button>
                    ))}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {(canFulfil || canRefund) && (
        <div className="form-actions">
          {canFulfil && (
            <button type="button" className="button" disabled={busy} onClick={() => fulfilDialog.current?.showModal()}>
              {t('console.orders.fulfil')}
            </button>
          )}
          {canRefund && (
            <button type="button" className="button button-secondary" disabled={busy} onClick={askRefund}>
              {t('console.orders.refund')}
            </button>
          )}
        </div>
      )}
      <ConfirmDialog
        dialog={fulfilDialog}
        id="fulfil-confirm"
        question={t('console.orders.confirmFulfil', { key: order.Key })}
        confirm={t('console.orders.fulfilYes')}
        cancel={t('console.orders.cancel')}
        onConfirm={() => void orders.fulfil()}
        marker={{ 'data-confirm-step': 'fulfil' }}
      />
      <ConfirmDialog
        dialog={resolveDialog}
        id="resolve-confirm"
        question={
          resolving &&
          t(resolving.resolution === 'succeeded' ? 'console.orders.confirmResolveSucceeded' : 'console.orders.confirmResolveFailed', {
            refund: resolving.refund.refundNo,
            price: money(resolving.refund.amount),
          })
        }
        confirm={resolving ? t(resolving.resolution === 'succeeded' ? 'console.orders.resolveSucceeded' : 'console.orders.resolveFailed') : ''}
        cancel={t('console.orders.cancel')}
        onConfirm={() => resolving && void orders.resolve(resolving.refund.refundNo, resolving.resolution)}
        marker={{ 'data-confirm-step': 'resolve' }}
      />
      <dialog ref={refundDialog} className="confirm-dialog" aria-labelledby="refund-title">
        <form className="form" onSubmit={refund}>
          <h3 id="refund-title">{t('console.orders.refundTitle', { key: order.Key })}</h3>
          <label>
            {t('console.orders.refundAmount')}
            <input name="amount" inputMode="decimal" value={typed} onChange={(event) => setTyped(event.currentTarget.value)} required />
            <span className="hint">{t('console.orders.refundLeft', { left: money(left) })}</span>
          </label>
          {atProvider && (
            <fieldset className="choice-group">
              <legend>{t('console.orders.refundWhere')}</legend>
              {(['original', 'wallet'] as const).map((where) => (
                <label key={where} className="agree">
                  <input type="radio" name="to" value={where} checked={to === where} onChange={() => setTo(where)} />
                  {t(`console.orders.refundTo.${where}`)}
                </label>
              ))}
            </fieldset>
          )}
          <p data-refund-confirm>
            {amountOk
              ? t(destination === 'wallet' ? 'console.orders.confirmRefundWallet' : 'console.orders.confirmRefundProvider', {
                  price: money(amount!),
                  key: order.Key,
                })
              : t('console.orders.refundAmountHint', { left: money(left) })}
          </p>
          <div className="form-actions">
            <button type="submit" className="button" disabled={!amountOk} data-confirm-step="refund">
              {t('console.orders.refundYes')}
            </button>
            <button type="button" className="button button-secondary" onClick={() => refundDialog.current?.close()}>
              {t('console.orders.cancel')}
            </button>
          </div>
        </form>
      </dialog>
    </section>
  );
}

/** A refund's state: failed in the danger colour, one that needs attention as a badge. */
function RefundState({ state, t }: { state: RefundEntry['state']; t: T }) {
  const text = t(`console.orders.refundState.${state}`);
  if (state === 'abnormal') return <span className="badge badge-orange">{text}</span>;
  return <span className={state === 'failed' ? 'console-failed' : 'muted'}>{text}</span>;
}

/** The refunds a payment provider reported abnormal, which an operator resolves on their order; nothing when there are none. */
function AttentionList({ refunds, open, t, locale }: { refunds: AttentionRefund[]; open: (key: string) => void; t: T; locale: LocaleCode }) {
  if (refunds.length === 0) return null;
  return (
    <section className="card" aria-labelledby="refunds-attention" data-attention>
      <h2 id="refunds-attention">{t('console.orders.attention')}</h2>
      <p className="muted">{t('console.orders.attentionIntro')}</p>
      <ul className="item-list">
        {refunds.map((entry) => (
          <li key={entry.refundNo} data-refund-state={entry.state}>
            <span className="item-main">
              <button type="button" className="console-link" onClick={() => open(entry.orderKey)}>
                <span className="order-key">{entry.orderKey}</span>
              </button>
              <span className="muted">
                {t(`console.orders.refundTo.${entry.to}`)} · {entry.actor} · <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time>
              </span>
            </span>
            <span className="item-main">
              <strong>{formatPrice(entry.amount, locale)}</strong>
              <RefundState state={entry.state} t={t} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The orders' columns: the number opens the order; created, price, state and method sort. */
function orderColumns(open: (key: string) => void, t: T, locale: LocaleCode): Array<Column<ListedOrder, OrderSort>> {
  return [
    {
      key: 'key',
      label: t('console.orders.number'),
      cell: (row) => (
        <button type="button" className="console-link" onClick={() => open(row.Key)}>
          <span className="order-key">{row.Key}</span>
        </button>
      ),
    },
    {
      key: 'created',
      label: t('console.orders.created'),
      sort: 'created',
      first: 'desc',
      cell: (row) => <time dateTime={row.CreatedAt}>{formatDateTime(row.CreatedAt, locale)}</time>,
    },
    { key: 'item', label: t('console.orders.item'), cell: (row) => itemText(row.Item, locale, t) },
    { key: 'price', label: t('console.orders.price'), sort: 'price', first: 'desc', numeric: true, cell: (row) => formatPrice(row.Price, locale) },
    { key: 'state', label: t('console.orders.state'), sort: 'state', cell: (row) => t(`account.order.state.${orderStatus(row)}`) },
    { key: 'method', label: t('console.orders.method'), sort: 'method', cell: (row) => (row.Method ? t(`pay.method.${row.Method}`) : '–') },
    { key: 'user', label: t('console.orders.customer'), numeric: true, cell: (row) => row.UserId ?? '–' },
  ];
}

function OrdersArea({ t, eventText, locale }: { t: T; eventText: (note: string) => string; locale: LocaleCode }) {
  const [orders] = useState(() => createOrders(browserConsole.run));
  const listed = useStore(orders.$orders);
  const order = useStore(orders.$order);
  const attention = useStore(orders.$attention);
  const attentionNotice = useStore(orders.attentionOutcome.$notice);
  const listNotice = useStore(orders.listOutcome.$notice);
  const orderNotice = useStore(orders.orderOutcome.$notice);
  const busy = useStore(orders.listOutcome.$busy);
  const list = useListUrl(ordersList, (state) => void orders.list(state));
  // The form's fields as typed; the list follows them when they are sent.
  const [filter, setFilter] = useState<OrderFilter>(list.state.filter);
  useEffect(() => setFilter(list.state.filter), [list.state.filter]);
  useEffect(() => {
    const key = new URLSearchParams(location.search).get('key');
    if (key) void orders.show(key);
    void orders.attention();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    list.filter(filter);
  };
  const open = (key: string) => {
    // The list's sort, page and filters stay in the URL beside the order opened.
    const params = new URLSearchParams(location.search);
    params.set('key', key);
    history.replaceState(null, '', `?${params}`);
    void orders.show(key);
  };
  const field = (name: keyof OrderFilter) => ({
    name,
    value: filter[name],
    onChange: (event: { currentTarget: { value: string } }) => setFilter({ ...filter, [name]: event.currentTarget.value }),
  });
  return (
    <div className="console-sections">
      {(order || orderNotice) && (
        <>
          {order && <OrderView orders={orders} order={order} t={t} eventText={eventText} locale={locale} />}
          <NoticeLine notice={orderNotice} t={t} />
        </>
      )}
      {attention && <AttentionList refunds={attention} open={open} t={t} locale={locale} />}
      <NoticeLine notice={attentionNotice} t={t} />
      <section className="card console-wide" aria-labelledby="orders-list">
        <h2 id="orders-list">{t('console.orders.latest')}</h2>
        <form className="form console-filter" onSubmit={submit} data-filter>
          <label>
            {t('console.orders.state')}
            <select {...field('state')}>
              <option value="">{t('console.orders.any')}</option>
              {OrderState.options.map((state) => (
                <option key={state} value={state}>
                  {t(`console.orders.stateName.${state}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('console.orders.method')}
            <select {...field('method')}>
              <option value="">{t('console.orders.any')}</option>
              {OrderMethod.options.map((method) => (
                <option key={method} value={method}>
                  {t(`pay.method.${method}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('console.orders.number')}
            <input {...field('number')} inputMode="numeric" pattern="\d{4,20}" maxLength={20} />
          </label>
          <label>
            {t('console.orders.customer')}
            <input {...field('user')} maxLength={200} />
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
            <button type="submit" className="button" disabled={busy}>
              {t('console.orders.filter')}
            </button>
          </div>
        </form>
        <NoticeLine notice={listNotice} t={t} />
        <DataTable
          name="orders"
          caption={t('console.orders.latest')}
          columns={orderColumns(open, t, locale)}
          page={listed}
          rowKey={(row) => row.Key}
          list={list}
          busy={busy}
          locale={locale}
          t={t}
        />
      </section>
    </div>
  );
}

/** The orders area; a timeline note the customer's order page has no words for is shown as it is. */
function OrdersPage({ t, strings, locale }: AreaProps) {
  const eventText = (note: string) => {
    const key = `account.orderDetail.event.${note}`;
    return key in strings ? t(key as UiKey) : note;
  };
  return <OrdersArea t={t} eventText={eventText} locale={locale} />;
}

export default consoleIsland(OrdersPage);
