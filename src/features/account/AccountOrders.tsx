/** The orders island (account centre `order`): the user's orders, newest first, 24 a page, each with its state and a way to pay or see it. */
import { useEffect, useState } from 'react';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { formatPrice } from '#contract/facts.ts';
import { Loading, NoticeLine, useAction } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { itemText, orderStatus } from '@/lib/order-text.ts';
import { Pager } from '@/components/Pager.tsx';

interface Props {
  strings: Strings<KeysUnder<'account.order' | 'api' | 'common'>>;
  locale: LocaleCode;
}

export default function AccountOrders({ strings, locale }: Props) {
  const t = translator(strings);
  const [orders, setOrders] = useState<{ Items: Order[]; Total: number; Page: number } | null>(null);
  const action = useAction(t);
  const show = (page: number) => void action.run(async () => setOrders(await authCall(commerceCalls.orders, { params: { page } })));

  useEffect(() => show(1), []);
  if (!orders) return action.notice ? <NoticeLine notice={action.notice} t={t} /> : <Loading text={t('common.loading')} />;

  return (
    <section className="card" aria-label={t('account.order.title')}>
      {orders.Items.length === 0 ? (
        <p className="muted">
          {t('account.order.empty')} <a href={localizePath(locale, '/recharge/steam')}>{t('account.order.shop')}</a>
        </p>
      ) : (
        <ul className="item-list" data-orders>
          {orders.Items.map((order) => {
            const status = orderStatus(order);
            return (
              <li key={order.Key} data-order={order.Key} data-state={order.State} data-status={status}>
                <span className="item-main">
                  <strong>{itemText(order.Item, locale, t)}</strong>
                  <span className="muted order-key">{t('account.order.number', { key: order.Key })}</span>
                  <span className="muted">
                    <time dateTime={order.CreatedAt}>{formatDateTime(order.CreatedAt, locale)}</time> · {formatPrice(order.Price, locale)} ·{' '}
                    <span data-order-state>{t(`account.order.state.${status}`)}</span>
                  </span>
                </span>
                <span className="form-actions">
                  {status === 'awaitingPayment' && (
                    <a className="button button-small" href={`${localizePath(locale, '/payment')}?key=${order.Key}`}>
                      {t('account.order.pay')}
                    </a>
                  )}
                  <a className="button button-secondary button-small" href={`${localizePath(locale, '/account/center/order/detail')}?key=${order.Key}`}>
                    {t('account.order.details')}
                  </a>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <Pager page={orders.Page} total={orders.Total} go={show} t={t} />
      <NoticeLine notice={action.notice} t={t} />
    </section>
  );
}
