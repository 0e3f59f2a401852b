/**
 * One order's page (`order/detail?key=`): the order named in the address,
 * read each time `follow` says it may have changed — the first time included —
 * so the page follows it live. An order that is not this account's is not
 * found: the server does not tell an unknown order from someone else's, nor
 * from a key that is not an order number at all.
 */
import { onMount } from 'nanostores';
import { commerceCalls, type OrderDetail } from '#contract/commerce.ts';
import type { CenterEnvironment } from './center-environment.ts';
import { orderByKey } from './order-by-key.ts';

/** Calls `changed` whenever the order is to be read (stores/orders.ts `followOrder`); the returned function stops following. */
export type FollowOrder = (key: string, changed: () => void) => () => void;

/** Why there is no order to show: no key in the address, or none of this account's. */
export type OrderMissing = 'account.orderDetail.missing' | 'account.orderDetail.notFound';

export function createOrderDetail(env: Pick<CenterEnvironment, 'call' | 'location'>, followOrder: FollowOrder) {
  const order = orderByKey<OrderDetail, OrderMissing>(env, (key) => env.call(commerceCalls.order, { params: { key } }), {
    noKey: 'account.orderDetail.missing',
    notFound: 'account.orderDetail.notFound',
  });
  const { key, read, $value: $order } = order;

  onMount($order, () => {
    if (key) return followOrder(key, () => void read(key));
  });

  return { $order, $missing: order.$missing, $notice: order.$notice };
}
