/**
 * The error messages the server and the site share (contract/messages/): one text
 * per locale, read by both, and said nowhere else in other words.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import { message } from '../../server/i18n/messages.ts';
import { dictionaryOf } from '../../src/i18n/t.ts';
import { dictionarySource } from './content-source.ts';

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
const shared = (code: LocaleCode) => json(`contract/messages/${code}.json`);
const serverCatalog = (code: LocaleCode) => json(`server/i18n/${code}.json`);
const placeholders = (text: string) => text.match(/\{\{\w+\}\}/g) ?? [];
const english = shared('en');

describe('shared messages', () => {
  it.each(localeCodes)('%s has every message, with the English placeholders', (code) => {
    const messages = shared(code);
    expect(Object.keys(messages)).toEqual(Object.keys(english));
    for (const [key, text] of Object.entries(english)) {
      expect(messages[key]?.trim(), `${code} ${key}`).toBeTruthy();
      expect(placeholders(messages[key]), `${code} ${key}`).toEqual(placeholders(text));
    }
  });

  it('are the product’s own zh-CN wording of each message', () => {
    expect(shared('zh-CN')).toMatchObject({
      loginRequired: '需要登录。',
      loginExpired: '登录状态过期。',
      realtimeTokenExpired: 'Token 过期请刷新再试',
      realtimeTokenFetchFailed: '获取 Token 失败，请重试。',
      realtimeNoToken: '出现错误，未获取 Token。',
    });
  });

  it.each(localeCodes)('%s: the server and the site say each one in the same words', (code) => {
    const site = dictionaryOf(code);
    for (const key of ['smsSent', 'tooManyRequests', 'unauthorized', 'loginRequired'] as const) expect(message(code, key)).toBe(shared(code)[key]);
    expect(site['login.codeSent']).toBe(message(code, 'smsSent'));
    expect(site['api.loginExpired']).toBe(message(code, 'unauthorized'));
    expect(site['api.loginRequired']).toBe(message(code, 'loginRequired'));
    expect(site['session.expired']).toBe(shared(code).loginExpired);
    expect(site['realtime.tokenExpired']).toBe(shared(code).realtimeTokenExpired);
  });

  it.each(localeCodes)('%s: no other string of the server or the site repeats one, in its own words or in the same ones', (code) => {
    const texts = new Set(Object.values(shared(code)));
    const server = serverCatalog(code);
    expect(Object.keys(server).filter((key) => key in english)).toEqual([]);
    const repeated = [...Object.entries(server), ...Object.entries(dictionarySource(code))].filter(([, text]) => texts.has(text)).map(([key]) => key);
    expect(repeated).toEqual([]);
  });
});
