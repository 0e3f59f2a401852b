import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { preferredLocale } from '#contract/locales.ts';
import { headScripts } from '@/components/head-scripts.ts';
import { localeRedirectTarget, type RedirectConfig } from '@/i18n/detect.ts';
import { defaultLocale, localeCodes, localeStorageKey, locales } from '@/i18n/locales.ts';
import { negotiateLocale } from '../../server/i18n/messages.ts';

const pick = (stored: string | null, languages: string[]) => preferredLocale(stored, languages, localeCodes, defaultLocale);

describe('preferredLocale', () => {
  it('takes the stored setting first', () => {
    expect(pick('ja', ['en-US'])).toBe('ja');
  });

  it('ignores a stored value that is not a locale', () => {
    expect(pick('fr', ['ko-KR'])).toBe('ko');
  });

  it('matches browser languages by tag, then by primary language', () => {
    expect(pick(null, ['en-GB'])).toBe('en');
    expect(pick(null, ['pt-BR', 'es-MX'])).toBe('es');
    expect(pick(null, ['RU'])).toBe('ru');
  });

  it('tells Traditional from Simplified Chinese', () => {
    expect(pick(null, ['zh-TW'])).toBe('zh-TW');
    expect(pick(null, ['zh-HK'])).toBe('zh-TW');
    expect(pick(null, ['zh-Hant-MO'])).toBe('zh-TW');
    expect(pick(null, ['zh-Hans-HK'])).toBe('zh-CN');
    expect(pick(null, ['zh'])).toBe('zh-CN');
    expect(pick(null, ['zh-SG'])).toBe('zh-CN');
  });

  it('falls back to zh-CN', () => {
    expect(pick(null, ['fr-FR', 'de'])).toBe('zh-CN');
    expect(pick(null, [])).toBe('zh-CN');
  });
});

describe('localeRedirectTarget', () => {
  const config = (languageParam = false): RedirectConfig => ({
    segments: Object.fromEntries(locales.map((l) => [l.code, l.segment])),
    fallback: defaultLocale,
    storageKey: localeStorageKey,
    languageParam,
  });
  const win = (url: string, stored: string | null, languages: string[]) => {
    const { pathname, search, hash } = new URL(url, 'http://site');
    return {
      location: { pathname, search, hash } as Location,
      localStorage: { getItem: (key: string) => (key === localeStorageKey ? stored : null) } as Storage,
      navigator: { languages, language: languages[0] } as unknown as Navigator,
    };
  };
  const target = (url: string, stored: string | null, languages: string[], param = false) =>
    localeRedirectTarget(preferredLocale, config(param), win(url, stored, languages));

  it('sends an unprefixed page to the stored locale, keeping query and hash', () => {
    expect(target('/download?x=1#mac', 'en', ['zh-CN'])).toBe('/en/download?x=1#mac');
    expect(target('/', 'zh-TW', [])).toBe('/zh-tw');
    expect(target('/en/', null, ['ru'])).toBeNull();
  });

  it('uses the browser language when nothing is stored', () => {
    expect(target('/faq', null, ['ja-JP'])).toBe('/ja/faq');
  });

  it('stays on unprefixed pages for zh-CN visitors', () => {
    expect(target('/faq', null, ['zh-CN'])).toBeNull();
    expect(target('/faq', null, ['fr'])).toBeNull();
  });

  it('always honours a prefixed URL', () => {
    expect(target('/en/faq', 'ja', ['ru'])).toBeNull();
  });

  it('lets box pages follow ?language= from the desktop client', () => {
    expect(target('/privacybox?language=ru', 'en', ['en'], true)).toBe('/ru/privacybox?language=ru');
    expect(target('/en/privacybox?language=ko', null, [], true)).toBe('/ko/privacybox?language=ko');
    expect(target('/ru/privacybox?language=ru', null, [], true)).toBeNull();
    expect(target('/privacybox?language=zh-CN', 'en', [], true)).toBeNull();
  });

  it('ignores ?language= outside box pages', () => {
    expect(target('/en/faq?language=ko', null, [])).toBeNull();
  });

  it('still decides when storage is blocked', () => {
    const blocked = win('/faq', null, ['ko']);
    blocked.localStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
    } as unknown as Storage;
    expect(localeRedirectTarget(preferredLocale, config(), blocked)).toBe('/ko/faq');
  });
});

describe('the site and the server', () => {
  /** The locale the built page's before-paint script shows a browser that prefers `tag`: run as the browser runs it, on /faq with nothing stored. */
  function siteChoice(tag: string): string {
    const replaced: string[] = [];
    const location = { pathname: '/faq', search: '', hash: '', replace: (to: string) => replaced.push(to) };
    const window = { location, localStorage: { getItem: () => null }, navigator: { languages: [tag], language: tag } };
    vm.runInNewContext(headScripts(false, false)[0], { window, location, URLSearchParams });
    const segment = replaced[0]?.split('/')[1];
    return segment ? locales.find((l) => l.segment === segment)!.code : defaultLocale;
  }

  it('a prefixed page leaves out the redirect, which could only keep it where it is; a box page keeps it for ?language=', () => {
    const [redirect, theme] = headScripts(false, false);
    expect(headScripts(false, true)).toEqual([theme]);
    expect(redirect).toContain('location.replace');
    expect(headScripts(true, true)).toHaveLength(2);
    expect(headScripts(true, true)[0]).toContain('language');
  });

  it.each([
    ['zh-Hans-HK', 'zh-CN'],
    ['zh-Hant', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['zh-SG', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-TW', 'zh-TW'],
    ['en-GB', 'en'],
    ['pt-BR', 'zh-CN'],
    ['ja-JP', 'ja'],
  ])('choose the same locale for %s (%s)', (tag, expected) => {
    expect(siteChoice(tag)).toBe(expected);
    expect(negotiateLocale(tag)).toBe(expected);
  });
});
