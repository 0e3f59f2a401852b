/**
 * The one locale table. Everything that needs to know about a locale (URL
 * segment, BCP-47 tag, label, text direction) reads it from here; each
 * locale's dayjs file is listed beside the formatting, in dates.ts.
 */
import { localeSegment, type LocaleCode as ApiLocaleCode } from '#contract/locales.ts';

/** Languages written right to left; kept so a future locale gets `dir="rtl"` for free. */
const rtlLanguages = ['he', 'ar', 'fa', 'ku'];

/** Text direction of a BCP-47 tag, from its primary language subtag. */
export function directionOf(tag: string): 'ltr' | 'rtl' {
  return rtlLanguages.includes(tag.split('-')[0].toLowerCase()) ? 'rtl' : 'ltr';
}

function locale<const C extends ApiLocaleCode>(code: C, label: string) {
  return { code, segment: localeSegment(code), tag: code as string, label, dir: directionOf(code) };
}

/** The API's locale list (contract/) and this table must name the same languages. */
export const locales = [
  locale('zh-CN', '简体中文'),
  locale('zh-TW', '繁體中文'),
  locale('en', 'English'),
  locale('es', 'Español'),
  locale('it', 'Italiano'),
  locale('ja', '日本語'),
  locale('ko', '한국어'),
  locale('ru', 'Русский'),
] satisfies ReadonlyArray<{ code: ApiLocaleCode }>;

export type LocaleCode = (typeof locales)[number]['code'];
export type Locale = (typeof locales)[number];

export const defaultLocale: LocaleCode = 'zh-CN';

/** The one localStorage key that holds the visitor's chosen locale. */
export const localeStorageKey = 'beacon.locale';

export const localeCodes = locales.map((l) => l.code);

/** Looks a locale up by code; throws on an unknown code so typos fail the build. */
export function getLocale(code: string): Locale {
  const found = locales.find((l) => l.code === code);
  if (!found) throw new Error(`Unknown locale "${code}"`);
  return found;
}

/** The URL of `path` (a path without locale prefix, such as `/download`) in the given locale. */
export function localizePath(code: string, path: string): string {
  const { segment } = getLocale(code);
  if (!segment) return path;
  return path === '/' ? `/${segment}` : `/${segment}${path}`;
}
