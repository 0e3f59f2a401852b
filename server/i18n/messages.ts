/**
 * The server's own user-facing messages, one JSON catalog per locale in this
 * folder, joined by the error messages it shares with the site
 * (contract/messages.ts). The client sends its locale in Accept-Language, so
 * errors reach the user in the language of the page they are on.
 */
import { readFileSync } from 'node:fs';
import { fillFacts } from '#contract/facts.ts';
import { interpolate } from '#contract/interpolate.ts';
import type { SharedMessageKey } from '#contract/messages.ts';
import { acceptedLanguages, defaultLocale, localeCodes, preferredLocale, type LocaleCode } from '#contract/locales.ts';

export type MessageKey = keyof typeof import('./en.json') | SharedMessageKey;
type Catalog = Record<MessageKey, string>;

const readCatalog = (url: URL) => JSON.parse(readFileSync(url, 'utf8')) as Partial<Catalog>;

const catalogs = Object.fromEntries(
  localeCodes.map((code) => [
    code,
    { ...readCatalog(new URL(`../../contract/messages/${code}.json`, import.meta.url)), ...readCatalog(new URL(`./${code}.json`, import.meta.url)) } as Catalog,
  ]),
) as Record<LocaleCode, Catalog>;

/** One of our locales for an Accept-Language header, by the rule the site follows too. */
export function negotiateLocale(header: string | undefined): LocaleCode {
  return preferredLocale(null, acceptedLanguages(header), localeCodes, defaultLocale) as LocaleCode;
}

/** A message in the locale, its `{{name}}` parameters and `{{group.fact}}` facts filled in. */
export function message(locale: LocaleCode, key: MessageKey, params: Record<string, string> = {}): string {
  return interpolate(fillFacts(catalogs[locale][key], locale), params);
}
