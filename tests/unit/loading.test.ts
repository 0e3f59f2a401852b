import { afterEach, describe, expect, it, vi } from 'vitest';
import { $loading, delayedLoadingIndicator, finishLoading, startLoading, whenLoaded } from '../../src/stores/loading.ts';

describe('global loading', () => {
  afterEach(() => {
    startLoading();
    vi.useRealTimers();
  });

  it('starts true', () => {
    expect($loading.get()).toBe(true);
  });

  it('queues callbacks while loading and runs them in order once it ends', () => {
    const calls: number[] = [];
    whenLoaded(() => calls.push(1));
    whenLoaded(() => calls.push(2));
    expect(calls).toEqual([]);
    finishLoading();
    expect(calls).toEqual([1, 2]);
    finishLoading();
    expect(calls).toEqual([1, 2]);
  });

  it('runs a callback at once when loading has ended', () => {
    finishLoading();
    const callback = vi.fn();
    whenLoaded(callback);
    expect(callback).toHaveBeenCalledOnce();
  });

  it('shows the indicator only after 500 ms of loading', () => {
    vi.useFakeTimers();
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

  it('never shows the indicator for a load shorter than 500 ms', () => {
    vi.useFakeTimers();
    const shown: boolean[] = [];
    const stop = delayedLoadingIndicator((visible) => shown.push(visible));
    vi.advanceTimersByTime(300);
    finishLoading();
    vi.advanceTimersByTime(1000);
    expect(shown).toEqual([false]);
    stop();
  });
});
