/**
 * The request helper's cache kept in localStorage (src/lib/api/query.ts): an
 * answer cached on one page is used on the next page load, within its dedupe
 * time, instead of leaving the store empty and not loading. (JSON writes the
 * default lifetime, Infinity, as null.) An answer the page put in itself lives as
 * long as a fetched one.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { storageKeys } from '@/lib/storage.ts';

/** localStorage as a page has it, kept across "page loads" (fresh module imports). */
const stored = new Map<string, string>();
const storage = {
  getItem: (key: string) => stored.get(key) ?? null,
  setItem: (key: string, value: string) => void stored.set(key, value),
  removeItem: (key: string) => void stored.delete(key),
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

async function pageLoad() {
  vi.resetModules();
  vi.stubGlobal('localStorage', storage);
  return import('@/lib/api/query.ts');
}

/** The store's value once it has settled (data or an error, not loading). */
async function settled<T>(store: { subscribe(listener: (value: { loading?: boolean; data?: T }) => void): () => void }) {
  return new Promise<{ data?: T; loading?: boolean }>((resolve) => {
    const stop = store.subscribe((value) => {
      if (value.loading === false || value.data !== undefined) {
        queueMicrotask(() => stop());
        resolve(value);
      }
    });
  });
}

it('an answer cached on one page load is there on the next, without asking again', async () => {
  const first = await pageLoad();
  const fetcher = vi.fn(async () => ({ answer: 42 }));
  expect((await settled(first.createFetcherStore(['answer'], { fetcher, dedupeTime: 60_000 }))).data).toEqual({ answer: 42 });
  expect(JSON.parse(stored.get(storageKeys.query)!).answer.data).toEqual({ answer: 42 });

  const second = await pageLoad();
  const again = vi.fn(async () => ({ answer: 43 }));
  expect((await settled(second.createFetcherStore(['answer'], { fetcher: again, dedupeTime: 60_000 }))).data).toEqual({ answer: 42 });
  expect(again).not.toHaveBeenCalled();
});

it('an answer put in by the page (mutateCache) is there on a page load long after, within its dedupe time', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    // The page asked (not registered), then registered and put the answer in.
    const first = await pageLoad();
    await settled(first.createFetcherStore(['registered:7'], { fetcher: async () => false, dedupeTime: 360_000 }));
    first.mutateCache('registered:7', true);

    // A reload 20 s later: past nanoquery's own 8 s for mutated answers, well within the 360 s the store reuses them.
    vi.setSystemTime(Date.now() + 20_000);
    const second = await pageLoad();
    const fetcher = vi.fn(async () => false);
    expect((await settled(second.createFetcherStore(['registered:7'], { fetcher, dedupeTime: 360_000 }))).data).toBe(true);
    expect(fetcher).not.toHaveBeenCalled();
  } finally {
    vi.useRealTimers();
  }
});

it('refreshes what the page shows when it comes back into view, at most every 5 s, except answers kept per login', async () => {
  stored.clear();
  const { createFetcherStore, focusRefresher, focusRefreshMs } = await pageLoad();
  let clock = 1_000_000;
  const calls = { board: 0, user: 0 };
  const $board = createFetcherStore<number>(['focus-board'], { fetcher: async () => ++calls.board });
  const $user = createFetcherStore<number>(['focus-user'], { fetcher: async () => ++calls.user, refreshOnFocus: false });
  const stops = [$board.listen(() => {}), $user.listen(() => {})];
  await vi.waitFor(() => expect(calls).toEqual({ board: 1, user: 1 }));
  const focused = focusRefresher(() => clock);

  clock += focusRefreshMs - 1;
  focused();
  clock += 1;
  focused();
  await vi.waitFor(() => expect($board.get().data).toBe(2));
  focused();
  clock += focusRefreshMs;
  focused();
  await vi.waitFor(() => expect($board.get().data).toBe(3));
  expect(calls).toEqual({ board: 3, user: 1 });
  stops.forEach((stop) => stop());
});
