/** How an order's item reads in the page's language ("Steam wallet recharge, US$20", "Cloud idling, 3 months"). */
import { formatMonths, formatMoney } from '#contract/facts.ts';
import type { OrderItem } from '#contract/commerce.ts';
import type { Translate } from '@/i18n/strings.ts';

export type ItemKey = 'account.order.item.steamRecharge' | 'account.order.item.membership';

export function itemText(item: OrderItem, locale: string, t: Translate<ItemKey>): string {
  return item.Kind === 'membership'
    ? t('account.order.item.membership', { period: formatMonths(item.Months ?? 0, locale) })
    : t('account.order.item.steamRecharge', { amount: formatMoney(item.Amount ?? 0, item.Currency ?? 'CNY', locale) });
}
