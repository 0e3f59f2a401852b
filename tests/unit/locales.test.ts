import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as contract from '#contract/locales.ts';
import { defaultLocale, directionOf, getLocale, localeCodes, localizePath, locales } from '@/i18n/locales.ts';

const root = new URL('../../', import.meta.url);
/** The locale codes that have a dictionary in `folder`. */
const dictionaries = (folder: string) =>
  readdirSync(new URL(folder, root))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length));

describe('locale table', () => {
  it('names the same languages as the contract, in the same order, with zh-CN the unprefixed default', () => {
    expect(localeCodes).toEqual([...contract.localeCodes]);
    expect(defaultLocale).toBe(contract.defaultLocale);
    expect(defaultLocale).toBe('zh-CN');
    expect(localeCodes[0]).toBe(defaultLocale);
    expect(getLocale(defaultLocale).segment).toBe('');
  });

  it('gives every other locale its own URL segment', () => {
    const prefixed = locales.filter((l) => l.code !== defaultLocale);
    for (const l of prefixed) expect(l.segment).toBe(l.code.toLowerCase());
    expect(new Set(locales.map((l) => l.segment)).size).toBe(locales.length);
  });

  it('has a dictionary for every locale, and none for a locale it lacks', () => {
    expect(dictionaries('content/i18n/').sort()).toEqual([...localeCodes].sort());
  });

  it('writes right to left only for he, ar, fa and ku', () => {
    for (const tag of ['he', 'ar-EG', 'fa-IR', 'ku']) expect(directionOf(tag)).toBe('rtl');
    for (const l of locales) expect(l.dir).toBe(directionOf(l.tag));
  });

  it('localises paths without a locale prefix', () => {
    expect(localizePath('zh-CN', '/download')).toBe('/download');
    expect(localizePath('en', '/download')).toBe('/en/download');
    expect(localizePath('zh-TW', '/')).toBe('/zh-tw');
  });

  it('rejects an unknown locale', () => {
    expect(() => getLocale('fr')).toThrow(/Unknown locale/);
  });
});
