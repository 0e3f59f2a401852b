/**
 * The server's own user-facing messages, one JSON catalog per locale in this
 * folder. The client sends its locale in Accept-Language, so errors reach the
 * user in the language of the page they are on.
 */
import { readFileSync } from 'node:fs';
import { defaultLocale, localeCodes, type LocaleCode } from '../../contract/locales.ts';

type Catalog = typeof import('./en.json');
export type MessageKey = keyof Catalog;

const catalogs = Object.fromEntries(
  localeCodes.map((code) => [code, JSON.parse(readFileSync(new URL(`./${code}.json`, import.meta.url), 'utf8')) as Catalog]),
) as Record<LocaleCode, Catalog>;

/** Picks one of our locales from an Accept-Language header: exact tag first, then Chinese script/region, then the language. */
export function negotiateLocale(header: string | undefined): LocaleCode {
  for (const part of (header ?? '').split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase();
    if (!tag) continue;
    const exact = localeCodes.find((code) => code.toLowerCase() === tag);
    if (exact) return exact;
    const [language] = tag.split('-');
    if (language === 'zh') return /hant|tw|hk|mo/.test(tag) ? 'zh-TW' : 'zh-CN';
    const byLanguage = localeCodes.find((code) => code === language);
    if (byLanguage) return byLanguage;
  }
  return defaultLocale;
}

export function message(locale: LocaleCode, key: MessageKey, params: Record<string, string> = {}): string {
  return catalogs[locale][key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');
}
