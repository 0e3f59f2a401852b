/**
 * The console's orders area: the latest orders by state, method and customer
 * (`order list`), one order with its timeline (`order show`), and the two
 * things an operator does to one: deliver a Steam recharge (`order fulfil`)
 * and give the money back (`order refund`). A refused step comes back in the
 * operator's language, as the command's `refused`.
 */
import { atom } from 'nanostores';
import type { CommandResult } from '#contract/admin.ts';
import type { OrderMethod, OrderState } from '#contract/commerce.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';

type Of<N extends CommandResult['command']> = CommandResult & { command: N };
export type ListedOrder = Of<'order list'>['orders'][number];
export type ShownOrder = NonNullable<Of<'order show'>['order']>;

export interface OrderFilter {
  state: OrderState | '';
  method: OrderMethod | '';
  user: string;
}

export const noFilter: OrderFilter = { state: '', method: '', user: '' };

export function createOrders(run: RunCommand) {
  const $orders = atom<ListedOrder[] | null>(null);
  const $order = atom<ShownOrder | null>(null);
  const listAction = createAction();
  const orderAction = createAction<'console.orders.none' | 'console.orders.fulfilled' | 'console.orders.refunded' | 'console.orders.refusedBecause'>();

  async function list(filter: OrderFilter): Promise<void> {
    const words: [string, string, ...string[]] = ['order', 'list'];
    if (filter.state) words.push('--state', filter.state);
    if (filter.method) words.push('--method', filter.method);
    if (filter.user.trim()) words.push('--user', filter.user.trim());
    await listAction.run(async () => $orders.set((await run<'order list'>(words)).orders));
  }

  async function show(key: string): Promise<void> {
    await orderAction.run(async () => {
      const shown = await run<'order show'>(['order', 'show', key]);
      $order.set(shown.order);
      if (!shown.order) orderAction.refuse('console.orders.none', { key });
    });
  }

  /** Fulfils or refunds the order shown, then shows it as it is now. */
  async function step(which: 'fulfil' | 'refund'): Promise<void> {
    const key = $order.get()?.Key;
    if (!key) return;
    await orderAction.run(async () => {
      const done = await run<'order fulfil' | 'order refund'>(['order', which, key]);
      if (done.refused) return orderAction.say('error', 'console.orders.refusedBecause', { reason: done.refused });
      $order.set((await run<'order show'>(['order', 'show', key])).order);
      orderAction.say('ok', which === 'fulfil' ? 'console.orders.fulfilled' : 'console.orders.refunded');
    });
  }

  return {
    $orders,
    $order,
    listOutcome: { $busy: listAction.$busy, $notice: listAction.$notice },
    orderOutcome: { $busy: orderAction.$busy, $notice: orderAction.$notice },
    list,
    show,
    step,
  };
}
