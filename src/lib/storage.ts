/**
 * JSON values in localStorage under the one `beacon.` prefix. Storage may be
 * unavailable (private mode, blocked cookies): reads then give null and writes
 * do nothing, so the site still works for the visit.
 */
/** The class on <html> while a valid login is stored: CSS hides login prompts by it, before first paint. */
export const signedInClass = 'signed-in';

export const storageKeys = {
  auth: 'beacon.auth',
  user: 'beacon.user',
  device: 'beacon.device',
  query: 'beacon.query',
  /** The realtime connection's hub token, kept its 10 minutes across page loads. */
  hubToken: 'beacon.hubToken',
  /** A message to show on the next page (sessionStorage). */
  notice: 'beacon.notice',
  /** A quick login on its way through a provider: its key and where it goes back to (sessionStorage). */
  externalLogin: 'beacon.externalLogin',
  /** The page files that were missing (a new deployment), each of which reloaded the page once (sessionStorage). */
  chunkReload: 'beacon.chunkReload',
  /** The client seed of the instant raffle's provably fair draws: made once at random, changed by the user at will. */
  raffleClientSeed: 'beacon.raffleClientSeed',
} as const;

export function readJson<T>(key: string, storage: 'local' | 'session' = 'local'): T | null {
  try {
    const text = (storage === 'local' ? localStorage : sessionStorage).getItem(key);
    return text === null ? null : (JSON.parse(text) as T);
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown, storage: 'local' | 'session' = 'local'): void {
  try {
    const target = storage === 'local' ? localStorage : sessionStorage;
    if (value === null || value === undefined) target.removeItem(key);
    else target.setItem(key, JSON.stringify(value));
  } catch {
    // Storage is full or blocked: the value lives only as long as the page.
  }
}
