/**
 * One dictionary per locale (content/i18n/<locale>.json), in four parts —
 * the site's, the console's, the server's and the messages both say — each
 * with exactly the English keys, every placeholder kept and nothing left
 * empty; the site reads its parts as one typed dictionary.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dictionary, dictionaryParts } from '../../src/lib/editorial/content-files.ts';
import { localeCodes } from '../../src/i18n/locales.ts';
import { dictionaryOf, useTranslations } from '../../src/i18n/t.ts';

const english = dictionary('en');
const reference = dictionaryOf('en');
const placeholders = (text: string) => (text.match(/{{\s*[\w.:|]+\s*}}/g) ?? []).map((p) => p.replace(/\s/g, '')).sort();

describe('dictionaries', () => {
  it('exist for exactly the eight locales', () => {
    const files = readdirSync('content/i18n')
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace('.json', ''));
    expect(files.toSorted()).toEqual([...localeCodes].sort());
  });

  it.each(localeCodes)('%s has the four parts, each with every English key and nothing else', (code) => {
    const written = dictionary(code);
    expect(Object.keys(written)).toEqual([...dictionaryParts]);
    for (const part of dictionaryParts) expect(Object.keys(written[part]).sort(), `${code} ${part}`).toEqual(Object.keys(english[part]).sort());
  });

  it.each(localeCodes)('%s keeps every placeholder and leaves nothing empty', (code) => {
    const written = dictionary(code);
    for (const part of dictionaryParts) {
      for (const [key, text] of Object.entries(english[part])) {
        expect(written[part][key]?.trim(), `${code} ${part} ${key}`).toBeTruthy();
        expect(placeholders(written[part][key]), `${code} ${part} ${key}`).toEqual(placeholders(text));
      }
    }
  });

  it.each(localeCodes.filter((c) => c !== 'en'))('%s is translated, not English left in place', (code) => {
    const site = dictionaryOf(code);
    const same = Object.keys(reference).filter((key) => site[key] === reference[key] && /\s/.test(reference[key]));
    expect(same.filter((key) => !key.startsWith('platform.'))).toEqual([]);
  });

  it('gives the site its own part, the console’s and the shared messages, not the server’s', () => {
    expect(Object.keys(reference).length).toBe(Object.keys(english.site).length + Object.keys(english.console).length + Object.keys(english.messages).length);
    expect(reference['console.title']).toBe(english.console.title);
    expect(reference['messages.tooFast']).toBe(english.messages.tooFast);
    expect(Object.keys(english.server).filter((key) => key in reference)).toEqual([]);
  });

  it('translates pages by typed key, with interpolation, and refuses unknown keys', () => {
    expect(useTranslations('en')('footer.version', { version: '3.0.1119.0', client: '8.0.7' })).toBe('Version 3.0.1119.0 · download site 8.0.7');
    expect(useTranslations('zh-CN')('nav.home')).toBe('首页');
    expect(useTranslations('ja')('messages.tooFast')).toBe(dictionary('ja').messages.tooFast);
    // @ts-expect-error not a key of the dictionary: a page naming it does not type-check
    expect(() => useTranslations('en')('no.such.key')).toThrow(/Missing UI string "no.such.key"/);
    // @ts-expect-error a server message is not the site's
    expect(() => useTranslations('en')('badRequest')).toThrow(/Missing UI string "badRequest"/);
  });
});
