/**
 * How an order reads in the page's language: its item ("Steam wallet
 * recharge, US$20", "Cloud idling, 3 months") and its status, the one word the
 * order list, the order's page and its timeline all use for where it stands.
 */
import { formatMonths, formatMoney } from '#contract/facts.ts';
import type { Order, OrderItem } from '#contract/commerce.ts';
import type { Translate } from '@/i18n/strings.ts';

export type ItemKey = 'account.order.item.steamRecharge' | 'account.order.item.membership';

export function itemText(item: OrderItem, locale: string, t: Translate<ItemKey>): string {
  return item.Kind === 'membership'
    ? t('account.order.item.membership', { period: formatMonths(item.Months ?? 0, locale) })
    : t('account.order.item.steamRecharge', { amount: formatMoney(item.Amount ?? 0, item.Currency ?? 'CNY', locale) });
}

/**
 * Where an order stands for its customer (`account.order.state.<status>`). The
 * server's `closed` is two things to a customer: an order they cancelled, and
 * one that was not paid in time (closed by the expiry job, or by the payment
 * service when its own window ran out); the order's outcome tells them apart.
 */
export type OrderStatus = 'awaitingPayment' | 'paid' | 'fulfilled' | 'canceled' | 'expired' | 'failed' | 'refunded';

export function orderStatus(order: Pick<Order, 'State' | 'Outcome'>): OrderStatus {
  switch (order.State) {
    case 'created':
    case 'paying':
      return 'awaitingPayment';
    case 'closed':
      return order.Outcome === 'canceled' ? 'canceled' : 'expired';
    default:
      return order.State;
  }
}

/**
 * Whether the order's payment method means something to its customer: how it
 * was paid, or which payment failed. An order awaiting payment can still be
 * paid another way, and a cancelled or expired one was never paid.
 */
export function showsMethod(status: OrderStatus): boolean {
  return status === 'paid' || status === 'fulfilled' || status === 'refunded' || status === 'failed';
}

/**
 * Whether the order has a receipt (server/modules/commerce/receipts.ts): it
 * was paid with money — a cdkey is no payment here — whether it was delivered
 * or refunded since.
 */
export function hasReceipt(order: Pick<Order, 'State' | 'Method'>): boolean {
  const paid = order.State === 'paid' || order.State === 'fulfilled' || order.State === 'refunded';
  return paid && order.Method !== null && order.Method !== 'cdkey';
}
