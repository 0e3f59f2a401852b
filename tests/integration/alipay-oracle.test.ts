/**
 * The Alipay adapter (server/services/alipay-adapter.ts, through alipay-sdk)
 * checked against what the project did not write: the `openssl` command line
 * signs and verifies over the strings as Alipay's documents build them (a
 * request's parameters but `sign`, sorted, `key=value` joined by `&`; an
 * answer's `…_response` text exactly as sent; a notification's parameters but
 * `sign` and `sign_type`, sorted), and certificates made by `openssl req` and
 * `openssl x509`, whose serial numbers are computed by Alipay's documented
 * rule from what `openssl x509` prints. A tiny local HTTP server stands in for
 * the gateway, reached through the server's real outbound client.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AlipaySdk } from 'alipay-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alipay, maxNotificationBytes, type AlipayCredentials } from '../../server/services/alipay-adapter.ts';
import { outboundHttp } from '../../server/services/outbound-http.ts';
import { AlreadyPaidError, NotificationRefused, ProviderError, ProviderUnanswered, RefundRefused } from '../../server/services/payment-provider.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'beacon-alipay-oracle-'));
let files = 0;
const file = (content: string | Buffer, name = String(++files)) => {
  const written = path.join(folder, name);
  writeFileSync(written, content);
  return written;
};
const pemOf = (key: KeyObject) =>
  (key.type === 'private' ? key.export({ type: 'pkcs8', format: 'pem' }) : key.export({ type: 'spki', format: 'pem' })).toString();
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' }).toString();

/** `openssl dgst -sha256 -sign`: Alipay's RSA2 (SHA256withRSA) signature of `message`, in base64 (`-sha1`: its old RSA one). */
const opensslSign = (privateKeyFile: string, message: string, digest = '-sha256') =>
  execFileSync('openssl', ['dgst', digest, '-sign', privateKeyFile], { input: message }).toString('base64');

/** Whether `openssl dgst -sha256 -verify` says the base64 `signature` of `message` holds for the public key. */
function opensslVerifies(publicKeyFile: string, message: string, signature: string): boolean {
  const run = spawnSync('openssl', ['dgst', '-sha256', '-verify', publicKeyFile, '-signature', file(Buffer.from(signature, 'base64'))], { input: message });
  return run.status === 0 && run.stdout.toString().trim() === 'Verified OK';
}

/** The string a request's signature covers, as Alipay's documents build it: every parameter but `sign` and empty ones, sorted by name, `name=value` joined by `&`. */
const requestSignString = (params: Record<string, string>) =>
  Object.keys(params)
    .filter((name) => name !== 'sign' && params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const app = pair();
const alipayKeys = pair();
const stranger = pair();
const [appPublicPem, alipayPrivatePem, strangerPrivatePem] = [file(pemOf(app.publicKey)), file(pemOf(alipayKeys.privateKey)), file(pemOf(stranger.privateKey))];
const appId = '2021000122671080';
const sellerId = '2088101122136241';

/** A gateway answer as Alipay writes it: the method's `…_response` text, anything `beside` it, and openssl's signature of exactly that text. */
function answer(method: string, content: object | string, { key = alipayPrivatePem, beside = '', sign = true } = {}): string {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  return `{"${method.replaceAll('.', '_')}_response":${text}${beside}${sign ? `,"sign":"${opensslSign(key, text)}"` : ''}}`;
}

interface Received {
  headers: IncomingHttpHeaders;
  url: string;
  /** The form's parameters, decoded. */
  params: Record<string, string>;
}

type Reply = { status?: number; body: string } | 'silence';

/** Alipay's side: records each request and answers it by its method (a reply for each call, in turn, or one for all). */
let server: Server;
let gateway: string;
const received: Received[] = [];
let replies: Record<string, Reply | Reply[]> = {};

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      received.push({ headers: request.headers, url: request.url!, params });
      const planned = replies[params.method];
      const reply = Array.isArray(planned) ? planned.shift() : planned;
      if (reply === 'silence') return;
      response.writeHead(reply?.status ?? (reply ? 200 : 404), { 'content-type': 'text/html;charset=utf-8' });
      response.end(reply?.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway.do`;
});
afterAll(async () => {
  await Promise.all([outbound.close(), small.close()]);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

const outbound = outboundHttp({ timeoutMs: 10_000, maxBytes: 1_048_576, publicOnly: false, allowed: [] });
const small = outboundHttp({ timeoutMs: 10_000, maxBytes: 1024, publicOnly: false, allowed: [] });
const credentials = (): AlipayCredentials => ({
  gateway,
  appId,
  sellerId,
  appPrivateKey: pemOf(app.privateKey),
  alipayPublicKey: pemOf(alipayKeys.publicKey),
});
const adapter = () => alipay(credentials(), outbound.fetch, 5_000);

/** The last request, its signature checked by openssl with the app's public key over the string Alipay's documents build. */
function lastSigned(): Received {
  const request = received.at(-1)!;
  expect(request.params.sign_type).toBe('RSA2');
  expect(opensslVerifies(appPublicPem, requestSignString(request.params), request.params.sign)).toBe(true);
  // Changed by one character, it no longer verifies: the check is real.
  expect(opensslVerifies(appPublicPem, requestSignString({ ...request.params, app_id: `${appId}1` }), request.params.sign)).toBe(false);
  return request;
}

/** Alipay reads every time as Beijing time. */
const fromBeijing = (text: string) => Date.parse(`${text.replace(' ', 'T')}+08:00`);

const order = {
  outTradeNo: '20260201000000000001',
  description: 'Beacon 充值 & co = 100%+',
  total: 1,
  expiresAt: new Date('2026-01-31T16:30:00Z'),
  notifyUrl: 'https://api.beacon.test/api/commerce/v1/notify/alipay',
};
const trade = (status: string, amount: string, outTradeNo = order.outTradeNo) => ({
  code: '10000',
  msg: 'Success',
  buyer_logon_id: 'c4r***@sandbox.com',
  out_trade_no: outTradeNo,
  trade_no: '2026020122001400000000000001',
  trade_status: status,
  total_amount: amount,
});

describe('requests, as openssl reads them', () => {
  it('signs a scan-to-pay request as Alipay documents, in Beijing time, the amount in yuan, and takes the code from an answer openssl signed', async () => {
    // The code comes escaped (\/) as Alipay writes it: the signature holds for the text sent, not for the JSON parsed and written again.
    const qr = 'https:\\/\\/qr.alipay.com\\/bax08432ll7n4qpvgmue0075';
    replies = {
      'alipay.trade.precreate': {
        body: answer('alipay.trade.precreate', `{"code":"10000","msg":"Success","out_trade_no":"${order.outTradeNo}","qr_code":"${qr}"}`),
      },
    };
    expect(await adapter().createNative(order)).toBe('https://qr.alipay.com/bax08432ll7n4qpvgmue0075');

    const request = lastSigned();
    expect(request.url).toBe('/gateway.do');
    expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(request.headers.accept).toBe('application/json');
    expect(request.params).toMatchObject({ app_id: appId, method: 'alipay.trade.precreate', charset: 'utf-8', version: '1.0', notify_url: order.notifyUrl });
    // Sent in Beijing time (the SDK's own stamp would be this machine's local time).
    expect(request.params.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(Math.abs(fromBeijing(request.params.timestamp) - Date.now())).toBeLessThan(10_000);
    expect(JSON.parse(request.params.biz_content)).toEqual({
      out_trade_no: order.outTradeNo,
      total_amount: '0.01',
      subject: order.description,
      time_expire: '2026-02-01 00:30:00',
    });
  });

  it('writes the largest amount exactly', async () => {
    replies = {
      'alipay.trade.precreate': { body: answer('alipay.trade.precreate', { code: '10000', msg: 'Success', out_trade_no: order.outTradeNo, qr_code: 'x' }) },
    };
    await adapter().createNative({ ...order, total: 99_999_999 });
    expect(JSON.parse(lastSigned().params.biz_content).total_amount).toBe('999999.99');
  });

  it('signs the phone payment address as Alipay documents, coming back to the pay page', async () => {
    const returnUrl = 'https://beacon.test/ja/pay?key=20260201000000000001&back=1';
    const address = new URL(await adapter().createPhone({ ...order, total: 12_345, payerClientIp: '203.0.113.9', returnUrl }));
    expect(`${address.origin}${address.pathname}`).toBe(gateway);
    const params = Object.fromEntries(address.searchParams);
    expect(opensslVerifies(appPublicPem, requestSignString(params), params.sign)).toBe(true);
    expect(params).toMatchObject({ app_id: appId, method: 'alipay.trade.wap.pay', sign_type: 'RSA2', return_url: returnUrl, notify_url: order.notifyUrl });
    expect(Math.abs(fromBeijing(params.timestamp) - Date.now())).toBeLessThan(10_000);
    expect(JSON.parse(params.biz_content)).toEqual({
      out_trade_no: order.outTradeNo,
      total_amount: '123.45',
      subject: order.description,
      time_expire: '2026-02-01 00:30:00',
      product_code: 'QUICK_WAP_WAY',
      quit_url: returnUrl,
    });
  });
});

describe('answers', () => {
  const queried = (body: string) => {
    replies = { 'alipay.trade.query': { body } };
    return adapter().query(order.outTradeNo);
  };

  it('reads a trade from an answer openssl signed, its amount exactly in fen', async () => {
    expect(await queried(answer('alipay.trade.query', trade('TRADE_SUCCESS', '0.1')))).toEqual({
      method: 'alipay',
      outTradeNo: order.outTradeNo,
      transactionId: '2026020122001400000000000001',
      tradeState: 'SUCCESS',
      total: 10,
    });
    expect(JSON.parse(lastSigned().params.biz_content)).toEqual({ out_trade_no: order.outTradeNo });
    expect((await queried(answer('alipay.trade.query', trade('WAIT_BUYER_PAY', '999999.99'))))?.tradeState).toBe('NOTPAY');
    expect((await queried(answer('alipay.trade.query', trade('TRADE_FINISHED', '0.01'))))?.total).toBe(1);
    expect((await queried(answer('alipay.trade.query', trade('TRADE_CLOSED', '50'))))?.tradeState).toBe('CLOSED');
    const missing = { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在' };
    expect(await queried(answer('alipay.trade.query', missing))).toBeNull();
  });

  it('refuses an amount it cannot read exactly, and an unknown status', async () => {
    for (const amount of ['1.005', '1.5e2', '-1.00', '1,00', ' 1.00', '0x10'])
      await expect(queried(answer('alipay.trade.query', trade('TRADE_SUCCESS', amount)))).rejects.toThrow(ProviderError);
    await expect(queried(answer('alipay.trade.query', trade('TRADE_PENDING', '1.00')))).rejects.toThrow(ProviderError);
  });

  it('trusts no answer that is not signed by Alipay: a flipped byte, another key, no signature, or an unsigned error', async () => {
    const genuine = answer('alipay.trade.query', trade('TRADE_SUCCESS', '50.00'));
    const flipped = genuine.replace('"50.00"', '"50.01"');
    expect(flipped).not.toBe(genuine);
    for (const body of [
      flipped,
      answer('alipay.trade.query', trade('TRADE_SUCCESS', '50.00'), { key: strangerPrivatePem }),
      answer('alipay.trade.query', trade('TRADE_SUCCESS', '50.00'), { sign: false }),
      `{"error_response":{"code":"40002","msg":"Invalid Arguments","sub_code":"isv.invalid-signature","sub_msg":"验签出错"}}`,
      // Unsigned, "no such trade" is nobody's word.
      `{"error_response":{"code":"40004","msg":"Business Failed","sub_code":"ACQ.TRADE_NOT_EXIST","sub_msg":"交易不存在"}}`,
      'Service Unavailable',
    ])
      await expect(queried(body)).rejects.toThrow(ProviderError);
    await expect(queried(genuine)).resolves.toMatchObject({ tradeState: 'SUCCESS', total: 5000 });
  });

  it('reads only what the signature covers: a forged answer added after the signed one changes nothing', async () => {
    const signed = answer('alipay.trade.query', trade('WAIT_BUYER_PAY', '50.00'));
    const forged = `${signed.slice(0, -1)},"alipay_trade_query_response":${JSON.stringify(trade('TRADE_SUCCESS', '50.00'))}}`;
    // JSON.parse alone would take the forged, later one.
    expect(JSON.parse(forged).alipay_trade_query_response.trade_status).toBe('TRADE_SUCCESS');
    expect((await queried(forged))?.tradeState).toBe('NOTPAY');
  });

  it('refuses a genuine answer about another payment', async () => {
    await expect(queried(answer('alipay.trade.query', trade('TRADE_SUCCESS', '50.00', '20260201000000000002')))).rejects.toThrow(/names out_trade_no/);
  });

  it('takes an HTTP error, a slow gateway and an answer over the size cap as no answer, within the deadline', async () => {
    replies = { 'alipay.trade.query': { status: 502, body: 'Bad Gateway' } };
    await expect(adapter().query(order.outTradeNo)).rejects.toThrow(ProviderError);

    replies = { 'alipay.trade.query': 'silence' };
    const started = Date.now();
    await expect(alipay(credentials(), outbound.fetch, 300).query(order.outTradeNo)).rejects.toThrow(ProviderUnanswered);
    expect(Date.now() - started).toBeLessThan(2_000);

    replies = { 'alipay.trade.query': { body: answer('alipay.trade.query', { ...trade('TRADE_SUCCESS', '50.00'), padding: 'x'.repeat(2048) }) } };
    await expect(alipay(credentials(), small.fetch, 5_000).query(order.outTradeNo)).rejects.toThrow(ProviderError);
  });
});

describe('closing', () => {
  const closing = (close: object, query?: object) => {
    replies = { 'alipay.trade.close': { body: answer('alipay.trade.close', close) } };
    if (query) replies['alipay.trade.query'] = { body: answer('alipay.trade.query', query) };
    return adapter().close(order.outTradeNo);
  };
  const statusError = { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_STATUS_ERROR', sub_msg: '交易状态不合法' };

  it('closes, finds nothing to close, or finds the trade paid or closed already', async () => {
    await closing({ code: '10000', msg: 'Success', out_trade_no: order.outTradeNo, trade_no: '2026020122001400000000000001' });
    expect(JSON.parse(lastSigned().params.biz_content)).toEqual({ out_trade_no: order.outTradeNo });
    await closing({ code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在' });
    await expect(closing(statusError, trade('TRADE_SUCCESS', '50.00'))).rejects.toThrow(AlreadyPaidError);
    await closing(statusError, trade('TRADE_CLOSED', '50.00'));
    await expect(closing({ code: '20000', msg: 'Service Currently Unavailable', sub_code: 'isp.unknow-error' })).rejects.toThrow(ProviderError);
  });
});

describe('refunds', () => {
  const refund = {
    transactionId: '2026020122001400000000000001',
    outRefundNo: 'R20260201000000000001',
    amount: 1_050,
    total: 5_000,
    notifyUrl: order.notifyUrl,
  };
  const refunded = (fundChange: string) => ({
    code: '10000',
    msg: 'Success',
    trade_no: refund.transactionId,
    out_trade_no: order.outTradeNo,
    buyer_logon_id: 'c4r***@sandbox.com',
    fund_change: fundChange,
    refund_fee: '10.50',
  });
  const refunding = (...bodies: string[]) => {
    replies = { 'alipay.trade.refund': { body: bodies[0] }, 'alipay.trade.fastpay.refund.query': bodies.slice(1).map((body) => ({ body })) };
    return adapter().refund(refund);
  };
  const refundQueryAnswer = (fields: object) =>
    answer('alipay.trade.fastpay.refund.query', { code: '10000', msg: 'Success', trade_no: refund.transactionId, out_trade_no: order.outTradeNo, ...fields });
  const named = { out_request_no: refund.outRefundNo, refund_amount: '10.50', total_amount: '50.00' };

  it('asks for the refund of the payment as Alipay documents, and reads its outcome', async () => {
    expect(await refunding(answer('alipay.trade.refund', refunded('Y')))).toBe('SUCCESS');
    expect(JSON.parse(lastSigned().params.biz_content)).toEqual({ trade_no: refund.transactionId, refund_amount: '10.50', out_request_no: refund.outRefundNo });
    // No money moved this time: the refund query tells whether it had.
    expect(await refunding(answer('alipay.trade.refund', refunded('N')), refundQueryAnswer({ ...named, refund_status: 'REFUND_SUCCESS' }))).toBe('SUCCESS');
    expect(JSON.parse(lastSigned().params.biz_content)).toEqual({ trade_no: refund.transactionId, out_request_no: refund.outRefundNo });
    expect(await refunding(answer('alipay.trade.refund', refunded('N')), refundQueryAnswer(named))).toBe('PROCESSING');
    expect(await refunding(answer('alipay.trade.refund', refunded('N')), 'no answer')).toBe('PROCESSING');
  });

  it('takes only a signed business failure as a refusal; an unsigned error, a system error or no answer decide nothing', async () => {
    const refusal = { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_HAS_FINISHED', sub_msg: '交易已完结' };
    await expect(refunding(answer('alipay.trade.refund', refusal))).rejects.toThrow(RefundRefused);
    for (const body of [
      answer('alipay.trade.refund', refusal, { key: strangerPrivatePem }),
      answer('alipay.trade.refund', refusal, { sign: false }),
      `{"error_response":{"code":"40002","msg":"Invalid Arguments","sub_code":"isv.invalid-app-id","sub_msg":"无效的AppID参数"}}`,
      `{"error_response":${JSON.stringify(refusal)}}`,
      answer('alipay.trade.refund', { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.SYSTEM_ERROR', sub_msg: '系统错误' }),
      answer('alipay.trade.refund', { code: '20000', msg: 'Service Currently Unavailable', sub_code: 'isp.unknow-error', sub_msg: '系统繁忙' }),
      answer('alipay.trade.refund', { ...refunded('Y'), trade_no: '2026020122001400000000000009' }),
    ]) {
      const outcome = refunding(body);
      await expect(outcome).rejects.toThrow(ProviderError);
      await expect(outcome).rejects.not.toThrow(RefundRefused);
    }
  });

  it('reads where a refund stands: done, under way, or none', async () => {
    const queried = (body: string) => {
      replies = { 'alipay.trade.fastpay.refund.query': { body } };
      return adapter().queryRefund({ outRefundNo: refund.outRefundNo, transactionId: refund.transactionId });
    };
    expect(await queried(refundQueryAnswer({ ...named, refund_status: 'REFUND_SUCCESS' }))).toBe('SUCCESS');
    expect(await queried(refundQueryAnswer(named))).toBe('PROCESSING');
    expect(await queried(refundQueryAnswer({}))).toBeNull();
    await expect(queried(refundQueryAnswer({ ...named, out_request_no: 'R-another', refund_status: 'REFUND_SUCCESS' }))).rejects.toThrow(ProviderError);
    await expect(queried(refundQueryAnswer({ ...named, refund_status: 'REFUND_SUCCESS' }).replace('REFUND_SUCCESS', 'REFUND_SUCCESS '))).rejects.toThrow(
      ProviderError,
    );
  });
});

describe('notifications', () => {
  /** A notification as Alipay posts it: form-encoded, signed by openssl over its parameters but sign and sign_type, sorted, as Alipay's documents say. */
  function notification(fields: Record<string, string>, { key = alipayPrivatePem, digest = '-sha256' } = {}): string {
    const all: Record<string, string> = {
      gmt_create: '2026-02-01 00:10:00',
      charset: 'utf-8',
      seller_email: 'shop@beacon.test',
      subject: order.description,
      buyer_id: '2088102177846880',
      invoice_amount: '50.00',
      notify_id: '2026020100222001000000000000000001',
      fund_bill_list: '[{"amount":"50.00","fundChannel":"ALIPAYACCOUNT"}]',
      notify_type: 'trade_status_sync',
      trade_status: 'TRADE_SUCCESS',
      receipt_amount: '50.00',
      app_id: appId,
      buyer_pay_amount: '50.00',
      sign_type: 'RSA2',
      seller_id: sellerId,
      gmt_payment: '2026-02-01 00:10:05',
      notify_time: '2026-02-01 00:10:06',
      version: '1.0',
      out_trade_no: order.outTradeNo,
      total_amount: '50.00',
      trade_no: '2026020122001400000000000001',
      auth_app_id: appId,
      buyer_logon_id: 'c4r***@sandbox.com',
      point_amount: '0.00',
      ...fields,
    };
    const signString = Object.keys(all)
      .filter((name) => name !== 'sign' && name !== 'sign_type')
      .sort()
      .map((name) => `${name}=${all[name]}`)
      .join('&');
    return new URLSearchParams({ ...all, sign: opensslSign(key, signString, digest) }).toString();
  }

  it('reads a payment and a refund notified and signed as Alipay does', () => {
    expect(adapter().readNotification(notification({}))).toEqual({
      nonce: '2026020100222001000000000000000001',
      event: {
        kind: 'transaction',
        transaction: { method: 'alipay', outTradeNo: order.outTradeNo, transactionId: '2026020122001400000000000001', tradeState: 'SUCCESS', total: 5000 },
      },
    });
    const refundNote = notification({ notify_id: 'n-refund', out_biz_no: 'R20260201000000000001', refund_fee: '10.50', gmt_refund: '2026-02-02 10:00:00.123' });
    expect(adapter().readNotification(refundNote)).toEqual({
      nonce: 'n-refund',
      event: { kind: 'refund', refund: { outRefundNo: 'R20260201000000000001', status: 'SUCCESS' } },
    });
  });

  it('refuses a notification for another app or seller, with a bad or no signature, or changed after signing', () => {
    const refused = (body: string) => expect(() => adapter().readNotification(body)).toThrow(NotificationRefused);
    refused(notification({ app_id: '2021000122670000' }));
    refused(notification({ seller_id: '2088101122130000' }));
    refused(notification({}, { key: strangerPrivatePem }));
    const genuine = notification({});
    refused(genuine.replace('total_amount=50.00', 'total_amount=0.01'));
    refused(genuine.replace(/&?sign=[^&]*/, ''));
    // Signed with SHA-1 and marked RSA, a notification is not Alipay's RSA2 one, though the SDK would check it as such.
    refused(notification({ sign_type: 'RSA' }, { digest: '-sha1' }));
  });

  it('refuses absurd notifications: too large, a field twice, a field missing, an amount it cannot read', () => {
    const refused = (body: string) => expect(() => adapter().readNotification(body)).toThrow(NotificationRefused);
    refused(notification({ body: 'x'.repeat(maxNotificationBytes) }));
    const genuine = notification({});
    refused(`${genuine}&total_amount=50.00`);
    refused(notification({ notify_id: '' }));
    refused(notification({ total_amount: '1.005' }));
    refused(notification({ trade_status: 'TRADE_PENDING' }));
    refused('');
  });
});

describe('certificate mode', () => {
  // An Alipay-like hierarchy made by openssl: a root (with an EC root beside it in the root file, as Alipay's holds several),
  // an intermediate that issues Alipay's public-key certificate, and the app's certificate; serial numbers beyond 64 bits.
  const subject = (name: string) => `/C=CN/O=Beacon Test Certification/OU=Certification Authority/CN=${name}`;
  let certs: { appCert: string; alipayPublicCert: string; alipayRootCert: string };
  let expected: { app: string; alipay: string; root: string };

  /** Alipay's documented serial number of a certificate: md5 of its issuer as `openssl x509 -nameopt RFC2253` prints it, then its serial in decimal. */
  function alipaySn(certificateFile: string): string {
    const issuer = openssl('x509', '-noout', '-issuer', '-nameopt', 'RFC2253', '-in', certificateFile)
      .trim()
      .replace(/^issuer=/, '');
    const serial = BigInt(
      `0x${openssl('x509', '-noout', '-serial', '-in', certificateFile)
        .trim()
        .replace(/^serial=/, '')}`,
    ).toString(10);
    return createHash('md5').update(`${issuer}${serial}`).digest('hex');
  }

  beforeAll(() => {
    const appKey = file(pemOf(app.privateKey), 'app.key');
    const alipayKey = file(pemOf(alipayKeys.privateKey), 'alipay.key');
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'root.key',
      '-out',
      'root.crt',
      '-days',
      '3650',
      '-subj',
      subject('Root R1'),
      '-set_serial',
      '0x1f2e3d4c5b6a79880102',
    );
    openssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'root-ec.key',
      '-out',
      'root-ec.crt',
      '-days',
      '3650',
      '-subj',
      subject('Root E1'),
    );
    const issue = (name: string, key: string, cn: string, issuer: string, serial: string) => {
      openssl('req', '-new', '-key', key, '-subj', subject(cn), '-out', `${name}.csr`);
      openssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        `${issuer}.crt`,
        '-CAkey',
        `${issuer}.key`,
        '-set_serial',
        serial,
        '-days',
        '365',
        '-out',
        `${name}.crt`,
      );
      return path.join(folder, `${name}.crt`);
    };
    openssl('genrsa', '-out', 'class2.key', '2048');
    issue('class2', 'class2.key', 'Class 2 R1', 'root', '0x7a');
    const appCert = issue('app', appKey, appId, 'root', '0x0102030405060708090a0b0c');
    const alipayCert = issue('alipay', alipayKey, 'Alipay RSA2 public key', 'class2', '0xfedcba98765432100123456789');
    const rootFile = path.join(folder, 'root.crt');
    certs = {
      appCert: readFileSync(appCert, 'utf8'),
      // As Alipay gives it: the certificate, then its issuer's.
      alipayPublicCert: readFileSync(alipayCert, 'utf8') + readFileSync(path.join(folder, 'class2.crt'), 'utf8'),
      alipayRootCert: readFileSync(rootFile, 'utf8') + readFileSync(path.join(folder, 'root-ec.crt'), 'utf8'),
    };
    // The root certificates' number joins those of the RSA-signed ones; this file has one.
    expected = { app: alipaySn(appCert), alipay: alipaySn(alipayCert), root: alipaySn(rootFile) };
  });

  const certified = () => alipay({ gateway, appId, sellerId, appPrivateKey: pemOf(app.privateKey), certificates: certs }, outbound.fetch, 5_000);

  it('computes the serial numbers by Alipay’s documented rule and sends the app’s and the root’s with each request', async () => {
    const sdk = new AlipaySdk({
      appId,
      privateKey: pemOf(app.privateKey).trim(),
      keyType: 'PKCS8',
      appCertContent: certs.appCert,
      alipayPublicCertContent: certs.alipayPublicCert,
      alipayRootCertContent: certs.alipayRootCert,
    });
    expect(sdk.config).toMatchObject({ appCertSn: expected.app, alipayCertSn: expected.alipay, alipayRootCertSn: expected.root });

    replies = {
      'alipay.trade.query': { body: answer('alipay.trade.query', trade('TRADE_SUCCESS', '50.00'), { beside: `,"alipay_cert_sn":"${expected.alipay}"` }) },
    };
    expect((await certified().query(order.outTradeNo))?.tradeState).toBe('SUCCESS');
    expect(lastSigned().params).toMatchObject({ app_cert_sn: expected.app, alipay_root_cert_sn: expected.root });
    const address = new URL(await certified().createPhone({ ...order, payerClientIp: '203.0.113.9', returnUrl: 'https://beacon.test/pay' }));
    expect(Object.fromEntries(address.searchParams)).toMatchObject({ app_cert_sn: expected.app, alipay_root_cert_sn: expected.root });
  });

  it('refuses an answer signed under another Alipay certificate, saying the settings must be updated', async () => {
    replies = {
      'alipay.trade.query': {
        body: answer('alipay.trade.query', trade('TRADE_SUCCESS', '50.00'), { beside: ',"alipay_cert_sn":"0123456789abcdef0123456789abcdef"' }),
      },
    };
    await expect(certified().query(order.outTradeNo)).rejects.toThrow(/rotated its certificate.*update the settings \(ALIPAY_PUBLIC_CERT_FILE\)/);
    replies = { 'alipay.trade.query': { body: answer('alipay.trade.query', trade('TRADE_SUCCESS', '50.00'), { key: strangerPrivatePem }) } };
    await expect(certified().query(order.outTradeNo)).rejects.toThrow(/not signed by Alipay/);
  });
});
