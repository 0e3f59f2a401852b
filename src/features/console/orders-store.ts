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
import { runCommand } from './console-store.ts';

type Of<N extends CommandResult['command']> = CommandResult & { command: N };
export type ListedOrder = Of<'order list'>['orders'][number];
export type ShownOrder = NonNullable<Of<'order show'>['order']>;

export interface OrderFilter {
  state: OrderState | '';
  method: OrderMethod | '';
  user: string;
}

export const $orders = atom<ListedOrder[] | null>(null);
export const $order = atom<ShownOrder | null>(null);
export const listAction = createAction();
export const orderAction = createAction<'console.orders.none' | 'console.orders.fulfilled' | 'console.orders.refunded' | 'console.orders.refusedBecause'>();

export async function listOrders(filter: OrderFilter): Promise<void> {
  const words: [string, string, ...string[]] = ['order', 'list'];
  if (filter.state) words.push('--state', filter.state);
  if (filter.method) words.push('--method', filter.method);
  if (filter.user.trim()) words.push('--user', filter.user.trim());
  await listAction.run(async () => $orders.set((await runCommand<'order list'>(words)).orders));
}

export async function showOrder(key: string): Promise<void> {
  await orderAction.run(async () => {
    const shown = await runCommand<'order show'>(['order', 'show', key]);
    $order.set(shown.order);
    if (!shown.order) orderAction.refuse('console.orders.none', { key });
  });
}

/** Fulfils or refunds the order shown, then shows it as it is now. */
export async function orderStep(step: 'fulfil' | 'refund'): Promise<void> {
  const key = $order.get()?.Key;
  if (!key) return;
  await orderAction.run(async () => {
    const done = await runCommand<'order fulfil' | 'order refund'>(['order', step, key]);
    if (done.refused) return orderAction.say('error', 'console.orders.refusedBecause', { reason: done.refused });
    $order.set((await runCommand<'order show'>(['order', 'show', key])).order);
    orderAction.say('ok', step === 'fulfil' ? 'console.orders.fulfilled' : 'console.orders.refunded');
  });
}
