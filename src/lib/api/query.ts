/**
 * The request helper (@nanostores/query) with the site's defaults, and a cache
 * kept in localStorage so the cache times hold across page loads of this
 * static site, not just within one page.
 */
import { nanoquery } from '@nanostores/query';
import { readJson, storageKeys, writeJson } from '@/lib/storage.ts';

type Entry = { data?: unknown; error?: unknown; retryCount?: number; created?: number; expires?: number };

/** A Map that mirrors its successful entries into localStorage. */
class StoredCache extends Map<string, Entry> {
  constructor() {
    // JSON writes an entry that never expires (nanoquery's default lifetime is Infinity) as null: it is read back as Infinity, or the entry would count as data nobody may use.
    const stored = Object.entries(readJson<Record<string, Entry & { expires?: number | null }>>(storageKeys.query) ?? {});
    super(stored.map(([key, entry]) => [key, { ...entry, expires: entry.expires ?? Infinity }]));
  }

  override set(key: string, value: Entry): this {
    super.set(key, value);
    this.save();
    return this;
  }

  override delete(key: string): boolean {
    const deleted = super.delete(key);
    this.save();
    return deleted;
  }

  override clear(): void {
    super.clear();
    this.save();
  }

  private save(): void {
    if (typeof localStorage === 'undefined') return;
    const kept = [...this].filter(([, entry]) => entry.data !== undefined && entry.error === undefined);
    writeJson(storageKeys.query, kept.length ? Object.fromEntries(kept) : null);
  }
}

/** Cache times; later callers add theirs here. */
export const cacheTimes = {
  default: 5 * 60_000,
  userInfo: 86_000_000,
  storeToken: 86_000_000,
  serviceLink: 86_000_000,
} as const;

const cache = new StoredCache();

const [createStore, , { mutateCache, invalidateKeys, revalidateKeys }] = nanoquery({
  cache,
  dedupeTime: cacheTimes.default,
  // An answer stays usable until it is fetched again. nanoquery lets an answer put in with
  // mutateCache (a registration just made) expire after 8 s, and a store whose reuse time
  // (dedupeTime) has not run out then shows that expired entry as nothing, without asking:
  // a page reloaded 12 s after registering said "you did not register".
  cacheLifetime: Infinity,
  // Focus is handled below, throttled to `focusRefreshMs`; nanoquery's own would wait for the whole reuse time.
  revalidateOnFocus: false,
  // Exponential back-off, capped at 30 s.
  onErrorRetry: ({ retryCount }) => Math.min(1000 * 2 ** retryCount, 30_000),
});

export { mutateCache, invalidateKeys };

/** A page that comes back into view refreshes what it shows, at most this often. */
export const focusRefreshMs = 5_000;

/** The key prefixes of the stores that refresh on focus. */
const refreshedOnFocus = new Set<string>();

type StoreKeys = Parameters<typeof createStore>[0];
type StoreSettings<T> = NonNullable<Parameters<typeof createStore<T>>[1]>;

/**
 * A fetcher store with the site's defaults. Unless `refreshOnFocus` is false
 * (answers kept per login, which change only when the user acts), its answer
 * is fetched again whenever the page comes back into view, at most every 5 s,
 * while the 5-minute cache still spares other page loads.
 */
export function createFetcherStore<T>(keys: StoreKeys, { refreshOnFocus = true, ...settings }: StoreSettings<T> & { refreshOnFocus?: boolean } = {}) {
  if (refreshOnFocus) refreshedOnFocus.add(String(Array.isArray(keys) ? keys[0] : keys));
  return createStore<T>(keys, settings);
}

/** Refreshes the stores that refresh on focus, unless that happened within `focusRefreshMs` (the page's load counts as one). */
export function focusRefresher(now: () => number = Date.now): () => void {
  let last = now();
  return () => {
    if (now() - last < focusRefreshMs) return;
    last = now();
    revalidateKeys((key) => [...refreshedOnFocus].some((prefix) => key.startsWith(prefix)));
  };
}

// "Back in view" is the page becoming visible again, as nanoquery reads it too (switching tabs also focuses the window: one event is enough).
if (typeof document !== 'undefined') {
  const refresh = focusRefresher();
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && refresh());
}

/** Forgets every cached answer (on logout: nothing of the last user may survive). */
export function clearQueryCache(): void {
  cache.clear();
}
