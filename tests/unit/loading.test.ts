import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh store for every test: global loading starts true once per page. */
const freshLoading = async () => {
  vi.resetModules();
  return import('@/stores/loading.ts');
};

describe('global loading', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the indicator only after 500 ms of loading, and hides it when loading ends', async () => {
    const { delayedLoadingIndicator, finishLoading } = await freshLoading();
    const shown: boolean[] = [];
    const stop = delayedLoadingIndicator((visible) => shown.push(visible));
    vi.advanceTimersByTime(499);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([true]);
    finishLoading();
    expect(shown).toEqual([true, false]);
    stop();
  });

  it('never shows the indicator for a load shorter than 500 ms', async () => {
    const { delayedLoadingIndicator, finishLoading } = await freshLoading();
    const shown: boolean[] = [];
    const stop = delayedLoadingIndicator((visible) => shown.push(visible));
    vi.advanceTimersByTime(300);
    finishLoading();
    vi.advanceTimersByTime(1000);
    expect(shown).toEqual([false]);
    stop();
  });

  it('shows nothing once loading has ended', async () => {
    const { delayedLoadingIndicator, finishLoading } = await freshLoading();
    finishLoading();
    const shown: boolean[] = [];
    const stop = delayedLoadingIndicator((visible) => shown.push(visible));
    vi.advanceTimersByTime(1000);
    expect(shown).toEqual([false]);
    stop();
  });
});
