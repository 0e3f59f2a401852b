/**
 * The server's own user-facing messages, one JSON catalog per locale in this
 * folder. The client sends its locale in Accept-Language, so errors reach the
 * user in the language of the page they are on.
 */
import { readFileSync } from 'node:fs';
import { fillFacts } from '#contract/facts.ts';
import { interpolate } from '#contract/interpolate.ts';
import { acceptedLanguages, defaultLocale, localeCodes, preferredLocale, type LocaleCode } from '#contract/locales.ts';

type Catalog = typeof import('./en.json');
export type MessageKey = keyof Catalog;

const catalogs = Object.fromEntries(
  localeCodes.map((code) => [code, JSON.parse(readFileSync(new URL(`./${code}.json`, import.meta.url), 'utf8')) as Catalog]),
) as Record<LocaleCode, Catalog>;

/** One of our locales for an Accept-Language header, by the rule the site follows too. */
export function negotiateLocale(header: string | undefined): LocaleCode {
  return preferredLocale(null, acceptedLanguages(header), localeCodes, defaultLocale) as LocaleCode;
}

/** A message in the locale, its `{{name}}` parameters and `{{group.fact}}` facts filled in. */
export function message(locale: LocaleCode, key: MessageKey, params: Record<string, string> = {}): string {
  return interpolate(fillFacts(catalogs[locale][key], locale), params);
}
