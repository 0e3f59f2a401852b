/** The eight interface languages; the site's locale table and the server's messages both follow this list. */
export const localeCodes = ['zh-CN', 'zh-TW', 'en', 'es', 'it', 'ja', 'ko', 'ru'] as const;

export type LocaleCode = (typeof localeCodes)[number];

export const defaultLocale: LocaleCode = 'zh-CN';

/**
 * The language content is written in first and translated from: a page a
 * locale lacks shows this locale's text with a notice, and a translation is
 * outdated when this locale's file changed after it. Changing it means
 * rewording each locale's `content.fallbackNotice`, which names the language.
 */
export const sourceLocale: LocaleCode = 'zh-CN';

/** The first segment of a locale's URLs: none for the default locale, else the code in lower case (`/zh-tw/…`). */
export function localeSegment(code: LocaleCode): string {
  return code === defaultLocale ? '' : code.toLowerCase();
}

/** The tag that formats numbers, money, periods and lists: our English is British, in spelling and in formats. */
export function formattingTag(code: string): string {
  return code === 'en' ? 'en-GB' : code;
}

/**
 * The one rule for matching a visitor's languages to ours, used by
 * the server for Accept-Language and by the site's before-paint redirect: a
 * stored choice that is one of `codes` wins; else the first language that
 * matches exactly or by its primary subtag; else `fallback`. Chinese goes by
 * script first (Hant → zh-TW, Hans → zh-CN), then by region (TW, HK and MO
 * write Traditional), else Simplified.
 *
 * It runs in the browser as an inline script before first paint, serialised
 * from its source, so it must stay self-contained: no references outside its
 * own parameters.
 */
export function preferredLocale(stored: string | null | undefined, languages: readonly string[], codes: readonly string[], fallback: string): string {
  const lower = codes.map((c) => c.toLowerCase());
  const exact = (tag: string) => {
    const i = lower.indexOf(tag.toLowerCase());
    return i < 0 ? null : codes[i];
  };
  if (stored && exact(stored)) return exact(stored) as string;
  for (const raw of languages) {
    const tag = raw.trim().toLowerCase();
    const subtags = tag.split('-');
    if (subtags[0] === 'zh') {
      const script = subtags.find((s) => s === 'hant' || s === 'hans');
      const traditional = script ? script === 'hant' : subtags.some((s) => s === 'tw' || s === 'hk' || s === 'mo');
      const zh = exact(traditional ? 'zh-TW' : 'zh-CN');
      if (zh) return zh;
      continue;
    }
    const found = exact(tag) ?? exact(subtags[0]);
    if (found) return found;
  }
  return fallback;
}

/** The languages of an Accept-Language header, most wanted first (ties keep their order; q=0 means "not this one"). */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...options] = part.split(';').map((piece) => piece.trim());
      const q = options.find((option) => option.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}
