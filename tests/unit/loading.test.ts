/** The page's global loading state and its queue (src/stores/loading.ts). */
import { describe, expect, it, vi } from 'vitest';

/** A fresh store for every test: global loading starts true once per page. */
async function freshLoading() {
  vi.resetModules();
  return import('@/stores/loading.ts');
}

describe('global loading', () => {
  it('starts true', async () => {
    const { $loading } = await freshLoading();
    expect($loading.get()).toBe(true);
  });

  it('queues the callbacks registered while loading and runs them in order, once each, when loading ends', async () => {
    const { $loading, finishLoading, whenLoaded } = await freshLoading();
    const ran: string[] = [];
    whenLoaded(() => ran.push('first'));
    whenLoaded(() => ran.push('second'));
    whenLoaded(() => ran.push('third'));
    expect(ran).toEqual([]);
    finishLoading();
    expect($loading.get()).toBe(false);
    expect(ran).toEqual(['first', 'second', 'third']);
    finishLoading();
    expect(ran).toEqual(['first', 'second', 'third']);
  });

  it('runs a callback registered after loading ended at once, and only once', async () => {
    const { finishLoading, whenLoaded } = await freshLoading();
    finishLoading();
    const late = vi.fn();
    whenLoaded(late);
    expect(late).toHaveBeenCalledOnce();
    finishLoading();
    expect(late).toHaveBeenCalledOnce();
  });

  it('says loading has ended before the queue runs, so a queued callback that registers another runs that one at once', async () => {
    const { $loading, finishLoading, whenLoaded } = await freshLoading();
    const ran: string[] = [];
    whenLoaded(() => {
      ran.push(`first, loading ${$loading.get()}`);
      whenLoaded(() => ran.push('registered by the first'));
    });
    whenLoaded(() => ran.push('second'));
    finishLoading();
    expect(ran).toEqual(['first, loading false', 'registered by the first', 'second']);
  });

  it('runs the rest of the queue when one callback throws, and throws its error afterwards, on its own', async () => {
    const { finishLoading, whenLoaded } = await freshLoading();
    const later: Array<() => void> = [];
    vi.stubGlobal('queueMicrotask', (task: () => void) => later.push(task));
    const ran: string[] = [];
    whenLoaded(() => {
      throw new Error('broken callback');
    });
    whenLoaded(() => ran.push('after the broken one'));
    finishLoading();
    vi.unstubAllGlobals();
    expect(ran).toEqual(['after the broken one']);
    expect(later).toHaveLength(1);
    expect(later[0]).toThrow('broken callback');
  });
});
