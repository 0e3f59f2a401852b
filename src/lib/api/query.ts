/**
 * The request helper (@nanostores/query) with spec §9's defaults, and a cache
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

/** Spec §9 cache times; later callers add theirs here. */
export const cacheTimes = {
  default: 5 * 60_000,
  userInfo: 86_000_000,
  storeToken: 86_000_000,
  serviceLink: 86_000_000,
} as const;

const cache = new StoredCache();

export const [createFetcherStore, , { mutateCache, invalidateKeys }] = nanoquery({
  cache,
  dedupeTime: cacheTimes.default,
  // An answer stays usable until it is fetched again. nanoquery lets an answer put in with
  // mutateCache (a registration just made) expire after 8 s, and a store whose reuse time
  // (dedupeTime) has not run out then shows that expired entry as nothing, without asking:
  // a page reloaded 12 s after registering said "you did not register".
  cacheLifetime: Infinity,
  revalidateOnFocus: true,
  // Exponential back-off, capped at 30 s (spec §9).
  onErrorRetry: ({ retryCount }) => Math.min(1000 * 2 ** retryCount, 30_000),
});

/** Forgets every cached answer (on logout: nothing of the last user may survive). */
export function clearQueryCache(): void {
  cache.clear();
}
