/**
 * One order's page (`order/detail?key=`): the order named in the address,
 * read each time `follow` says it may have changed — the first time included —
 * so the page follows it live. An order that is not this account's is not
 * found: the server does not tell an unknown order from someone else's, nor
 * from a key that is not an order number at all.
 */
import { atom, onMount } from 'nanostores';
import { commerceCalls, type OrderDetail } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { createAction } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';

/** Calls `changed` whenever the order is to be read (stores/orders.ts `followOrder`); the returned function stops following. */
export type FollowOrder = (key: string, changed: () => void) => () => void;

/** Why there is no order to show: no key in the address, or none of this account's. */
export type OrderMissing = 'account.orderDetail.missing' | 'account.orderDetail.notFound';

export function createOrderDetail(env: Pick<CenterEnvironment, 'call' | 'location'>, followOrder: FollowOrder) {
  const key = new URLSearchParams(env.location.search).get('key');
  const action = createAction();
  /** The order; null until read. */
  const $order = atom<OrderDetail | null>(null);
  const $missing = atom<OrderMissing | null>(key ? null : 'account.orderDetail.missing');

  async function read(key: string): Promise<void> {
    try {
      $order.set(await env.call(commerceCalls.order, { params: { key } }));
    } catch (error) {
      if (error instanceof ApiFailure && (error.code === ErrorCode.NotFound || error.code === ErrorCode.BadRequest))
        $missing.set('account.orderDetail.notFound');
      else await action.run(() => Promise.reject(error));
    }
  }

  onMount($order, () => {
    if (key) return followOrder(key, () => void read(key));
  });

  return { $order, $missing, $notice: action.$notice };
}
