/**
 * The before-paint locale redirect: the stored setting
 * wins, else the browser languages, else zh-CN — by the one matching rule,
 * contract's `preferredLocale`, which the server follows too and which comes
 * in as `pick`. It runs in the browser as an inline script serialised from its
 * source (see components/head-scripts.ts), so it must stay self-contained: no
 * references outside its own parameters.
 */
import type { preferredLocale } from '#contract/locales.ts';

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
