/** The orders island (account centre `order`): the user's orders, newest first, 24 a page, each with its state and a way to pay or see it. */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { formatPrice } from '#contract/facts.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { itemText, orderStatus } from '@/lib/order-text.ts';
import { Pager } from '@/components/Pager.tsx';
import { centerEnvironment } from './center-environment.ts';
import { createOrderList } from './orders-store.ts';

interface Props {
  strings: Strings<KeysUnder<'account.order' | FailureMessageKey | 'common'>>;
  locale: LocaleCode;
}

export default function AccountOrders({ strings, locale }: Props) {
  const t = translator(strings);
  const [list] = useState(() => createOrderList(centerEnvironment));
  const orders = useStore(list.$page);
  const notice = useStore(list.$notice);
  if (!orders) return notice ? <NoticeLine notice={notice} t={t} /> : <Loading text={t('common.loading')} />;

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
      <Pager page={orders.Page} total={orders.Total} go={(page) => void list.show(page)} t={t} />
      <NoticeLine notice={notice} t={t} />
    </section>
  );
}
