/**
 * One order (account centre `order/detail?key=`): its item, price, payment
 * method, Steam account and timeline — every event with its time and who made
 * it happen — following changes live while the page is open.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { formatPrice } from '#contract/facts.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { OrderTimeline } from '@/components/OrderTimeline.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings, type UiKey } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { hasReceipt, itemText, orderStatus, showsMethod } from '@/lib/order-text.ts';
import { followOrder } from '@/stores/orders.ts';
import { centerEnvironment } from './center-environment.ts';
import { OrderInvoice } from './OrderInvoice.tsx';
import { createOrderDetail } from './order-detail-store.ts';

interface Props {
  strings: Strings<KeysUnder<'account.orderDetail' | 'account.order' | 'account.invoice' | 'pay.method' | FailureMessageKey | 'common.loading'>>;
  locale: LocaleCode;
}

export default function OrderDetailView({ strings, locale }: Props) {
  const t = translator(strings);
  // followOrder says when to read the order, the first time included: one read per page load.
  const [store] = useState(() => createOrderDetail(centerEnvironment, followOrder));
  const order = useStore(store.$order);
  const missing = useStore(store.$missing);
  const notice = useStore(store.$notice);

  const back = (
    <p>
      <a href={localizePath(locale, '/account/center/order')}>{t('account.orderDetail.back')}</a>
    </p>
  );
  if (missing)
    return (
      <>
        <NoticeLine notice={{ kind: 'error', key: missing }} t={t} />
        {back}
      </>
    );
  if (!order) return notice ? <NoticeLine notice={notice} t={t} /> : <Loading text={t('common.loading')} />;

  const eventText = (note: string) => {
    const eventKey = `account.orderDetail.event.${note}` as UiKey;
    return eventKey in strings ? t(eventKey as never) : note;
  };
  const status = orderStatus(order);
  return (
    <div className="account-sections" data-order={order.Key} data-state={order.State} data-status={status}>
      <section className="card" aria-labelledby="order-heading">
        <h2 id="order-heading">{itemText(order.Item, locale, t)}</h2>
        <p className="muted order-key">{t('account.order.number', { key: order.Key })}</p>
        <dl className="facts">
          <div>
            <dt>{t('account.orderDetail.price')}</dt>
            <dd>{formatPrice(order.Price, locale)}</dd>
          </div>
          {order.Method && showsMethod(status) && (
            <div>
              <dt>{t('account.orderDetail.method')}</dt>
              <dd data-method>{t(`pay.method.${order.Method}`)}</dd>
            </div>
          )}
          <div>
            <dt>{t('account.orderDetail.created')}</dt>
            <dd>
              <time dateTime={order.CreatedAt}>{formatDateTime(order.CreatedAt, locale)}</time>
            </dd>
          </div>
          {order.Item.SteamId && (
            <div>
              <dt>{t('account.orderDetail.steamAccount')}</dt>
              <dd className="order-key">{order.Item.SteamId}</dd>
            </div>
          )}
        </dl>
        <p data-order-state>
          <strong>{t(`account.order.state.${status}`)}</strong>
        </p>
        {order.Item.Kind === 'steamRecharge' && status === 'paid' && <p className="muted">{t('account.orderDetail.delivery')}</p>}
        {hasReceipt(order) && (
          <div className="form-actions">
            <a className="button button-secondary" href={`${localizePath(locale, '/account/center/order/receipt')}?key=${order.Key}`} data-receipt-link>
              {t('account.orderDetail.receipt')}
            </a>
          </div>
        )}
        {status === 'awaitingPayment' && (
          <div className="form-actions">
            <a className="button" href={`${localizePath(locale, '/payment')}?key=${order.Key}`}>
              {t('account.order.pay')}
            </a>
          </div>
        )}
      </section>
      {/* Only an order paid with money can have an invoice, as only one can have a receipt. */}
      {hasReceipt(order) && <OrderInvoice orderKey={order.Key} t={t} locale={locale} />}
      <section className="card" aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">{t('account.orderDetail.timeline')}</h2>
        <OrderTimeline timeline={order.Timeline} eventText={eventText} t={t} locale={locale} />
      </section>
      {back}
    </div>
  );
}
