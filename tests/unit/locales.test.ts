import { describe, expect, it } from 'vitest';
import { directionOf, getLocale, localeCodes, localizePath, locales } from '../../src/i18n/locales.ts';

describe('locale table', () => {
  it('has the eight locales of the spec, zh-CN first and unprefixed', () => {
    expect(localeCodes).toEqual(['zh-CN', 'zh-TW', 'en', 'es', 'it', 'ja', 'ko', 'ru']);
    expect(getLocale('zh-CN').segment).toBe('');
    expect(getLocale('zh-TW').segment).toBe('zh-tw');
    expect(new Set(locales.map((l) => l.segment)).size).toBe(locales.length);
  });

  it('writes right to left only for he, ar, fa and ku', () => {
    for (const tag of ['he', 'ar-EG', 'fa-IR', 'ku']) expect(directionOf(tag)).toBe('rtl');
    for (const l of locales) expect(l.dir).toBe('ltr');
  });

  it('localises spec paths', () => {
    expect(localizePath('zh-CN', '/download')).toBe('/download');
    expect(localizePath('en', '/download')).toBe('/en/download');
    expect(localizePath('zh-TW', '/')).toBe('/zh-tw');
  });

  it('rejects an unknown locale', () => {
    expect(() => getLocale('fr')).toThrow(/Unknown locale/);
  });
});
