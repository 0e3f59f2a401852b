/**
 * The request helper's cache kept in localStorage (src/lib/api/query.ts): an
 * answer cached on one page is used on the next page load, within its dedupe
 * time, instead of leaving the store empty and not loading. (JSON writes the
 * default lifetime, Infinity, as null.)
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
