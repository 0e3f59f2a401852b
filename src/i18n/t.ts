import { fillFacts } from '#contract/facts.ts';
import { interpolate, placeholder } from '#contract/interpolate.ts';
import type dictionary from '../../content/i18n/en.json';
import { defaultLocale, type LocaleCode } from './locales.ts';

type Dictionary = Record<string, string>;
type Parts = typeof dictionary;
type Prefixed<P extends string, K> = K extends string ? `${P}.${K}` : never;

/**
 * A UI string's key: the `site` part's keys as they are, the `console` and
 * `messages` parts' under their part's name (`console.orders.title`,
 * `messages.tooFast`). Every locale has exactly the English keys
 * (tests/unit/dictionaries.test.ts).
 */
export type UiKey = keyof Parts['site'] | Prefixed<'console', keyof Parts['console']> | Prefixed<'messages', keyof Parts['messages']>;

/** The dotted prefixes of a key: `login.tab.sms` → `login` | `login.tab`. */
type PrefixesOf<K extends string> = K extends `${infer Head}.${infer Rest}` ? Head | `${Head}.${PrefixesOf<Rest>}` : never;

/** What a page may name when it hands strings down: a key, or a prefix standing for the keys under it. */
export type UiName = UiKey | PrefixesOf<UiKey>;

/** The keys a list of names stands for. */
export type KeysUnder<N extends string> = Extract<UiKey, N | `${N}.${string}`>;

/**
 * Dictionary entries handed to an island: the keys `K` for certain, others
 * perhaps. An island that states its `K` can ask only for those, and its page
 * must hand them all down, or the page does not type-check.
 */
export type Strings<K extends UiKey = never> = Readonly<Record<K, string>> & { readonly [P in UiKey]?: string };

/** A translate function over the keys `K`: `{{name}}` placeholders filled from `params` (contract/interpolate.ts). */
export type Translate<K extends UiKey> = (key: K, params?: Record<string, string | number>) => string;

// The site's parts of each locale's dictionary, not the server's: Vite imports a JSON file's top-level keys by name.
const parts = {
  site: import.meta.glob<Dictionary>('../../content/i18n/*.json', { eager: true, import: 'site' }),
  console: import.meta.glob<Dictionary>('../../content/i18n/*.json', { eager: true, import: 'console' }),
  messages: import.meta.glob<Dictionary>('../../content/i18n/*.json', { eager: true, import: 'messages' }),
};

const filledDictionaries = new Map<LocaleCode, Dictionary>();

/**
 * The UI dictionary of a locale (content/i18n/<code>.json: its `site` part,
 * and its `console` and `messages` parts under their names), flat dotted
 * keys, with its `{{group.fact}}` placeholders filled from content/facts.json;
 * the `{{name}}` parameters stay for the caller.
 */
export function dictionaryOf(code: LocaleCode): Dictionary {
  let filled = filledDictionaries.get(code);
  if (!filled) {
    const file = `../../content/i18n/${code}.json`;
    const [site, operators, messages] = [parts.site[file], parts.console[file], parts.messages[file]];
    if (!site || !operators || !messages) throw new Error(`No UI dictionary for locale "${code}"`);
    const entries = [
      ...Object.entries(site),
      ...Object.entries(operators).map(([key, text]) => [`console.${key}`, text]),
      ...Object.entries(messages).map(([key, text]) => [`messages.${key}`, text]),
    ];
    filled = Object.fromEntries(entries.map(([key, text]) => [key, fillFacts(text, code)]));
    filledDictionaries.set(code, filled);
  }
  return filled;
}

/**
 * What a page hands its island: the keys named, and those under them
 * (`login` → `login.*`). A name that matches nothing fails the build, so an
 * island never waits for a string its page did not send.
 */
export function stringsFor<const N extends UiName>(code: LocaleCode, names: readonly N[]): Strings<KeysUnder<N>> {
  const entries = Object.entries(dictionaryOf(code));
  const picked = names.map((name) => {
    const matching = entries.filter(([key]) => key === name || key.startsWith(`${name}.`));
    if (!matching.length) throw new Error(`No UI string "${name}" or "${name}.*" in content/i18n/${code}.json`);
    return matching;
  });
  return Object.fromEntries(picked.flat()) as Strings<KeysUnder<N>>;
}

/** A UI string of the locale, or an error naming the key: a page never shows a raw key. */
function template(code: LocaleCode, key: UiKey): string {
  const text = dictionaryOf(code)[key];
  if (text === undefined) throw new Error(`Missing UI string "${key}" in content/i18n/${code}.json`);
  return text;
}

/**
 * A translated sentence cut at its `{{name}}` placeholders: text at even
 * indexes, placeholder names at odd ones. For a page that fills placeholders
 * with markup (links), which interpolating into a string cannot do safely.
 */
export function sentenceParts(code: LocaleCode, key: UiKey): string[] {
  // Splitting keeps the placeholders' names, as the pattern captures them.
  return template(code, key).split(placeholder);
}

/**
 * The translate function of a page in a locale: typed by the keys, as an
 * island's is (src/i18n/strings.ts), so a mistyped key does not type-check,
 * and a key built at run time that is missing fails the build.
 */
export function useTranslations(code: LocaleCode = defaultLocale): Translate<UiKey> {
  return (key, params) => interpolate(template(code, key), params);
}
