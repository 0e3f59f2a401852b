import i18next, { type TFunction } from 'i18next';
import { defaultLocale, type LocaleCode } from './locales.ts';

type Dictionary = Record<string, string>;

const files = import.meta.glob<Dictionary>('../../content/i18n/*.json', { eager: true, import: 'default' });

/** The UI dictionary of a locale (content/i18n/<code>.json), flat dotted keys. */
export function dictionaryOf(code: LocaleCode): Dictionary {
  const dictionary = files[`../../content/i18n/${code}.json`];
  if (!dictionary) throw new Error(`No UI dictionary for locale "${code}"`);
  return dictionary;
}

/** What a page hands its island: the keys named, and those under them (`login` → `login.*`). */
export function stringsFor(code: LocaleCode, names: string[]): Dictionary {
  return Object.fromEntries(Object.entries(dictionaryOf(code)).filter(([key]) => names.some((name) => key === name || key.startsWith(`${name}.`))));
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
