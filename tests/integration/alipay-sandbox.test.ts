/**
 * The Alipay sandbox (server/modules/dev/alipay/sandbox.ts) driven by Ant
 * Group's alipay-sdk as the client, over HTTP to the app on a port: the SDK's
 * requests are taken and its checks of the answers (validateSign) and of the
 * notifications (checkNotifySignV2) pass — scan to pay, the phone checkout and
 * its return, query and close, refunds that succeed, process or fail, and
 * requests that are not the app's refused.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AlipaySdk, type AlipaySdkCommonResult } from 'alipay-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alipaySandbox } from '#contract/dev.ts';
import {
  alipaySandboxCredentials,
  alipaySandboxGatewayPath,
  alipaySandboxMerchantSettings,
  alipaySandboxScanTarget,
} from '../../server/services/alipay-sandbox.ts';
import { eventually, startApp, type TestApp } from './api/harness.ts';

let t: TestApp;
let origin: string;
let sdk: AlipaySdk;
/** The same app, signing with a key Alipay does not have for it. */
let stranger: AlipaySdk;

/** The shop's notify URL: a server of the test's that records what arrives and answers `success`, or (for the numbers in `refuse`) something else that many times first. */
let notifyServer: Server;
let notifyUrl: string;
const arrived: Array<Record<string, string>> = [];
const refuse = new Map<string, number>();

const site = 'https://beacon.test';
const credentials = alipaySandboxCredentials();
const pem = (key: typeof credentials.appPrivateKey) =>
  key.export(key.type === 'private' ? { type: 'pkcs8', format: 'pem' } : { type: 'spki', format: 'pem' }).toString();

beforeAll(async () => {
  notifyServer = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const fields = Object.fromEntries(new URLSearchParams(body));
      arrived.push(fields);
      const left = refuse.get(fields.out_trade_no) ?? 0;
      refuse.set(fields.out_trade_no, left - 1);
      response.end(left > 0 ? 'fail' : 'success');
    });
  });
  await new Promise<void>((resolve) => notifyServer.listen(0, '127.0.0.1', resolve));
  notifyUrl = `http://127.0.0.1:${(notifyServer.address() as AddressInfo).port}/api/commerce/v1/notify/alipay`;

  t = await startApp({ SITE_URL: site });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const gateway = `${origin}/api${alipaySandboxGatewayPath}`;
  const config = { appId: credentials.appId, keyType: 'PKCS8' as const, alipayPublicKey: pem(credentials.alipayPublicKey), gateway };
  sdk = new AlipaySdk({ ...config, privateKey: pem(credentials.appPrivateKey) });
  stranger = new AlipaySdk({ ...config, privateKey: pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey) });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => notifyServer.close(resolve));
});

let orderSeq = 0;
const newOrderNo = () => `2026010100000${String(++orderSeq).padStart(7, '0')}`;

/** A call to the gateway through the SDK, its answer's signature checked by the SDK. */
const exec = (method: string, bizContent: Record<string, unknown>, extra: Record<string, string> = {}): Promise<AlipaySdkCommonResult> =>
  sdk.exec(method, { bizContent, ...extra }, { validateSign: true });

/** Scan to pay as the shop starts it: a code for the order, notifications to the test's server. */
async function precreate(outTradeNo: string, totalAmount = '12.34') {
  return exec('alipay.trade.precreate', { out_trade_no: outTradeNo, total_amount: totalAmount, subject: 'Steam 钱包充值 ¥12.34' }, { notify_url: notifyUrl });
}

const query = (outTradeNo: string) => exec('alipay.trade.query', { out_trade_no: outTradeNo });
const act = (id: string, Action: string) => t.call(alipaySandbox.act, { params: { id }, body: { Action } });
const notificationsOf = (outTradeNo: string) => arrived.filter((fields) => fields.out_trade_no === outTradeNo);
const page = async (url: string) => {
  const response = await fetch(url);
  const html = await response.text();
  return { status: response.status, html, state: /data-sandbox-state="([^"]+)"/.exec(html)?.[1], error: /data-sandbox-error="([^"]+)"/.exec(html)?.[1] };
};

/** A trade paid by scanning its code: precreated, scanned, approved, and its notification arrived. */
async function paidTrade(total = '100.00') {
  const outTradeNo = newOrderNo();
  const { qrCode } = await precreate(outTradeNo, total);
  await act(new URL(qrCode as string).pathname.slice(1), 'approve');
  const { tradeNo } = await query(outTradeNo);
  return { outTradeNo, tradeNo: tradeNo as string };
}

describe('scan to pay', () => {
  it('precreate, scan, approve: the query says TRADE_SUCCESS and a signed notification arrives', async () => {
    const outTradeNo = newOrderNo();
    const created = await precreate(outTradeNo);
    expect(created).toMatchObject({ code: '10000', msg: 'Success', outTradeNo });
    expect(created.qrCode).toMatch(/^https:\/\/qr\.alipay\.com\/bax0[a-z0-9]+$/);
    // The same order again is the same code; another amount under its number is refused.
    expect((await precreate(outTradeNo)).qrCode).toBe(created.qrCode);
    expect(await precreate(outTradeNo, '12.35')).toMatchObject({ code: '40004', subCode: 'ACQ.CONTEXT_INCONSISTENT' });

    // Alipay has no trade until a phone scans the code.
    expect(await query(outTradeNo)).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_NOT_EXIST' });
    expect(await exec('alipay.trade.close', { out_trade_no: outTradeNo })).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_NOT_EXIST' });

    const scanned = await page(alipaySandboxScanTarget(created.qrCode as string, origin));
    expect(scanned).toMatchObject({ status: 200, state: 'WAIT_BUYER_PAY' });
    expect(scanned.html).toContain('Pay ¥12.34');
    const waiting = await query(outTradeNo);
    expect(waiting).toMatchObject({ code: '10000', outTradeNo, tradeStatus: 'WAIT_BUYER_PAY', totalAmount: '12.34', buyerPayAmount: '0.00' });
    expect(waiting.tradeNo).toMatch(/^\d{8}22001\d{15}$/);
    // A trade created is not notified.
    expect(notificationsOf(outTradeNo)).toEqual([]);

    const id = new URL(created.qrCode as string).pathname.slice(1);
    const approved = await act(id, 'approve');
    expect(approved.body.data).toMatchObject({ Id: id, OrderKey: outTradeNo, Total: 1234, State: 'TRADE_SUCCESS' });
    expect(await query(outTradeNo)).toMatchObject({ tradeStatus: 'TRADE_SUCCESS', tradeNo: waiting.tradeNo, totalAmount: '12.34', buyerPayAmount: '12.34' });

    const [notification, ...more] = notificationsOf(outTradeNo);
    expect(more).toEqual([]);
    expect(sdk.checkNotifySignV2(notification)).toBe(true);
    expect(stranger.checkNotifySignV2({ ...notification, total_amount: '0.01' })).toBe(false);
    expect(notification).toMatchObject({
      notify_type: 'trade_status_sync',
      app_id: credentials.appId,
      seller_id: credentials.sellerId,
      out_trade_no: outTradeNo,
      trade_no: waiting.tradeNo,
      trade_status: 'TRADE_SUCCESS',
      total_amount: '12.34',
      receipt_amount: '12.34',
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
    });
    expect(notification.notify_id).toMatch(/^[0-9a-f]{34}$/);
    expect(notification.gmt_payment).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // Paid: a new code for it is refused, and closing it is refused.
    expect(await precreate(outTradeNo)).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_HAS_SUCCESS' });
    expect(await exec('alipay.trade.close', { trade_no: waiting.tradeNo })).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_STATUS_ERROR' });
    expect(await query(outTradeNo)).toMatchObject({ tradeStatus: 'TRADE_SUCCESS' });
  });

  it("closing a waiting trade closes it, and notifies TRADE_CLOSED only to the close call's own notify_url; declining leaves it waiting", async () => {
    const outTradeNo = newOrderNo();
    const { qrCode } = await precreate(outTradeNo);
    const id = new URL(qrCode as string).pathname.slice(1);
    expect((await act(id, 'decline')).body.data.State).toBe('WAIT_BUYER_PAY');
    expect(notificationsOf(outTradeNo)).toEqual([]);
    // As Alipay documents it: a close the shop asks for is notified only where that call says.
    const silent = newOrderNo();
    await page(alipaySandboxScanTarget((await precreate(silent)).qrCode as string, origin));
    expect(await exec('alipay.trade.close', { out_trade_no: silent })).toMatchObject({ code: '10000', outTradeNo: silent });
    expect(await query(silent)).toMatchObject({ tradeStatus: 'TRADE_CLOSED' });
    expect(await exec('alipay.trade.close', { out_trade_no: outTradeNo }, { notify_url: notifyUrl })).toMatchObject({ code: '10000', outTradeNo });
    expect(await query(outTradeNo)).toMatchObject({ tradeStatus: 'TRADE_CLOSED' });
    const closed = await eventually(
      async () => notificationsOf(outTradeNo),
      (list) => list.length === 1,
      'the close notification',
    );
    expect(closed[0]).toMatchObject({ trade_status: 'TRADE_CLOSED' });
    expect(sdk.checkNotifySignV2(closed[0])).toBe(true);
    expect(notificationsOf(silent)).toEqual([]);
    // Paying afterwards does nothing.
    expect((await act(id, 'approve')).body.data.State).toBe('TRADE_CLOSED');
    expect(await precreate(outTradeNo)).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_HAS_CLOSE' });
  });

  it('a trade let time out is closed and notified; a code nobody scanned just dies, and its number is free again', async () => {
    const scannedNo = newOrderNo();
    const scannedCode = (await precreate(scannedNo)).qrCode as string;
    await page(alipaySandboxScanTarget(scannedCode, origin));
    expect((await act(scannedNo, 'expire')).body.data.State).toBe('TRADE_CLOSED');
    expect(await query(scannedNo)).toMatchObject({ tradeStatus: 'TRADE_CLOSED' });
    expect(notificationsOf(scannedNo).map((fields) => fields.trade_status)).toEqual(['TRADE_CLOSED']);

    const unscannedNo = newOrderNo();
    const code = (await precreate(unscannedNo)).qrCode as string;
    expect((await act(unscannedNo, 'expire')).body.data.State).toBe('EXPIRED');
    expect(await query(unscannedNo)).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_NOT_EXIST' });
    expect(notificationsOf(unscannedNo)).toEqual([]);
    const again = await precreate(unscannedNo);
    expect(again.code).toBe('10000');
    expect(again.qrCode).not.toBe(code);
  });

  it('a time_expire in the past leaves a code that can no longer be paid', async () => {
    const outTradeNo = newOrderNo();
    const { qrCode } = await exec(
      'alipay.trade.precreate',
      { out_trade_no: outTradeNo, total_amount: '1.00', subject: 'x', time_expire: '2020-01-01 00:00:00' },
      { notify_url: notifyUrl },
    );
    expect((await page(alipaySandboxScanTarget(qrCode as string, origin))).html).toContain('Nothing is left to pay');
    expect((await act(outTradeNo, 'approve')).body.data.State).toBe('EXPIRED');
    expect(await query(outTradeNo)).toMatchObject({ subCode: 'ACQ.TRADE_NOT_EXIST' });
  });

  it('refuses amounts and times Alipay would not take', async () => {
    for (const total_amount of ['12.345', '0.00', '-1.00', '1e3', '100000000.01', 12.34]) {
      const answer = await exec('alipay.trade.precreate', { out_trade_no: newOrderNo(), total_amount, subject: 'x' });
      expect(answer, String(total_amount)).toMatchObject({ code: '40004', subCode: 'ACQ.INVALID_PARAMETER' });
    }
    const answer = await exec('alipay.trade.precreate', { out_trade_no: newOrderNo(), total_amount: '1.00', subject: 'x', time_expire: '2026-02-30 00:00:00' });
    expect(answer).toMatchObject({ code: '40004', subCode: 'ACQ.INVALID_PARAMETER' });
  });

  it('retries a notification the shop did not answer `success`, under the same notify_id', async () => {
    const outTradeNo = newOrderNo();
    refuse.set(outTradeNo, 1);
    const { qrCode } = await precreate(outTradeNo);
    await act(new URL(qrCode as string).pathname.slice(1), 'approve');
    const both = await eventually(
      async () => notificationsOf(outTradeNo),
      (list) => list.length === 2,
      'the retried notification',
    );
    expect(both[1].notify_id).toBe(both[0].notify_id);
    expect(sdk.checkNotifySignV2(both[1])).toBe(true);
  });
});

describe('refunds', () => {
  it('succeed at once: fund_change Y, the same request again N, never more than paid, and a notification for each', async () => {
    const { outTradeNo, tradeNo } = await paidTrade('100.00');
    const refund = (out_request_no: string, refund_amount: string) => exec('alipay.trade.refund', { trade_no: tradeNo, refund_amount, out_request_no });

    expect(await refund('R1', '30.00')).toMatchObject({ code: '10000', fundChange: 'Y', refundFee: '30.00', tradeNo, outTradeNo });
    expect(await refund('R1', '30.00')).toMatchObject({ code: '10000', fundChange: 'N', refundFee: '30.00' });
    expect(await refund('R1', '31.00')).toMatchObject({ code: '40004', subCode: 'ACQ.DISCORDANT_REPEAT_REQUEST' });
    expect(await refund('R2', '70.01')).toMatchObject({ code: '40004', subCode: 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL' });
    expect(await exec('alipay.trade.fastpay.refund.query', { trade_no: tradeNo, out_request_no: 'R1' })).toMatchObject({
      code: '10000',
      outRequestNo: 'R1',
      refundAmount: '30.00',
      totalAmount: '100.00',
      refundStatus: 'REFUND_SUCCESS',
    });
    // A refund Alipay does not know is a success with no refund in it.
    const unknown = await exec('alipay.trade.fastpay.refund.query', { trade_no: tradeNo, out_request_no: 'R9' });
    expect(unknown.code).toBe('10000');
    expect(unknown).not.toHaveProperty('outRequestNo');
    expect(unknown).not.toHaveProperty('refundStatus');

    const partly = await eventually(
      async () => notificationsOf(outTradeNo).filter((fields) => fields.out_biz_no),
      (list) => list.length === 1,
      'R1',
    );
    expect(partly[0]).toMatchObject({ out_biz_no: 'R1', refund_fee: '30.00', trade_status: 'TRADE_SUCCESS', total_amount: '100.00' });
    expect(partly[0].gmt_refund).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(sdk.checkNotifySignV2(partly[0])).toBe(true);

    // 40.00 of the 70.00 left, asked for five times at once under five numbers: one of them gives it back.
    const asked = await Promise.all(['R2', 'R3', 'R4', 'R5', 'R6'].map((no) => refund(no, '40.00')));
    expect(asked.filter((answer) => answer.code === '10000' && answer.fundChange === 'Y')).toHaveLength(1);
    expect(asked.filter((answer) => answer.subCode === 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL')).toHaveLength(4);
    expect(await query(outTradeNo)).toMatchObject({ tradeStatus: 'TRADE_SUCCESS' });
    expect(await refund('R7', '30.01')).toMatchObject({ subCode: 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL' });
    expect(await refund('R7', '30.00')).toMatchObject({ code: '10000', fundChange: 'Y', refundFee: '100.00' });
    expect(await query(outTradeNo)).toMatchObject({ tradeStatus: 'TRADE_CLOSED' });
    const all = await eventually(
      async () => notificationsOf(outTradeNo).filter((fields) => fields.out_biz_no),
      (list) => list.length === 3,
      'the rest',
    );
    expect(all.at(-1)).toMatchObject({ out_biz_no: 'R7', refund_fee: '100.00', trade_status: 'TRADE_CLOSED' });
    expect(await refund('R8', '0.01')).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_STATUS_ERROR' });
  });

  it('without a request number, only the whole payment is refunded', async () => {
    const { outTradeNo } = await paidTrade('10.00');
    expect(await exec('alipay.trade.refund', { out_trade_no: outTradeNo, refund_amount: '5.00' })).toMatchObject({
      code: '40004',
      subCode: 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL',
    });
    expect(await exec('alipay.trade.refund', { out_trade_no: outTradeNo, refund_amount: '10.00' })).toMatchObject({ code: '10000', fundChange: 'Y' });
    expect(await exec('alipay.trade.fastpay.refund.query', { out_trade_no: outTradeNo, out_request_no: outTradeNo })).toMatchObject({
      refundStatus: 'REFUND_SUCCESS',
    });
  });

  it('process a moment on a trade marked so: fund_change N, no refund_status yet, then success and a notification', async () => {
    const { outTradeNo, tradeNo } = await paidTrade('20.00');
    await act(outTradeNo, 'slowRefunds');
    expect(await exec('alipay.trade.refund', { trade_no: tradeNo, refund_amount: '20.00', out_request_no: 'S1' })).toMatchObject({
      code: '10000',
      fundChange: 'N',
      refundFee: '0.00',
    });
    const processing = await exec('alipay.trade.fastpay.refund.query', { trade_no: tradeNo, out_request_no: 'S1' });
    expect(processing).toMatchObject({ code: '10000', outRequestNo: 'S1', refundAmount: '20.00' });
    expect(processing).not.toHaveProperty('refundStatus');
    // Still counted: nothing more can be refunded meanwhile.
    expect(await exec('alipay.trade.refund', { trade_no: tradeNo, refund_amount: '0.01', out_request_no: 'S2' })).toMatchObject({
      subCode: 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL',
    });
    await eventually(
      () => exec('alipay.trade.fastpay.refund.query', { trade_no: tradeNo, out_request_no: 'S1' }),
      (answer) => answer.refundStatus === 'REFUND_SUCCESS',
      'the slow refund',
    );
    const [done] = await eventually(
      async () => notificationsOf(outTradeNo).filter((fields) => fields.out_biz_no),
      (list) => list.length === 1,
      'S1',
    );
    expect(done).toMatchObject({ out_biz_no: 'S1', refund_fee: '20.00', trade_status: 'TRADE_CLOSED' });
    expect(sdk.checkNotifySignV2(done)).toBe(true);
  });

  it('fail on a trade marked so, and then nothing was refunded', async () => {
    const { outTradeNo, tradeNo } = await paidTrade('20.00');
    await act(tradeNo, 'failRefunds');
    expect(await exec('alipay.trade.refund', { trade_no: tradeNo, refund_amount: '5.00', out_request_no: 'F1' })).toMatchObject({
      code: '40004',
      subCode: 'ACQ.SELLER_BALANCE_NOT_ENOUGH',
    });
    const none = await exec('alipay.trade.fastpay.refund.query', { trade_no: tradeNo, out_request_no: 'F1' });
    expect(none.code).toBe('10000');
    expect(none).not.toHaveProperty('refundAmount');
    expect(notificationsOf(outTradeNo).filter((fields) => fields.out_biz_no)).toEqual([]);
  });

  it('of a trade not paid, or unknown, are refused', async () => {
    const outTradeNo = newOrderNo();
    const { qrCode } = await precreate(outTradeNo);
    expect(await exec('alipay.trade.refund', { out_trade_no: outTradeNo, refund_amount: '12.34' })).toMatchObject({ subCode: 'ACQ.TRADE_NOT_EXIST' });
    await page(alipaySandboxScanTarget(qrCode as string, origin));
    expect(await exec('alipay.trade.refund', { out_trade_no: outTradeNo, refund_amount: '12.34' })).toMatchObject({ subCode: 'ACQ.TRADE_STATUS_ERROR' });
    expect(await exec('alipay.trade.fastpay.refund.query', { trade_no: '2026010122001400000000000000', out_request_no: 'X' })).toMatchObject({
      subCode: 'ACQ.TRADE_NOT_EXIST',
    });
  });
});

describe('requests that are not the app’s', () => {
  it('a request signed with another key is refused as Alipay refuses it, in a signed answer', async () => {
    const answer = await stranger.exec('alipay.trade.query', { bizContent: { out_trade_no: newOrderNo() } }, { validateSign: true });
    expect(answer).toMatchObject({ code: '40002', msg: 'Invalid Arguments', subCode: 'isv.invalid-signature' });
  });

  it('a signed request changed on the way (a lower amount) is refused, and so is another app id', async () => {
    const gateway = `${origin}/api${alipaySandboxGatewayPath}`;
    const outTradeNo = newOrderNo();
    const signed = sdk.sdkExecute('alipay.trade.precreate', { bizContent: { out_trade_no: outTradeNo, total_amount: '88.00', subject: 'x' } });
    const cheaper = signed.replace(encodeURIComponent('"88.00"'), encodeURIComponent('"0.01"'));
    expect(cheaper).not.toBe(signed);
    const post = async (body: string) =>
      (await (await fetch(gateway, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })).json()) as Record<
        string,
        Record<string, string>
      >;
    expect((await post(cheaper)).alipay_trade_precreate_response).toMatchObject({ code: '40002', sub_code: 'isv.invalid-signature' });
    expect((await post(signed.replace('app_id=2021000000000001', 'app_id=2021000000000002'))).alipay_trade_precreate_response).toMatchObject({
      sub_code: 'isv.invalid-app-id',
    });
    // A parameter given twice (the query's and the form's) is not read either way.
    expect(
      (await post(`${signed}&biz_content=${encodeURIComponent('{"out_trade_no":"x","total_amount":"0.01","subject":"x"}')}`)).error_response,
    ).toMatchObject({
      sub_code: 'isv.invalid-parameter',
    });
    expect((await post('method=alipay.trade.nothing')).error_response).toMatchObject({ code: '40002', sub_code: 'isv.invalid-method' });
    // Nothing was made.
    expect(await query(outTradeNo)).toMatchObject({ subCode: 'ACQ.TRADE_NOT_EXIST' });
    expect((await t.call(alipaySandbox.transaction, { params: { id: outTradeNo } })).status).toBe(404);
  });
});

describe('the phone checkout (alipay.trade.wap.pay)', () => {
  const returnUrl = `${site}/pay/x?back=1`;
  const wapUrl = (outTradeNo: string, urls: { returnUrl?: string; quitUrl?: string } = {}) =>
    sdk.pageExecute('alipay.trade.wap.pay', 'GET', {
      bizContent: {
        out_trade_no: outTradeNo,
        total_amount: '8.80',
        subject: 'Steam 钱包充值',
        product_code: 'QUICK_WAP_WAY',
        quit_url: urls.quitUrl ?? returnUrl,
        time_expire: '2099-01-01 00:00:00',
      },
      returnUrl: urls.returnUrl ?? returnUrl,
      notifyUrl,
    });
  const decide = async (html: string, decision: string) => {
    const id = /name="id" value="([^"]+)"/.exec(html)![1];
    return fetch(`${origin}/api/dev/alipay/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id, from: 'wap', decision }).toString(),
      redirect: 'manual',
    });
  };

  it("opens the signed address, and paying returns to the site's page with Alipay's signed return parameters", async () => {
    const outTradeNo = newOrderNo();
    const opened = await page(wapUrl(outTradeNo));
    expect(opened).toMatchObject({ status: 200, state: 'WAIT_BUYER_PAY' });
    expect(opened.html).toContain('Pay ¥8.80');
    expect(await query(outTradeNo)).toMatchObject({ tradeStatus: 'WAIT_BUYER_PAY', totalAmount: '8.80' });

    const paid = await decide(opened.html, 'allow');
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(`${site}/pay/x`);
    const returned = Object.fromEntries(back.searchParams);
    expect(returned).toMatchObject({
      back: '1',
      method: 'alipay.trade.wap.pay.return',
      out_trade_no: outTradeNo,
      total_amount: '8.80',
      app_id: credentials.appId,
      seller_id: credentials.sellerId,
      sign_type: 'RSA2',
    });
    // The return is signed over Alipay's own parameters, not the page's.
    const { back: _page, ...alipays } = returned;
    expect(sdk.checkNotifySignV2(alipays)).toBe(true);
    expect(sdk.checkNotifySignV2({ ...alipays, total_amount: '0.01' })).toBe(false);
    expect(await query(outTradeNo)).toMatchObject({ tradeStatus: 'TRADE_SUCCESS', tradeNo: returned.trade_no });
    const [notification] = notificationsOf(outTradeNo);
    expect(notification).toMatchObject({ trade_status: 'TRADE_SUCCESS', trade_no: returned.trade_no, total_amount: '8.80' });
    expect(sdk.checkNotifySignV2(notification)).toBe(true);
    // Opened again: paid, nothing to pay.
    expect((await page(wapUrl(outTradeNo))).error).toBe('ACQ.TRADE_HAS_SUCCESS');
  });

  it('never returns to another origin: the payment is made and the page stays', async () => {
    const outTradeNo = newOrderNo();
    const opened = await page(wapUrl(outTradeNo, { returnUrl: 'https://attacker.test/steal', quitUrl: 'https://attacker.test/quit' }));
    const paid = await decide(opened.html, 'allow');
    expect(paid.status).toBe(200);
    expect(paid.headers.get('location')).toBeNull();
    expect(await paid.text()).toContain('data-sandbox-state="TRADE_SUCCESS"');

    const declinedNo = newOrderNo();
    const declined = await decide((await page(wapUrl(declinedNo, { quitUrl: 'https://attacker.test/quit' }))).html, 'deny');
    expect(declined.status).toBe(200);
    expect(declined.headers.get('location')).toBeNull();
  });

  it("declining goes back to the site's quit_url and leaves the trade waiting; a tampered address is refused", async () => {
    const outTradeNo = newOrderNo();
    const declined = await decide((await page(wapUrl(outTradeNo))).html, 'deny');
    expect(declined.status).toBe(303);
    expect(declined.headers.get('location')).toBe(returnUrl);
    expect(await query(outTradeNo)).toMatchObject({ tradeStatus: 'WAIT_BUYER_PAY' });
    expect(notificationsOf(outTradeNo)).toEqual([]);

    const tampered = wapUrl(newOrderNo()).replace(encodeURIComponent('"8.80"'), encodeURIComponent('"0.01"'));
    expect(await page(tampered)).toMatchObject({ status: 200, error: 'isv.invalid-signature' });
    const strangers = stranger.pageExecute('alipay.trade.wap.pay', 'GET', {
      bizContent: { out_trade_no: newOrderNo(), total_amount: '1.00', subject: 'x', product_code: 'QUICK_WAP_WAY' },
    });
    expect((await page(strangers)).error).toBe('isv.invalid-signature');
  });
});

it('an app that pays through a real Alipay serves no sandbox', async () => {
  const real = await startApp({
    SITE_URL: site,
    PAYMENT_PROVIDER: 'alipay',
    ...alipaySandboxMerchantSettings(mkdtempSync(path.join(tmpdir(), 'beacon-alipay-')), origin),
    ALIPAY_NOTIFY_URL: `${site}/api/commerce/v1/notify/alipay`,
  });
  try {
    for (const url of [`/api${alipaySandboxGatewayPath}`, '/api/dev/alipay/scan?code=bax0abc', '/api/dev/alipay/sandbox/bax0abc']) {
      expect((await real.app.inject({ url })).statusCode, url).toBe(404);
    }
  } finally {
    await real.close();
  }
});
