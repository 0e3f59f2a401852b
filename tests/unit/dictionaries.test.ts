import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localeCodes } from '../../src/i18n/locales.ts';
import { dictionaryOf, useTranslations } from '../../src/i18n/t.ts';

const reference = dictionaryOf('en');
const placeholders = (text: string) => (text.match(/{{\s*\w+\s*}}/g) ?? []).map((p) => p.replace(/\s/g, '')).sort();

describe('UI dictionaries', () => {
  it('exist for exactly the eight locales', () => {
    const files = readdirSync('content/i18n')
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace('.json', ''));
    expect(files.toSorted()).toEqual([...localeCodes].sort());
  });

  it.each(localeCodes)('%s has every key, and nothing else', (code) => {
    expect(Object.keys(dictionaryOf(code)).sort()).toEqual(Object.keys(reference).sort());
  });

  it.each(localeCodes)('%s keeps every placeholder and leaves nothing empty', (code) => {
    const dictionary = dictionaryOf(code);
    for (const [key, english] of Object.entries(reference)) {
      expect(dictionary[key]?.trim(), `${code}: ${key}`).toBeTruthy();
      expect(placeholders(dictionary[key]), `${code}: ${key}`).toEqual(placeholders(english));
    }
  });

  it.each(localeCodes.filter((c) => c !== 'en'))('%s is translated, not English left in place', (code) => {
    const dictionary = dictionaryOf(code);
    const same = Object.keys(reference).filter((key) => dictionary[key] === reference[key] && /\s/.test(reference[key]));
    expect(same.filter((key) => !key.startsWith('platform.'))).toEqual([]);
  });

  it('translates with interpolation and refuses unknown keys', () => {
    expect(useTranslations('en')('footer.version', { version: '3.0.1119.0', client: '8.0.7' })).toBe('Version 3.0.1119.0 · download site 8.0.7');
    expect(useTranslations('zh-CN')('nav.home')).toBe('首页');
    expect(() => useTranslations('en')('no.such.key')).toThrow(/Missing UI string "no.such.key"/);
  });
});
