/**
 * The Alipay sandbox's own RSA2 signatures (server/services/alipay-gateway-signing.ts),
 * written from Alipay's published rules, checked against what the project did
 * not write: alipay-sdk (what signs the shop's requests and checks Alipay's
 * answers and notifications), the `openssl` command line, and the sign
 * content of the notification example Alipay's documentation publishes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AlipaySdk } from 'alipay-sdk';
import { afterAll, describe, expect, it } from 'vitest';
import {
  notificationSignContent,
  requestSignatureHolds,
  requestSignContent,
  signedAnswer,
  signedNotification,
} from '../../server/services/alipay-gateway-signing.ts';

const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const appId = '2021000000000001';
const pem = (key: KeyObject) => key.export(key.type === 'private' ? { type: 'pkcs8', format: 'pem' } : { type: 'spki', format: 'pem' }).toString();

/** The shop's side: the SDK with the app's private key and Alipay's public key (or, for `stranger`, someone else's keys). */
const sdkWith = (privateKey: KeyObject, alipayPublicKey: KeyObject) =>
  new AlipaySdk({
    appId,
    privateKey: pem(privateKey),
    keyType: 'PKCS8',
    alipayPublicKey: pem(alipayPublicKey),
    gateway: 'https://openapi.alipay.com/gateway.do',
  });
const sdk = sdkWith(app.privateKey, alipay.publicKey);

const folder = mkdtempSync(path.join(tmpdir(), 'beacon-alipay-signing-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const file = (content: string | Buffer) => {
  const name = path.join(folder, String(++files));
  writeFileSync(name, content);
  return name;
};

/** Parameters as the gateway reads them from a query string or form. */
const paramsOf = (query: string) => Object.fromEntries(new URLSearchParams(query));

const precreate = {
  bizContent: { out_trade_no: '20260101123456789012', total_amount: '12.34', subject: '充值 Steam 钱包 & more', time_expire: '2026-01-01 12:30:00' },
  notify_url: 'https://beacon.test/api/notify/alipay?x=1',
};

describe('requests the SDK signs verify under the sandbox', () => {
  it('holds for sdkExecute, and not once an amount changes or another key signed', () => {
    const params = paramsOf(sdk.sdkExecute('alipay.trade.precreate', precreate, { bizContentAutoSnakeCase: false }));
    expect(params.sign_type).toBe('RSA2');
    expect(requestSignatureHolds(params, app.publicKey)).toBe(true);
    // The SDK signs the values as they are, before it URL-encodes them.
    expect(requestSignContent(params)).toContain('notify_url=https://beacon.test/api/notify/alipay?x=1');
    expect(requestSignContent(params)).toContain('"subject":"充值 Steam 钱包 & more"');

    const cheaper = { ...params, biz_content: params.biz_content.replace('"12.34"', '"0.01"') };
    expect(requestSignatureHolds(cheaper, app.publicKey)).toBe(false);
    // sign_type is signed in a request: a request re-labelled is not the one signed.
    expect(requestSignatureHolds({ ...params, sign_type: 'RSA' }, app.publicKey)).toBe(false);
    expect(requestSignatureHolds({ ...params, notify_url: 'https://attacker.test/notify' }, app.publicKey)).toBe(false);
    expect(requestSignatureHolds(params, stranger.publicKey)).toBe(false);
    const strangers = paramsOf(
      sdkWith(stranger.privateKey, alipay.publicKey).sdkExecute('alipay.trade.precreate', precreate, { bizContentAutoSnakeCase: false }),
    );
    expect(requestSignatureHolds(strangers, app.publicKey)).toBe(false);
    expect(requestSignatureHolds({ ...params, sign: '' }, app.publicKey)).toBe(false);
    expect(requestSignatureHolds({ ...params, sign: 'not base64!' }, app.publicKey)).toBe(false);
  });

  it("holds for pageExecute's GET address (wap.pay, with return_url and the SDK's own parameter)", () => {
    const address = sdk.pageExecute('alipay.trade.wap.pay', 'GET', {
      bizContent: { ...precreate.bizContent, product_code: 'QUICK_WAP_WAY', quit_url: 'https://beacon.test/pay/1?back=1' },
      returnUrl: 'https://beacon.test/pay/1?back=1',
      notifyUrl: precreate.notify_url,
    });
    const params = paramsOf(new URL(address).search);
    expect(params.method).toBe('alipay.trade.wap.pay');
    expect(params.return_url).toBe('https://beacon.test/pay/1?back=1');
    expect(params.alipay_sdk).toBeTruthy();
    expect(requestSignatureHolds(params, app.publicKey)).toBe(true);
    expect(requestSignatureHolds({ ...params, return_url: 'https://attacker.test/' }, app.publicKey)).toBe(false);
    expect(requestSignatureHolds(params, stranger.publicKey)).toBe(false);
  });

  it('leaves out empty parameters, as the published rule says', () => {
    const params = paramsOf(sdk.sdkExecute('alipay.trade.query', { bizContent: { out_trade_no: 'A1' } }));
    expect(requestSignatureHolds({ ...params, app_auth_token: '' }, app.publicKey)).toBe(true);
    expect(requestSignContent({ b: '2', a: '1', sign: 'x', c: '' })).toBe('a=1&b=2');
  });
});

describe('answers the sandbox signs pass the SDK', () => {
  const key = 'alipay_trade_precreate_response';
  const answer = { code: '10000', msg: 'Success', out_trade_no: '20260101123456789012', qr_code: 'https://qr.alipay.com/bax03431ljhokirwl38f00a7' };

  it('holds over the exact JSON text of the response object', () => {
    const raw = signedAnswer(key, answer, alipay.privateKey);
    const { sign } = JSON.parse(raw) as { sign: string };
    expect(raw).toBe(`{"${key}":${JSON.stringify(answer)},"sign":"${sign}"}`);
    expect(() => sdk.checkResponseSign(raw, key, sign, '')).not.toThrow();
    expect(JSON.parse(sdk.getSignStr(raw, key))).toEqual(answer);
  });

  it('fails for a changed answer, another key, or another response key', () => {
    const raw = signedAnswer(key, answer, alipay.privateKey);
    const { sign } = JSON.parse(raw) as { sign: string };
    expect(() => sdk.checkResponseSign(raw.replace('20260101123456789012', '20260101123456789013'), key, sign, '')).toThrow();
    expect(() => sdkWith(app.privateKey, stranger.publicKey).checkResponseSign(raw, key, sign, '')).toThrow();
    const forged = signedAnswer(key, answer, stranger.privateKey);
    expect(() => sdk.checkResponseSign(forged, key, (JSON.parse(forged) as { sign: string }).sign, '')).toThrow();
  });

  it('an answer whose text has escapes (Chinese, slashes) is signed as it stands', () => {
    const raw = signedAnswer(
      'alipay_trade_query_response',
      { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在 "x/y"' },
      alipay.privateKey,
    );
    const { sign } = JSON.parse(raw) as { sign: string };
    expect(() => sdk.checkResponseSign(raw, 'alipay_trade_query_response', sign, '')).not.toThrow();
  });
});

describe('notifications the sandbox signs pass the SDK', () => {
  const notification = {
    notify_time: '2026-01-01 12:01:02',
    notify_type: 'trade_status_sync',
    notify_id: '2026010100222120102ab0c0d0e0f0a0b0',
    app_id: appId,
    charset: 'utf-8',
    version: '1.0',
    trade_no: '2026010122001400000000000001',
    out_trade_no: '20260101123456789012',
    seller_id: '2088000000000001',
    trade_status: 'TRADE_SUCCESS',
    total_amount: '12.34',
    receipt_amount: '12.34',
    subject: '充值 Steam 钱包 & more=%20',
    gmt_payment: '2026-01-01 12:01:01',
  };

  it('holds, and fails once any field changes or under another key', () => {
    const signed = signedNotification(notification, alipay.privateKey);
    expect(signed.sign_type).toBe('RSA2');
    expect(sdk.checkNotifySignV2(signed)).toBe(true);
    // As it travels: form-encoded, then read back.
    expect(sdk.checkNotifySignV2(paramsOf(new URLSearchParams(signed).toString()))).toBe(true);
    expect(sdk.checkNotifySignV2({ ...signed, total_amount: '0.01' })).toBe(false);
    expect(sdk.checkNotifySignV2({ ...signed, seller_id: '2088000000000009' })).toBe(false);
    expect(sdk.checkNotifySignV2({ ...signed, refund_fee: '12.34' })).toBe(false);
    expect(sdkWith(app.privateKey, stranger.publicKey).checkNotifySignV2(signed)).toBe(false);
    expect(sdk.checkNotifySignV2(signedNotification(notification, stranger.privateKey))).toBe(false);
  });

  it("builds the sign content of Alipay's published notification example", () => {
    // The example of "异步通知验签" in Alipay's documentation: sign and sign_type out, the rest sorted.
    const example = paramsOf(
      'total_amount=2.00&buyer_id=2088102116773037&body=大乐透2.1&trade_no=2016071921001003030200089909&refund_fee=0.00' +
        '&notify_time=2016-07-19 14:10:49&subject=大乐透2.1&sign_type=RSA2&charset=utf-8&notify_type=trade_status_sync' +
        '&out_trade_no=0719141034-6418&gmt_close=2016-07-19 14:10:46&gmt_payment=2016-07-19 14:10:47&trade_status=TRADE_SUCCESS' +
        '&version=1.0&sign=kPbQIjX%2BxQc8F0%2FA6%2FAocELIjhhZnGbcBN6G4MM%3D&gmt_create=2016-07-19 14:10:44&app_id=2015102700040153' +
        '&seller_id=2088102119685838&notify_id=4a91b7a78a503640467525113fb7d8bg8e',
    );
    expect(notificationSignContent(example)).toBe(
      'app_id=2015102700040153&body=大乐透2.1&buyer_id=2088102116773037&charset=utf-8&gmt_close=2016-07-19 14:10:46' +
        '&gmt_create=2016-07-19 14:10:44&gmt_payment=2016-07-19 14:10:47&notify_id=4a91b7a78a503640467525113fb7d8bg8e' +
        '&notify_time=2016-07-19 14:10:49&notify_type=trade_status_sync&out_trade_no=0719141034-6418&refund_fee=0.00' +
        '&seller_id=2088102119685838&subject=大乐透2.1&total_amount=2.00&trade_no=2016071921001003030200089909' +
        '&trade_status=TRADE_SUCCESS&version=1.0',
    );
  });
});

describe('openssl agrees', () => {
  /** Whether `openssl dgst -sha256 -verify` says the base64 signature of `message` holds for the public key. */
  function opensslVerifies(publicKey: KeyObject, message: string, signature: string): boolean {
    const run = spawnSync('openssl', ['dgst', '-sha256', '-verify', file(pem(publicKey)), '-signature', file(Buffer.from(signature, 'base64'))], {
      input: Buffer.from(message, 'utf8'),
    });
    return run.status === 0 && run.stdout.toString().trim() === 'Verified OK';
  }

  it("verifies the sandbox's answer signature over the response object's text, and refuses it altered", () => {
    const answer = { code: '10000', msg: 'Success', out_trade_no: 'A1', qr_code: 'https://qr.alipay.com/bax0abc', note: '扫码' };
    const raw = signedAnswer('alipay_trade_precreate_response', answer, alipay.privateKey);
    const { sign } = JSON.parse(raw) as { sign: string };
    expect(opensslVerifies(alipay.publicKey, JSON.stringify(answer), sign)).toBe(true);
    expect(opensslVerifies(alipay.publicKey, JSON.stringify({ ...answer, out_trade_no: 'A2' }), sign)).toBe(false);
    expect(opensslVerifies(stranger.publicKey, JSON.stringify(answer), sign)).toBe(false);
  });

  it('signs a request the sandbox then takes, over the content the published rule gives', () => {
    const params: Record<string, string> = {
      app_id: appId,
      method: 'alipay.trade.query',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: '2026-01-01 12:00:00',
      version: '1.0',
      biz_content: '{"out_trade_no":"20260101123456789012"}',
    };
    const content =
      'app_id=2021000000000001&biz_content={"out_trade_no":"20260101123456789012"}&charset=utf-8&method=alipay.trade.query' +
      '&sign_type=RSA2&timestamp=2026-01-01 12:00:00&version=1.0';
    expect(requestSignContent(params)).toBe(content);
    const sign = execFileSync('openssl', ['dgst', '-sha256', '-sign', file(pem(app.privateKey))], { input: Buffer.from(content, 'utf8') }).toString('base64');
    expect(requestSignatureHolds({ ...params, sign }, app.publicKey)).toBe(true);
    expect(requestSignatureHolds({ ...params, sign, timestamp: '2026-01-01 12:00:01' }, app.publicKey)).toBe(false);
  });

  it("verifies a notification's signature over the content without sign and sign_type", () => {
    const signed = signedNotification({ app_id: appId, out_trade_no: 'A1', total_amount: '1.00', trade_status: 'TRADE_SUCCESS' }, alipay.privateKey);
    expect(opensslVerifies(alipay.publicKey, 'app_id=2021000000000001&out_trade_no=A1&total_amount=1.00&trade_status=TRADE_SUCCESS', signed.sign)).toBe(true);
    expect(opensslVerifies(alipay.publicKey, 'app_id=2021000000000001&out_trade_no=A1&total_amount=1.00&trade_status=TRADE_CLOSED', signed.sign)).toBe(false);
  });
});
