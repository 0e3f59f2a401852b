/**
 * The one locale table. Everything that needs to know about a locale (URL
 * segment, BCP-47 tag, label, dayjs locale, text direction) reads it from here.
 */
import { localeSegment, type LocaleCode as ApiLocaleCode } from '#contract/locales.ts';

/** Languages written right to left; kept so a future locale gets `dir="rtl"` for free. */
const rtlLanguages = ['he', 'ar', 'fa', 'ku'];

/** Text direction of a BCP-47 tag, from its primary language subtag. */
export function directionOf(tag: string): 'ltr' | 'rtl' {
  return rtlLanguages.includes(tag.split('-')[0].toLowerCase()) ? 'rtl' : 'ltr';
}

function locale<const C extends ApiLocaleCode>(code: C, label: string, dayjs: string) {
  return { code, segment: localeSegment(code), tag: code as string, label, dayjs, dir: directionOf(code) };
}

/** The API's locale list (contract/) and this table must name the same languages. */
export const locales = [
  locale('zh-CN', '简体中文', 'zh-cn'),
  locale('zh-TW', '繁體中文', 'zh-tw'),
  locale('en', 'English', 'en-gb'),
  locale('es', 'Español', 'es'),
  locale('it', 'Italiano', 'it'),
  locale('ja', '日本語', 'ja'),
  locale('ko', '한국어', 'ko'),
  locale('ru', 'Русский', 'ru'),
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

/** The URL of `path` (a spec path such as `/download`) in the given locale. */
export function localizePath(code: string, path: string): string {
  const { segment } = getLocale(code);
  if (!segment) return path;
  return path === '/' ? `/${segment}` : `/${segment}${path}`;
}
