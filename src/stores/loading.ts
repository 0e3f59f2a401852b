/**
 * The page's global loading state: true from the start until the page's
 * islands have started (each one Astro hydrates drops its `ssr` attribute; one
 * that could not load is marked `data-island-failed` by the head script,
 * components/island-loading.ts), or until `load` on a page without islands.
 * Code that should wait for the page registers with `whenLoaded`.
 */
import { atom } from 'nanostores';

/** The spinner of a loading island waits this long before it shows, so a fast load never flashes it. */
export const loadingIndicatorDelayMs = 500;

/** An island whose code has not arrived after this long says it could not load. */
export const chunkLoadTimeoutMs = 120_000;

/** Whether the page is still loading; it starts true. */
export const $loading = atom(true);

const queue: Array<() => void> = [];

/** Runs `callback` once the page has loaded: at once when it has, else queued, in the order registered. */
export function whenLoaded(callback: () => void): void {
  if ($loading.get()) queue.push(callback);
  else callback();
}

/** Ends loading and runs the queued callbacks once each; one that throws does not keep the others from running. */
export function finishLoading(): void {
  if (!$loading.get()) return;
  $loading.set(false);
  for (const callback of queue.splice(0)) {
    try {
      callback();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

/** Islands that start with the page (not those that wait to be scrolled to or for a media query). */
const startingIslands = 'astro-island:not([client=visible],[client=media])';
/** Of those, the ones still on their way: neither started nor given up. */
const loadingIslands = 'astro-island[ssr]:not([client=visible],[client=media],[data-island-failed])';

/** Ends loading once every island of the page has started or failed, or at `load` when it has none. */
function followPage(document: Document): void {
  if (!document.querySelector(startingIslands)) {
    if (document.readyState === 'complete') finishLoading();
    else addEventListener('load', finishLoading, { once: true });
    return;
  }
  const check = () => {
    if (document.querySelector(loadingIslands)) return;
    observer.disconnect();
    finishLoading();
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['ssr', 'data-island-failed'] });
  check();
}

// Module scripts run once the page is parsed, so every island is in the document by now.
if (typeof document !== 'undefined') followPage(document);
