/**
 * Following one order live (the pay page, an order's page): the server pushes
 * each change through the hub; while the hub is not connected — blocked by a
 * proxy, reconnecting — the page asks every few seconds instead. Connected, it
 * still asks now and then: a push can be lost on its way between the server's
 * instances (Redis away: docs/deploy.md, "When something is down").
 */
import { orderStatusEvent, type OrderNotice } from '#contract/commerce.ts';
import { hub } from './realtime.ts';

/** How often an order is asked about while pushes cannot arrive. */
export const orderPollMs = 3_000;
/** How often it is asked about while they can: seldom, for the push that got lost. */
export const orderRecheckMs = 15_000;

/**
 * Calls `changed` when the order is to be read: first once the hub connects —
 * so no change falls between the page's read and its first push (a customer
 * back from paying in WeChat arrives just as the payment is notified) — or at
 * once when it cannot connect; then with each push, after each reconnection,
 * every few seconds while pushes cannot arrive, and every `orderRecheckMs`
 * while they can. The page reads the order
 * nowhere else, so a page load reads it once. The returned function stops following.
 */
export function followOrder(key: string, changed: (notice: OrderNotice | null) => void): () => void {
  const stopPushes = hub.on(orderStatusEvent, (notice) => {
    if (notice.Key === key) changed(notice);
  });
  let poll: ReturnType<typeof setInterval> | undefined;
  let following = false;
  const stopWatching = hub.$state.subscribe((state) => {
    clearInterval(poll);
    poll = undefined;
    if (state === 'Connected') askNowAndEvery(orderRecheckMs);
    // Until following starts, the hub has not been asked to connect; a connection on its way is waited for.
    else if (following && state !== 'Connecting') askNowAndEvery(orderPollMs);
  });
  function askNowAndEvery(ms: number) {
    changed(null);
    poll = setInterval(() => changed(null), ms);
  }
  const release = hub.follow();
  following = true;
  // The hub did not set out to connect (no login to connect with): nothing will come but what the page asks for.
  if (hub.$state.get() === 'Disconnected') askNowAndEvery(orderPollMs);
  return () => {
    stopPushes();
    stopWatching();
    clearInterval(poll);
    release();
  };
}
