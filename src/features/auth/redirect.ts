/**
 * Where to go after login: the `redirectUrl` of the login page, but only a
 * path on this site — anything else (another origin, `//host`, `/\host`,
 * `javascript:`) falls back, because an open redirect is a phishing tool.
 */
export function safeRedirect(raw: string | null, origin: string, fallback: string): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  try {
    const target = new URL(raw, origin);
    return target.origin === origin ? `${target.pathname}${target.search}${target.hash}` : fallback;
  } catch {
    return fallback;
  }
}
