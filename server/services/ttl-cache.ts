/**
 * A short-lived in-process memory with a bounded size. The identity module
 * keeps recent authentications and user infos in it, so a busy client's calls
 * do not each cost database round trips (PGlite runs in this process: every
 * query is CPU spent here); changes made by this instance (sign-out, rotation,
 * unbinding) drop the affected entries at once, and another instance sharing
 * the database sees them within `ttlMs` — the documented price of not asking
 * the database each time. The development identity provider keeps its codes
 * and tokens in it.
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
