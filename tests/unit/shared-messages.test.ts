/**
 * The messages the server and the site share (the `messages` part of each
 * locale's dictionary): one text per locale, read by both, and said nowhere
 * else in other words.
 */
import { describe, expect, it } from 'vitest';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import type { SharedMessageKey } from '#contract/messages.ts';
import { message } from '../../server/i18n/messages.ts';
import { dictionaryOf } from '../../src/i18n/t.ts';
import { dictionary } from '../../src/lib/editorial/content-files.ts';
import { dictionarySource } from './content-source.ts';

const shared = (code: LocaleCode) => dictionary(code).messages;
const serverCatalog = (code: LocaleCode) => dictionary(code).server;
const placeholders = (text: string) => text.match(/\{\{\w+\}\}/g) ?? [];
const english = shared('en');

/**
 * Server messages and site strings that say one thing in different words in every
 * language, so that no language's equal text pairs them: each pair must be worded the same.
 */
const sameMessages = [
  ['phoneInvalid', 'login.phoneInvalid'],
  ['consoleContactMissing', 'console.enrol.noContact'],
  ['deviceApproved', 'login.device.approved'],
  ['payMethodUnsupported', 'pay.outcome.unsupportedType'],
] as const;

/** The fields the server names in its generic form messages, by the labels of the site's forms (the review's stars and text have none that is a name). */
const fieldLabels = {
  'field.Account': 'login.account',
  'field.Current': 'account.safe.currentPassword',
  'field.Key': 'activate.cdkey.label',
  'field.Name': 'account.donate.name',
  'field.ClientSeed': 'raffle.instant.clientSeed',
  'field.Target': 'recharge.target',
  'field.UserCode': 'login.device.codeLabel',
} as const;

/** Server messages and site strings that say different things, in words a language happens to share. */
const differentMessages = new Set([
  // The envelope's "done", and a login's outcome in the login history.
  'ok ~ account.safe.succeeded',
  'ok ~ console.customers.loginOk',
  // The customer's own sign-out, and another device signed out from the security page.
  'signedOut ~ account.safe.signedOut',
  // Paying an order paid already is refused; the pay page of a paid order says it is paid.
  'orderPaid ~ pay.introPaid',
  // A status page's service that is down, and cloud idling stopped.
  'statusDown ~ cloudIdle.state.Stopped',
  // A raffle's state inside an operator's refusal ("This raffle is {{state}}"), and an order's, an agreement's or a
  // payment's state, or the raffle board's label for its visitors.
  'raffleState.canceled ~ account.order.state.canceled',
  'raffleState.canceled ~ account.orderDetail.event.canceled',
  'raffleState.canceled ~ account.agreements.state.canceled',
  'raffleState.upcoming ~ raffle.board.state.upcoming',
  'raffleState.closed ~ pay.sandbox.state.CLOSED',
  'raffleState.closed ~ console.orders.stateName.closed',
  'raffleState.closed ~ raffle.board.state.closed',
]);

/** One text, told apart from another only by letter case: a label starts with a capital, the same words in a sentence do not. */
const sameWords = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

describe('shared messages', () => {
  it.each(localeCodes)('%s has every message, with the English placeholders', (code) => {
    const messages = shared(code);
    expect(Object.keys(messages)).toEqual(Object.keys(english));
    for (const [key, text] of Object.entries(english)) {
      expect(messages[key]?.trim(), `${code} ${key}`).toBeTruthy();
      expect(placeholders(messages[key]), `${code} ${key}`).toEqual(placeholders(text));
    }
  });

  // Issue 47, point 3: the spec's texts as the spec writes them, its ASCII punctuation included.
  it('are the product’s own zh-CN wording of each message', () => {
    expect(shared('zh-CN')).toMatchObject({
      tooFast: '操作太快了，请稍后再试。',
      tooManyRequests: '请求过于频繁，请休息一下稍后再试。',
      smsSent: '短信发送成功。',
      loginRequired: '需要登录。',
      loginExpired: '登录状态过期。',
      userInfoFailed: '获取用户信息失败，请重新登录!',
      genericError: '出现错误:{{error}}。',
      realtimeTokenExpired: 'Token 过期请刷新再试',
      realtimeTokenFetchFailed: '获取 Token 失败，请重试。',
      realtimeNoToken: '出现错误，未获取 Token。',
    });
  });

  it.each(localeCodes)('%s: the server and the site say each one in the same words, the site by its one key', (code) => {
    const site = dictionaryOf(code);
    for (const [key, text] of Object.entries(shared(code))) {
      expect(site[`messages.${key}`], key).toBe(text);
      if (!/\{\{\w+\}\}/.test(text)) expect(message(code, key as SharedMessageKey)).toBe(text);
    }
  });

  // Issue 47, point 6: "enter the correct code" was worded one way by the site and another by the server in es and ko.
  it('a message the server and the site both have is worded the same in every language', () => {
    const differing: string[] = [];
    const pairs = new Set(sameMessages.map(([server, site]) => `${server} ~ ${site}`));
    // A pair is one message when its texts are the same in any language; the server's field names are the forms' labels (below).
    for (const code of localeCodes) {
      const site = dictionarySource(code);
      for (const [serverKey, serverText] of Object.entries(serverCatalog(code)).filter(([key]) => !key.startsWith('field.')))
        for (const [siteKey, siteText] of Object.entries(site)) if (sameWords(serverText, siteText)) pairs.add(`${serverKey} ~ ${siteKey}`);
    }
    for (const [field, label] of Object.entries(fieldLabels)) pairs.add(`${field} ~ ${label}`);
    for (const pair of pairs) {
      if (differentMessages.has(pair)) continue;
      const [serverKey, siteKey] = pair.split(' ~ ');
      for (const code of localeCodes) {
        const [serverText, siteText] = [serverCatalog(code)[serverKey], dictionarySource(code)[siteKey]];
        if (!sameWords(serverText, siteText)) differing.push(`${code} ${pair}: "${serverText}" ≠ "${siteText}"`);
      }
    }
    expect(differing).toEqual([]);
    // Each exception still names two strings that exist.
    for (const pair of differentMessages) expect(serverCatalog('en')[pair.split(' ~ ')[0]] && dictionarySource('en')[pair.split(' ~ ')[1]], pair).toBeTruthy();
  });

  it.each(localeCodes)('%s: no other string of the server or the site repeats one, in its own words or in the same ones', (code) => {
    const texts = new Set(Object.values(shared(code)));
    const server = serverCatalog(code);
    expect(Object.keys(server).filter((key) => key in english)).toEqual([]);
    const repeated = [...Object.entries(server), ...Object.entries(dictionarySource(code))].filter(([, text]) => texts.has(text)).map(([key]) => key);
    expect(repeated).toEqual([]);
  });
});
