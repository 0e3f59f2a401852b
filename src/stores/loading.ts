import { atom } from 'nanostores';

/** Spec §9: the full-screen spinner waits this long before it shows. */
const loadingIndicatorDelayMs = 500;

/** Global loading (spec §4): starts true and ends once the page and its islands have loaded. */
const $loading = atom(true);

/** Ends loading. */
export function finishLoading(): void {
  $loading.set(false);
}

/**
 * Calls `show(true)` only when loading has lasted 500 ms, and `show(false)`
 * as soon as it ends, so fast loads never flash a spinner.
 */
export function delayedLoadingIndicator(show: (visible: boolean) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = $loading.subscribe((loading) => {
    clearTimeout(timer);
    if (loading) timer = setTimeout(() => show(true), loadingIndicatorDelayMs);
    else show(false);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}
