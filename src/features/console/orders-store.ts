/**
 * The console's orders area: the orders by state, method, customer, number and
 * days, sorted and a page at a time (`order list`), the refunds that need attention (`refund attention`: WeChat
 * Pay reported them abnormal), one order with its timeline (`order show`), and
 * what an operator does to one: deliver a Steam recharge (`order fulfil`),
 * give the money back (`order refund`) and say how an abnormal refund ended
 * (`refund resolve`). A refused step comes back in the operator's language, as
 * the command's `refused`.
 */
import { atom } from 'nanostores';
import type { ArgsOf, ResultOf } from '#contract/command.ts';
import { commerceCommands, orderSorts } from '#contract/commands/commerce.ts';
import { listSize } from '#contract/list.ts';
import type { OrderMethod, OrderState } from '#contract/commerce.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';
import type { ListStart, ListState } from './list-url.ts';

export type OrdersPage = Omit<ResultOf<typeof commerceCommands.orderList>, 'command'>;
export type ListedOrder = OrdersPage['rows'][number];
export type ShownOrder = NonNullable<ResultOf<typeof commerceCommands.orderShow>['order']>;
export type AttentionRefund = ResultOf<typeof commerceCommands.refundAttention>['refunds'][number];
/** How an operator says an abnormal refund ended: the money reached the customer another way, or it did not. */
export type Resolution = ArgsOf<typeof commerceCommands.refundResolve>['resolution'];

export type OrderFilter = {
  state: OrderState | '';
  method: OrderMethod | '';
  user: string;
  /** An order number, or its first digits (`number` in the URL: `key` there is the order opened). */
  number: string;
  /** Days (YYYY-MM-DD, as a date field gives them), both included; '' for any. */
  since: string;
  until: string;
};

/** The list as it opens: every order, newest first; the page's URL says otherwise (list-url.ts). */
export const ordersList: ListStart<OrderSort, OrderFilter> = {
  columns: orderSorts,
  start: {
    query: { sort: 'created', dir: 'desc', page: 1, size: listSize.default },
    filter: { state: '', method: '', user: '', number: '', since: '', until: '' },
  },
};
export type OrderSort = (typeof orderSorts)[number];

/** What is left to refund of an order: its price less the refunds that did not fail (an abnormal one stays reserved). */
export const leftToRefund = (order: ShownOrder): number =>
  order.Price - order.Refunds.filter((refund) => refund.state !== 'failed').reduce((total, refund) => total + refund.amount, 0);

/** A refund as the operator asks for it: an amount in fen, and where it goes. */
export type RefundAsked = Required<Omit<ArgsOf<typeof commerceCommands.refund>, 'order'>>;

type Done =
  | 'console.orders.fulfilled'
  | 'console.orders.refunded'
  | 'console.orders.refundPending'
  | 'console.orders.resolvedSucceeded'
  | 'console.orders.resolvedFailed';

type OrderStep = ResultOf<typeof commerceCommands.fulfil | typeof commerceCommands.refund | typeof commerceCommands.refundResolve>;

export function createOrders(run: RunCommand) {
  const $orders = atom<OrdersPage | null>(null);
  const $order = atom<ShownOrder | null>(null);
  const $attention = atom<AttentionRefund[] | null>(null);
  const listAction = createAction();
  const attentionAction = createAction();
  const orderAction = createAction<Done | 'console.orders.none' | 'console.orders.refusedBecause'>();

  async function list({ query, filter }: ListState<OrderSort, OrderFilter>): Promise<void> {
    // What the form leaves empty is no condition.
    const args = {
      ...query,
      state: filter.state || undefined,
      method: filter.method || undefined,
      user: filter.user.trim() || undefined,
      key: filter.number.trim() || undefined,
      since: filter.since || undefined,
      until: filter.until || undefined,
    };
    await listAction.run(async () => {
      const { rows, total, page, size } = await run(commerceCommands.orderList, args);
      $orders.set({ rows, total, page, size });
    });
  }

  /** The refunds that need an operator, oldest first. */
  async function attention(): Promise<void> {
    await attentionAction.run(async () => $attention.set((await run(commerceCommands.refundAttention, {})).refunds));
  }

  async function show(key: string): Promise<void> {
    await orderAction.run(async () => {
      const shown = await run(commerceCommands.orderShow, { order: key });
      $order.set(shown.order);
      if (!shown.order) orderAction.refuse('console.orders.none', { key });
    });
  }

  /** Runs an order command on the order shown, then shows the order as it is now; a refusal comes in the operator's words. Answers whether it was done. */
  async function onShown(step: (key: string) => Promise<OrderStep>, done: (result: OrderStep) => Done): Promise<boolean> {
    const key = $order.get()?.Key;
    if (!key) return false;
    const result = await orderAction.run(async () => {
      const result = await step(key);
      if (result.refused) return orderAction.say('error', 'console.orders.refusedBecause', { reason: result.refused });
      $order.set((await run(commerceCommands.orderShow, { order: key })).order);
      orderAction.say('ok', done(result));
      return true;
    });
    return result === true;
  }

  const fulfil = () =>
    onShown(
      (key) => run(commerceCommands.fulfil, { order: key }),
      () => 'console.orders.fulfilled',
    );

  /** A refund to the wallet is done at once; one to the original payment waits for WeChat Pay's word, which the order then shows. */
  const refund = (asked: RefundAsked) =>
    onShown(
      (key) => run(commerceCommands.refund, { order: key, ...asked }),
      (result) => (result.refund?.state === 'pending' ? 'console.orders.refundPending' : 'console.orders.refunded'),
    );

  /** Says how an abnormal refund of the order shown ended; the list of refunds needing attention follows. */
  async function resolve(refundNo: string, resolution: Resolution): Promise<void> {
    const resolved = await onShown(
      () => run(commerceCommands.refundResolve, { refund: refundNo, resolution }),
      () => (resolution === 'succeeded' ? 'console.orders.resolvedSucceeded' : 'console.orders.resolvedFailed'),
    );
    if (resolved) await attention();
  }

  return {
    $orders,
    $order,
    $attention,
    listOutcome: { $busy: listAction.$busy, $notice: listAction.$notice },
    attentionOutcome: { $busy: attentionAction.$busy, $notice: attentionAction.$notice },
    orderOutcome: { $busy: orderAction.$busy, $notice: orderAction.$notice },
    list,
    attention,
    show,
    fulfil,
    refund,
    resolve,
  };
}
