/** The server's messages: the `server` and `messages` parts of each locale's dictionary (content/i18n/<locale>.json). */
import { describe, expect, it } from 'vitest';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import { message, negotiateLocale } from '../../server/i18n/messages.ts';
import { dictionary } from '../../src/lib/editorial/content-files.ts';

const catalog = (code: LocaleCode) => dictionary(code).server;

describe('server messages', () => {
  it('exist in all eight languages with the same keys and placeholders', () => {
    const en = catalog('en');
    for (const code of localeCodes) {
      const other = catalog(code);
      expect(Object.keys(other), code).toEqual(Object.keys(en));
      for (const key of Object.keys(en)) expect(other[key].match(/\{\{\w+\}\}/g) ?? [], `${code} ${key}`).toEqual(en[key].match(/\{\{\w+\}\}/g) ?? []);
    }
  });

  it('are the dictionary’s server and shared messages, not the site’s strings', () => {
    for (const code of localeCodes) {
      expect(message(code, 'badRequest')).toBe(catalog(code).badRequest);
      expect(message(code, 'tooFast')).toBe(dictionary(code).messages.tooFast);
    }
    // @ts-expect-error a site string is no server message
    expect(() => message('en', 'nav.home')).toThrow();
  });

  it('follow the Accept-Language of the page', () => {
    expect(negotiateLocale('ja')).toBe('ja');
    expect(negotiateLocale('zh-Hant-HK,zh;q=0.8')).toBe('zh-TW');
    expect(negotiateLocale('zh')).toBe('zh-CN');
    expect(negotiateLocale('es-MX,es;q=0.9')).toBe('es');
    expect(negotiateLocale('fr-FR, de')).toBe('zh-CN');
    expect(negotiateLocale(undefined)).toBe('zh-CN');
    expect(message('ru', 'smsText', { code: '123456' })).toContain('123456');
  });
});
