/**
 * The payment adapter's H5 request (WeChat Pay APIv3 `POST /v3/pay/transactions/h5`)
 * as WeChat Pay's documentation has it: the URL, the JSON body with its
 * scene_info, and the Authorization header — `WECHATPAY2-SHA256-RSA2048` with
 * mchid, nonce_str, timestamp, serial_no and an SHA256-with-RSA signature over
 * "method\nURL\ntimestamp\nnonce\nbody\n" — checked here with the merchant's
 * public key, independently of the adapter's own signing code.
 */
import { createVerify, generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { outboundHttp } from '../../server/services/outbound-http.ts';
import { platformHeaders } from '../../server/services/wechatpay.ts';
import { wechatPay } from '../../server/services/wechatpay-adapter.ts';

const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
const h5Url = 'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx2016121516420242444321ca0631331346&package=1405458241';

let server: Server;
let baseUrl: string;
const received: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  // WeChat Pay's side: records the request and answers as the platform signs answers.
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', async () => {
      received.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      const answer = JSON.stringify({ h5_url: h5Url });
      response.writeHead(200, {
        'content-type': 'application/json',
        ...(await platformHeaders(answer, { serial: 'PLATFORM-SERIAL', privateKey: platform.privateKey })),
      });
      response.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it('sends the H5 order with scene_info, signed as WeChat Pay APIv3 documents, and answers the h5_url', async () => {
  const provider = wechatPay(
    {
      baseUrl,
      appid: 'wxd678efh567hg6787',
      merchant: { mchid: '1230000109', serial: 'MERCHANT-SERIAL', privateKey: merchant.privateKey },
      platform: { serial: 'PLATFORM-SERIAL', publicKey: platform.publicKey },
      apiV3Key: '0123456789abcdef0123456789abcdef',
    },
    outboundHttp({ timeoutMs: 10_000, maxBytes: 1_048_576, publicOnly: false, allowed: [] }).fetch,
    5_000,
  );
  const answered = await provider.createPhone({
    outTradeNo: '20261119123456789012H',
    description: 'Steam wallet 50.00 CNY',
    total: 5000,
    expiresAt: new Date('2026-11-19T08:30:00.000Z'),
    notifyUrl: 'https://beacon.test/api/commerce/v1/notify/wechatpay',
    payerClientIp: '203.0.113.7',
    returnUrl: 'https://beacon.test/en/payment?key=20261119123456789012&from=wechatpay',
  });
  // The way back as WeChat Pay documents it: redirect_url, URL-encoded, after the h5_url's own parameters.
  expect(answered).toBe(`${h5Url}&redirect_url=${encodeURIComponent('https://beacon.test/en/payment?key=20261119123456789012&from=wechatpay')}`);

  expect(received).toHaveLength(1);
  const [request] = received;
  expect(request.method).toBe('POST');
  expect(request.url).toBe('/v3/pay/transactions/h5');
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers.accept).toBe('application/json');
  expect(JSON.parse(request.body)).toEqual({
    appid: 'wxd678efh567hg6787',
    mchid: '1230000109',
    description: 'Steam wallet 50.00 CNY',
    out_trade_no: '20261119123456789012H',
    time_expire: '2026-11-19T08:30:00+00:00',
    notify_url: 'https://beacon.test/api/commerce/v1/notify/wechatpay',
    amount: { total: 5000, currency: 'CNY' },
    scene_info: { payer_client_ip: '203.0.113.7', h5_info: { type: 'Wap' } },
  });

  const authorization = request.headers.authorization!;
  expect(authorization).toMatch(/^WECHATPAY2-SHA256-RSA2048 /);
  const fields = Object.fromEntries([...authorization.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]));
  expect(Object.keys(fields).sort()).toEqual(['mchid', 'nonce_str', 'serial_no', 'signature', 'timestamp']);
  expect(fields).toMatchObject({ mchid: '1230000109', serial_no: 'MERCHANT-SERIAL' });
  expect(Math.abs(Number(fields.timestamp) - Date.now() / 1000)).toBeLessThan(60);
  expect(fields.nonce_str).toMatch(/^[0-9A-Za-z]{16,32}$/);
  const signed = `POST\n/v3/pay/transactions/h5\n${fields.timestamp}\n${fields.nonce_str}\n${request.body}\n`;
  expect(createVerify('RSA-SHA256').update(signed).verify(merchant.publicKey, fields.signature, 'base64')).toBe(true);
  // The signature covers the body exactly as sent: one character more and it no longer holds.
  expect(createVerify('RSA-SHA256').update(signed.replace('5000', '5001')).verify(merchant.publicKey, fields.signature, 'base64')).toBe(false);
});
