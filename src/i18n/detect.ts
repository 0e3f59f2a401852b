/**
 * Locale choice (spec §1, DESIGN §4): the stored setting wins, else the browser
 * languages, else zh-CN. Both functions run in the browser as an inline script
 * before first paint (see LocaleRedirect.astro), so they must stay
 * self-contained: no references outside their own parameters.
 */

/** The supported locale that best matches a stored code and the browser's languages. */
export function preferredLocale(
  stored: string | null | undefined,
  languages: readonly string[],
  codes: readonly string[],
  fallback: string,
): string {
  const lower = codes.map((c) => c.toLowerCase());
  const exact = (tag: string) => {
    const i = lower.indexOf(tag.toLowerCase());
    return i < 0 ? null : codes[i];
  };
  if (stored && exact(stored)) return exact(stored) as string;
  for (const raw of languages) {
    const tag = raw.toLowerCase();
    if (tag.startsWith('zh')) {
      // Traditional script or a region that writes it; everything else Chinese is Simplified.
      const traditional = /^zh-(hant|tw|hk|mo)\b/.test(tag);
      const zh = exact(traditional ? 'zh-TW' : 'zh-CN');
      if (zh) return zh;
      continue;
    }
    const found = exact(tag) ?? exact(tag.split('-')[0]);
    if (found) return found;
  }
  return fallback;
}

export interface RedirectConfig {
  /** Locale code to URL segment ('' for the unprefixed default locale). */
  segments: Record<string, string>;
  /** The default locale: what an unprefixed URL shows. */
  fallback: string;
  storageKey: string;
  /** Box pages take the desktop client's `?language=` over everything else. */
  languageParam: boolean;
}

/**
 * Where this visitor should be sent, or null to stay. A prefixed URL is always
 * honoured, so a redirect happens at most once. The URL, not the page, tells
 * the locale: a host may serve one not-found page for every path.
 */
export function localeRedirectTarget(
  pick: typeof preferredLocale,
  config: RedirectConfig,
  win: Pick<Window, 'location' | 'localStorage' | 'navigator'>,
): string | null {
  const codes = Object.keys(config.segments);
  const { pathname, search, hash } = win.location;
  const first = (pathname.split('/')[1] || '').toLowerCase();
  const prefixed = codes.find((c) => config.segments[c] && config.segments[c] === first);
  const current = prefixed || config.fallback;
  let target: string | null = null;
  const param = config.languageParam ? new URLSearchParams(search).get('language') : null;
  if (param) target = pick(param, [], codes, '') || null;
  if (!target) {
    if (prefixed) return null;
    let stored: string | null = null;
    try {
      stored = win.localStorage.getItem(config.storageKey);
    } catch {
      // Storage can be blocked (privacy mode); the browser language still decides.
    }
    target = pick(stored, win.navigator.languages || [win.navigator.language], codes, config.fallback);
  }
  if (target === current) return null;
  const rest = prefixed ? pathname.slice(first.length + 1) || '/' : pathname;
  const segment = config.segments[target];
  const path = segment ? `/${segment}${rest === '/' ? '' : rest}` : rest;
  return path + search + hash;
}
