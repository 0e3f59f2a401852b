/** Island strings: handed down by name, translated by typed key, and never shown as their raw key. */
import { describe, expect, it } from 'vitest';
import { localeCodes } from '@/i18n/locales.ts';
import { translator } from '@/i18n/strings.ts';
import { sentenceParts, stringsFor } from '@/i18n/t.ts';

describe('stringsFor', () => {
  it('hands down the keys named and those under a prefix, in the page’s language', () => {
    const strings = stringsFor('en', ['login.tab', 'messages.networkError']);
    expect(strings).toEqual({
      'login.tab.sms': 'SMS login',
      'login.tab.quick': 'Quick login',
      'login.tab.password': 'Password login',
      'messages.networkError': 'Network error. Please check your connection and try again.',
    });
    expect(stringsFor('ja', ['login.tab'])['login.tab.sms']).not.toBe('SMS login');
  });

  it('fails the build when a name matches nothing', () => {
    // @ts-expect-error not a key or prefix of the dictionary
    expect(() => stringsFor('en', ['login', 'logn'])).toThrow('No UI string "logn" or "logn.*" in content/i18n/en.json');
    // A prefix must end at a dot: "log" is not "login".
    // @ts-expect-error not a key or prefix of the dictionary
    expect(() => stringsFor('en', ['log'])).toThrow(/"log"/);
  });
});

describe('translator', () => {
  it('translates with {{placeholders}} filled', () => {
    const t = translator(stringsFor('en', ['login']));
    expect(t('login.resendIn', { seconds: 42 })).toBe('Resend in 42 s');
    expect(t('login.tab.sms')).toBe('SMS login');
  });

  it('throws for a key that was not handed down instead of showing the key', () => {
    const t = translator<never>(stringsFor('en', ['login']));
    expect(() => t('messages.networkError')).toThrow('UI string "messages.networkError" was not handed down to this island');
  });
});

describe('sentenceParts', () => {
  it.each(localeCodes)('%s: the agreement label has both links, text around them', (code) => {
    const parts = sentenceParts(code, 'login.agreeLabel');
    expect(parts.filter((_, i) => i % 2 === 1).toSorted()).toEqual(['agreement', 'privacy']);
    expect(parts.join('')).not.toMatch(/[{}]/);
  });
});
