/**
 * Following one order live (the pay page, an order's page): the server pushes
 * each change through the hub; while the hub is not connected — blocked by a
 * proxy, reconnecting — the page asks every few seconds instead.
 */
import { orderStatusEvent, type OrderNotice } from '#contract/commerce.ts';
import { hub } from './realtime.ts';

/** How often an order is asked about while pushes cannot arrive. */
export const orderPollMs = 3_000;

/** Calls `changed` when the order may have changed; the returned function stops following. */
export function followOrder(key: string, changed: (notice: OrderNotice | null) => void): () => void {
  const stopPushes = hub.on(orderStatusEvent, (notice) => {
    if (notice.Key === key) changed(notice);
  });
  let poll: ReturnType<typeof setInterval> | undefined;
  const stopWatching = hub.$state.subscribe((state) => {
    clearInterval(poll);
    poll = undefined;
    if (state === 'Connected')
      changed(null); // anything missed while away
    else poll = setInterval(() => changed(null), orderPollMs);
  });
  const release = hub.follow();
  return () => {
    stopPushes();
    stopWatching();
    clearInterval(poll);
    release();
  };
}
