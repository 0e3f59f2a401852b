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
  /** Days (YYYY-MM-DD, as a date field gives them), both included; '' for any. */
  since: string;
  until: string;
}

export const noFilter: OrderFilter = { state: '', method: '', user: '', since: '', until: '' };

/** What is left to refund of an order: its price less the refunds that did not fail. */
export const leftToRefund = (order: ShownOrder): number =>
  order.Price - order.Refunds.filter((refund) => refund.state !== 'failed').reduce((total, refund) => total + refund.amount, 0);

/** A refund as the operator asks for it: an amount in fen, and where it goes. */
export interface RefundAsked {
  amount: number;
  to: 'wallet' | 'original';
}

type Done = 'console.orders.fulfilled' | 'console.orders.refunded' | 'console.orders.refundPending';

export function createOrders(run: RunCommand) {
  const $orders = atom<ListedOrder[] | null>(null);
  const $order = atom<ShownOrder | null>(null);
  const listAction = createAction();
  const orderAction = createAction<Done | 'console.orders.none' | 'console.orders.refusedBecause'>();

  async function list(filter: OrderFilter): Promise<void> {
    const words: [string, string, ...string[]] = ['order', 'list'];
    if (filter.state) words.push('--state', filter.state);
    if (filter.method) words.push('--method', filter.method);
    if (filter.user.trim()) words.push('--user', filter.user.trim());
    if (filter.since) words.push('--since', filter.since);
    if (filter.until) words.push('--until', filter.until);
    await listAction.run(async () => $orders.set((await run<'order list'>(words)).orders));
  }

  async function show(key: string): Promise<void> {
    await orderAction.run(async () => {
      const shown = await run<'order show'>(['order', 'show', key]);
      $order.set(shown.order);
      if (!shown.order) orderAction.refuse('console.orders.none', { key });
    });
  }

  /** Runs an order command on the order shown, then shows the order as it is now; a refusal comes in the operator's words. */
  async function onShown(words: (key: string) => [string, string, ...string[]], done: (result: Of<'order fulfil' | 'order refund'>) => Done): Promise<void> {
    const key = $order.get()?.Key;
    if (!key) return;
    await orderAction.run(async () => {
      const result = await run<'order fulfil' | 'order refund'>(words(key));
      if (result.refused) return orderAction.say('error', 'console.orders.refusedBecause', { reason: result.refused });
      $order.set((await run<'order show'>(['order', 'show', key])).order);
      orderAction.say('ok', done(result));
    });
  }

  const fulfil = () =>
    onShown(
      (key) => ['order', 'fulfil', key],
      () => 'console.orders.fulfilled',
    );

  /** A refund to the wallet is done at once; one to the original payment waits for WeChat Pay's word, which the order then shows. */
  const refund = (asked: RefundAsked) =>
    onShown(
      (key) => ['order', 'refund', key, '--amount', String(asked.amount), '--to', asked.to],
      (result) => (result.refund?.state === 'pending' ? 'console.orders.refundPending' : 'console.orders.refunded'),
    );

  return {
    $orders,
    $order,
    listOutcome: { $busy: listAction.$busy, $notice: listAction.$notice },
    orderOutcome: { $busy: orderAction.$busy, $notice: orderAction.$notice },
    list,
    show,
    fulfil,
    refund,
  };
}
