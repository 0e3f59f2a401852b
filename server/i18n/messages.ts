/**
 * The server's own user-facing messages and those it shares with the site
 * (contract/messages.ts): the `server` and `messages` parts of each locale's
 * dictionary, content/i18n/<locale>.json, read once when the server starts
 * (the site's parts are dropped). The client sends its locale in
 * Accept-Language, so errors reach the user in the language of the page they
 * are on.
 */
import { readFileSync } from 'node:fs';
import { fillFacts } from '#contract/facts.ts';
import { interpolate } from '#contract/interpolate.ts';
import type { SharedMessageKey } from '#contract/messages.ts';
import { acceptedLanguages, defaultLocale, localeCodes, preferredLocale, type LocaleCode } from '#contract/locales.ts';

export type MessageKey = keyof (typeof import('../../content/i18n/en.json'))['server'] | SharedMessageKey;
type Catalog = Record<MessageKey, string>;

/** A locale's messages with their `{{group.fact}}` facts filled in once, as they never change while the server runs. */
function readCatalog(code: LocaleCode): Catalog {
  const { server, messages } = JSON.parse(readFileSync(new URL(`../../content/i18n/${code}.json`, import.meta.url), 'utf8')) as Record<string, Catalog>;
  return Object.fromEntries(Object.entries({ ...messages, ...server }).map(([key, text]) => [key, fillFacts(text, code)])) as Catalog;
}

const catalogs = Object.fromEntries(localeCodes.map((code) => [code, readCatalog(code)])) as Record<LocaleCode, Catalog>;

/** One of our locales for an Accept-Language header, by the rule the site follows too. */
export function negotiateLocale(header: string | undefined): LocaleCode {
  return preferredLocale(null, acceptedLanguages(header), localeCodes, defaultLocale) as LocaleCode;
}

/** A message in the locale, its `{{name}}` parameters and `{{group.fact}}` facts filled in. */
export function message(locale: LocaleCode, key: MessageKey, params: Record<string, string> = {}): string {
  return interpolate(catalogs[locale][key], params);
}
