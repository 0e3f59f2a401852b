import { atom } from 'nanostores';

/** Spec §9: the full-screen spinner waits this long before it shows. */
export const loadingIndicatorDelayMs = 500;

/** Global loading (spec §4): starts true and ends once the page's islands are ready. */
export const $loading = atom(true);

let queued: Array<() => void> = [];

/** Runs `callback` now if loading has ended, else once it ends (in order). */
export function whenLoaded(callback: () => void): void {
  if ($loading.get()) queued.push(callback);
  else callback();
}

/** Ends loading and runs every callback queued meanwhile. */
export function finishLoading(): void {
  $loading.set(false);
  const run = queued;
  queued = [];
  for (const callback of run) callback();
}

/** Starts loading again, e.g. while an island fetches what it shows. */
export function startLoading(): void {
  $loading.set(true);
}

/**
 * Calls `show(true)` only when loading has lasted `delayMs`, and `show(false)`
 * as soon as it ends, so fast loads never flash a spinner.
 */
export function delayedLoadingIndicator(show: (visible: boolean) => void, delayMs = loadingIndicatorDelayMs): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = $loading.subscribe((loading) => {
    clearTimeout(timer);
    if (loading) timer = setTimeout(() => show(true), delayMs);
    else show(false);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}
