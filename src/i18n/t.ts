import { fillFacts } from '#contract/facts.ts';
import { placeholder } from '#contract/interpolate.ts';
import i18next, { type TFunction } from 'i18next';
import type { SharedMessageKey } from '#contract/messages.ts';
import { sharedMessages, withSharedMessages } from './shared-messages.ts';
import type en from '../../content/i18n/en.json';
import { defaultLocale, type LocaleCode } from './locales.ts';

type Dictionary = Record<string, string>;

/** A UI string's key: every dictionary has exactly the English one's keys (tests/unit/dictionaries.test.ts). */
export type UiKey = keyof typeof en | keyof typeof sharedMessages;

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

const files = import.meta.glob<Dictionary>('../../content/i18n/*.json', { eager: true, import: 'default' });
const sharedFiles = import.meta.glob<Record<SharedMessageKey, string>>('../../contract/messages/*.json', { eager: true, import: 'default' });

const filledDictionaries = new Map<LocaleCode, Dictionary>();

/**
 * The UI dictionary of a locale (content/i18n/<code>.json and the shared
 * messages), flat dotted keys, with its `{{group.fact}}` placeholders filled
 * from content/facts.json; the `{{name}}` parameters stay for the caller.
 */
export function dictionaryOf(code: LocaleCode): Dictionary {
  let dictionary = filledDictionaries.get(code);
  if (!dictionary) {
    const source = files[`../../content/i18n/${code}.json`];
    const shared = sharedFiles[`../../contract/messages/${code}.json`];
    if (!source || !shared) throw new Error(`No UI dictionary for locale "${code}"`);
    dictionary = Object.fromEntries(Object.entries(withSharedMessages(source, shared)).map(([key, text]) => [key, fillFacts(text, code)]));
    filledDictionaries.set(code, dictionary);
  }
  return dictionary;
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

/**
 * A translated sentence cut at its `{{name}}` placeholders: text at even
 * indexes, placeholder names at odd ones. For a page that fills placeholders
 * with markup (links), which interpolating into a string cannot do safely.
 */
export function sentenceParts(code: LocaleCode, key: UiKey): string[] {
  const template = dictionaryOf(code)[key];
  if (template === undefined) throw new Error(`Missing UI string "${key}" in content/i18n/${code}.json`);
  // Splitting keeps the placeholders' names, as the pattern captures them.
  return template.split(placeholder);
}

const translators = new Map<LocaleCode, TFunction>();

/**
 * The translate function of a locale. A key missing from the dictionary fails
 * the build instead of printing the raw key on a page.
 */
export function useTranslations(code: LocaleCode = defaultLocale): TFunction {
  let t = translators.get(code);
  if (!t) {
    const instance = i18next.createInstance();
    instance.init({
      lng: code,
      fallbackLng: false,
      resources: { [code]: { translation: dictionaryOf(code) } },
      keySeparator: false,
      nsSeparator: false,
      initAsync: false,
      interpolation: { escapeValue: false },
      parseMissingKeyHandler: (key: string) => {
        throw new Error(`Missing UI string "${key}" in content/i18n/${code}.json`);
      },
    });
    t = instance.getFixedT(code);
    translators.set(code, t);
  }
  return t;
}
