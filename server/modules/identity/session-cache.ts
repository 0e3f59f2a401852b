/**
 * A short-lived in-process memory of recent authentications and user infos,
 * so a busy client's calls do not each cost database round trips (PGlite
 * runs in this process: every query is CPU spent here).
 *
 * Changes made by this instance (sign-out, rotation, unbinding) drop the
 * affected entries at once. Another instance sharing the database sees them
 * within `ttlMs` — the documented price of not asking the database each time.
 */
export class TtlCache<K, V> {
  readonly #entries = new Map<K, { value: V; until: number }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;

  constructor(ttlMs: number, maxEntries: number) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
  }

  get(key: K, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, now = Date.now()): void {
    // Maps keep insertion order, so the first key is the oldest entry.
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as K);
    this.#entries.set(key, { value, until: now + this.#ttlMs });
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  /** Drops every entry whose value matches (e.g. all tokens of one session). */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#entries.delete(key);
  }
}
