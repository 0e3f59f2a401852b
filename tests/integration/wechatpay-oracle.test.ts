/**
 * WeChat Pay APIv3's message security (server/services/wechatpay.ts) checked
 * against implementations the project did not write, where the sandbox tests
 * only show that the code agrees with itself: the `openssl` command line,
 * wechatpay-axios-plugin (a WeChat Pay SDK, here only for its Formatter, Rsa
 * and AesGcm), a resource sealed by Python's `cryptography` as WeChat Pay's
 * decryption sample does it, and the example values WeChat Pay's documentation
 * publishes with their test keys, reproduced byte for byte.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';
import { commerceCalls } from '#contract/commerce.ts';
import { orders, products } from '../../server/db/schema.ts';
import { demoProducts } from '../../server/modules/commerce/catalogue.ts';
import { outboundHttp } from '../../server/services/outbound-http.ts';
import {
  openResource,
  requestAuthorization,
  sealResource,
  SignatureError,
  verifyPlatformSignature,
  type SealedResource,
} from '../../server/services/wechatpay.ts';
import { ProviderError } from '../../server/services/payment-provider.ts';
import { wechatPay } from '../../server/services/wechatpay-adapter.ts';
import { loginBySms } from './api/codes.ts';
import { startApp, type TestApp } from './api/harness.ts';

// The request's nonce is random; the published examples fix it, so one test sets the next random bytes.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, randomBytes: vi.fn(actual.randomBytes) };
});

const folder = mkdtempSync(path.join(tmpdir(), 'beacon-wechatpay-oracle-'));
let files = 0;
const file = (content: string | Buffer) => {
  const name = path.join(folder, String(++files));
  writeFileSync(name, content);
  return name;
};
const pem = (key: KeyObject) => file(key.type === 'private' ? key.export({ type: 'pkcs8', format: 'pem' }) : key.export({ type: 'spki', format: 'pem' }));

/** `openssl dgst -sha256 -sign`: an SHA256-with-RSA signature of `message`, in base64. */
const opensslSign = (privateKeyFile: string, message: string | Buffer) =>
  execFileSync('openssl', ['dgst', '-sha256', '-sign', privateKeyFile], { input: message }).toString('base64');

/** Whether `openssl dgst -sha256 -verify` says the base64 `signature` of `message` holds for the public key. */
function opensslVerifies(publicKeyFile: string, message: Buffer, signature: string): boolean {
  const run = spawnSync('openssl', ['dgst', '-sha256', '-verify', publicKeyFile, '-signature', file(Buffer.from(signature, 'base64'))], { input: message });
  return run.status === 0 && run.stdout.toString().trim() === 'Verified OK';
}

const merchant = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }), mchid: '1900007291', serial: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1' };
const platform = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }), serial: 'PUB_KEY_ID_0114232134912410000000000000' };
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const [merchantPublicPem, platformPrivatePem, strangerPrivatePem] = [pem(merchant.publicKey), pem(platform.privateKey), pem(stranger.privateKey)];
const appid = 'wxd678efh567hg6787';
const apiV3Key = 'a7Gd0QpLx2Vn9RtKe4Wm6ZsYb3Hc8Jf1';
const seconds = () => String(Math.floor(Date.now() / 1000));

/** Headers of an answer or notification signed by the package, over the message its Formatter builds. */
const packageSigned = (body: string, privateKey: KeyObject = platform.privateKey) => {
  const [timestamp, nonce] = [String(Formatter.timestamp()), Formatter.nonce(32)];
  const signature = Rsa.sign(Formatter.response(timestamp, nonce, body), privateKey);
  return { 'Wechatpay-Timestamp': timestamp, 'Wechatpay-Nonce': nonce, 'Wechatpay-Signature': signature, 'Wechatpay-Serial': platform.serial };
};

/** Headers signed by openssl over the message as WeChat Pay documents it: timestamp, nonce and body, each line ending in \n. */
const opensslSigned = (body: string, { timestamp = seconds(), nonce = randomBytes(16).toString('hex'), privateKeyFile = platformPrivatePem } = {}) => ({
  'wechatpay-timestamp': timestamp,
  'wechatpay-nonce': nonce,
  'wechatpay-signature': opensslSign(privateKeyFile, `${timestamp}\n${nonce}\n${body}\n`),
  'wechatpay-serial': platform.serial,
});

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The body's bytes as they came. */
  body: Buffer;
}

/** WeChat Pay's side: records each request as it came over the wire and answers it signed by the package (or, when `tamper`, changed after signing). */
let server: Server;
let baseUrl: string;
const received: Received[] = [];
let tamper = false;

function answerTo(request: Received): { status: number; body: string } {
  if (request.url.endsWith('/native')) return { status: 200, body: JSON.stringify({ code_url: 'weixin://wxpay/bizpayurl?pr=Oracle01' }) };
  const queried = /^\/v3\/pay\/transactions\/out-trade-no\/([^/?]+)\?mchid=/.exec(request.url);
  if (queried)
    return {
      status: 200,
      body: JSON.stringify({
        appid,
        mchid: merchant.mchid,
        out_trade_no: decodeURIComponent(queried[1]),
        trade_state: 'NOTPAY',
        trade_state_desc: '订单未支付',
        amount: { total: 5000, currency: 'CNY' },
      }),
    };
  return { status: 404, body: JSON.stringify({ code: 'RESOURCE_NOT_EXISTS', message: '资源不存在' }) };
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got = { method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks) };
      received.push(got);
      const { status, body } = answerTo(got);
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...packageSigned(body) });
      response.end(tamper ? body.replace('NOTPAY', 'SUCCESS') : body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await outbound.close();
  await new Promise((resolve) => server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

const outbound = outboundHttp({ timeoutMs: 10_000, maxBytes: 1_048_576, publicOnly: false, allowed: [] });
const adapter = () =>
  wechatPay(
    { baseUrl, appid, merchant: { mchid: merchant.mchid, serial: merchant.serial, privateKey: merchant.privateKey }, platform, apiV3Key },
    outbound.fetch,
    5_000,
  );

/** The Authorization header's fields, read here (not with the product's parser): the scheme, then key="value" pairs in any order. */
function authorizationOf(header: string | undefined): Record<string, string> {
  const scheme = 'WECHATPAY2-SHA256-RSA2048 ';
  expect(header?.startsWith(scheme), header).toBe(true);
  return Object.fromEntries(
    header!
      .slice(scheme.length)
      .split(',')
      .map((pair) => {
        const parts = /^(\w+)="([^"]*)"$/.exec(pair);
        expect(parts, pair).not.toBeNull();
        return [parts![1], parts![2]];
      }),
  );
}

/** Checks a request as it came: its Authorization signs the documented message of this very request, by openssl and by the package. */
function expectSignedAsDocumented(request: Received) {
  const fields = authorizationOf(request.headers.authorization);
  expect(fields).toMatchObject({ mchid: merchant.mchid, serial_no: merchant.serial });
  expect(Math.abs(Number(fields.timestamp) - Number(seconds()))).toBeLessThanOrEqual(5);
  const head = `${request.method}\n${request.url}\n${fields.timestamp}\n${fields.nonce_str}\n`;
  const message = Buffer.concat([Buffer.from(head), request.body, Buffer.from('\n')]);
  expect(opensslVerifies(merchantPublicPem, message, fields.signature), 'openssl dgst -verify').toBe(true);
  expect(
    Rsa.verify(
      Formatter.request(request.method, request.url, fields.timestamp, fields.nonce_str, request.body.toString('utf8')),
      fields.signature,
      merchant.publicKey,
    ),
  ).toBe(true);
  return { fields, head };
}

describe("the adapter's requests, as they reach WeChat Pay", () => {
  it('signs a POST with a Chinese (UTF-8) body over the bytes sent, as openssl and the package check it', async () => {
    const description = 'Steam 钱包充值 50.00 元（测试）';
    const codeUrl = await adapter().createNative({
      outTradeNo: '20261119123456789012',
      description,
      total: 5000,
      expiresAt: new Date('2026-11-19T08:30:00.000Z'),
      notifyUrl: 'https://beacon.test/api/commerce/v1/notify/wechatpay',
    });
    expect(codeUrl).toBe('weixin://wxpay/bizpayurl?pr=Oracle01');
    const request = received.at(-1)!;
    expect([request.method, request.url]).toEqual(['POST', '/v3/pay/transactions/native']);
    expect(JSON.parse(request.body.toString('utf8')).description).toBe(description);
    const { fields, head } = expectSignedAsDocumented(request);
    // The body is signed as UTF-8 bytes: the same text in another encoding (Latin-1 here) does not verify.
    const latin1 = Buffer.concat([Buffer.from(head), Buffer.from(request.body.toString('utf8'), 'latin1'), Buffer.from('\n')]);
    expect(opensslVerifies(merchantPublicPem, latin1, fields.signature)).toBe(false);
  });

  it('signs a GET with its query string (and an order number that needs escaping) exactly as it goes on the wire', async () => {
    const outTradeNo = 'A|B*C@20261119';
    const transaction = await adapter().query(outTradeNo);
    expect(transaction).toMatchObject({ outTradeNo, tradeState: 'NOTPAY', total: 5000 });
    const request = received.at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.url).toBe(`/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${merchant.mchid}`);
    expect(request.body.length).toBe(0);
    const { fields } = expectSignedAsDocumented(request);
    // The query is part of what is signed: without it, or with the order number unescaped, the signature does not hold.
    for (const url of [request.url.split('?')[0], request.url.replace(encodeURIComponent(outTradeNo), outTradeNo)])
      expect(opensslVerifies(merchantPublicPem, Buffer.from(`GET\n${url}\n${fields.timestamp}\n${fields.nonce_str}\n\n`), fields.signature), url).toBe(false);
  });

  it('refuses an answer changed after the platform signed it', async () => {
    tamper = true;
    try {
      await expect(adapter().query('20261119123456789013')).rejects.toThrow(ProviderError);
    } finally {
      tamper = false;
    }
  });
});

describe('answers and notifications signed by others', () => {
  const body = JSON.stringify({ code_url: 'weixin://wxpay/bizpayurl?pr=Oracle02', note: '扫码支付' });
  const check = (headers: Record<string, string>, text = body) => verifyPlatformSignature(headers, text, platform);
  const refusal = (headers: Record<string, string>, text = body) => {
    try {
      check(headers, text);
    } catch (error) {
      expect(error).toBeInstanceOf(SignatureError);
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('accepts what openssl and the package signed, and an empty body (204) signed as a lone \\n', () => {
    const signed = opensslSigned(body, { nonce: 'c5ac7061fccab6bf3e254dcf98995b8c' });
    expect(check(signed)).toBe('c5ac7061fccab6bf3e254dcf98995b8c');
    const byPackage = packageSigned(body);
    expect(check(byPackage)).toBe(byPackage['Wechatpay-Nonce']);
    expect(check(opensslSigned(''), '')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('refuses a changed body, timestamp, nonce or serial, and a signature by another key', () => {
    const signed = opensslSigned(body);
    expect(refusal(signed, body.replace('Oracle02', 'Oracle03'))).toBe('bad signature');
    expect(refusal(signed, `${body}\n`)).toBe('bad signature');
    expect(refusal({ ...signed, 'wechatpay-timestamp': String(Number(signed['wechatpay-timestamp']) - 1) })).toBe('bad signature');
    expect(refusal({ ...signed, 'wechatpay-nonce': `${signed['wechatpay-nonce']}0` })).toBe('bad signature');
    expect(refusal({ ...signed, 'wechatpay-serial': 'PUB_KEY_ID_0000000000000000000000000000' })).toBe('unknown platform certificate');
    expect(refusal(opensslSigned(body, { privateKeyFile: strangerPrivatePem }))).toBe('bad signature');
    expect(refusal(packageSigned(body, stranger.privateKey))).toBe('bad signature');
    const stale = String(Number(seconds()) - 301);
    expect(refusal(opensslSigned(body, { timestamp: stale }))).toBe('stale timestamp');
  });
});

/**
 * A transaction resource sealed once by Python's `cryptography`, as WeChat Pay's
 * own decryption sample uses it (AESGCM(key.encode()).decrypt(nonce.encode(),
 * b64decode(ciphertext), associated_data.encode())): the output of
 * `base64.b64encode(AESGCM(key.encode()).encrypt(nonce.encode(), plaintext.encode(), b"transaction"))`
 * with the APIv3 key above and this nonce and plaintext.
 */
const pythonSealed = {
  nonce: 'fJ3kQ8pLm2Zx',
  plaintext:
    '{"mchid":"1900007291","appid":"wxd678efh567hg6787","out_trade_no":"1217752501201407033233368018","transaction_id":"4200000000000000000000000001","trade_state":"SUCCESS","trade_state_desc":"支付成功","amount":{"total":100,"payer_total":100,"currency":"CNY","payer_currency":"CNY"}}',
  ciphertext:
    'nzH//3d/tu7MjoS1W+BU2wtkExvvxLXA2rp4E3GFmuEaksXam0n07H5uKUrq0Py/sCr4v2UJuy0+npPrBYgMAArYxkOVw85GkuqSooWDaqa4zdU1uU7FTAlC4UpB7C/dUfUJaxVAkkxkmv+XkYVDbmZh73nd9GUy9G4SgYteiyPF1bepEA2ycWRVBNtBOGYauaxCWkhpR0VRM8f3doyyIdV88BioxIjLawzUH62UHY50wqI3iiyut/21hpguPgP+aEmaMaxMMXsV6XPma+1DVYnCFjbr6rI4jiM4X+7noo6noVpxh23J79sN/BRdXHxl7ddq+lDbHLuQRXnzu8vArNJoYAvgaOP/Mk6Q72tgaoN/XhkXegFalBpjRfkm9nuRjURimSeIZ7iBCjcm',
};

describe('notification resources sealed by others', () => {
  const plaintext = JSON.stringify({
    mchid: merchant.mchid,
    appid,
    out_trade_no: '20261119123456789012',
    trade_state: 'SUCCESS',
    trade_state_desc: '支付成功',
  });
  const resource = (nonce: string, ciphertext: string, associated = 'transaction'): SealedResource => ({
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext,
    nonce,
    associated_data: associated,
    original_type: 'transaction',
  });
  const refused = (sealed: SealedResource) => expect(() => openResource(sealed, apiV3Key)).toThrow(SignatureError);

  it("opens the package's and Python's sealing, with and without associated data", () => {
    expect(openResource(resource(pythonSealed.nonce, pythonSealed.ciphertext), apiV3Key)).toBe(pythonSealed.plaintext);
    expect(openResource(resource('0123456789ab', Aes.AesGcm.encrypt(plaintext, apiV3Key, '0123456789ab', 'transaction')), apiV3Key)).toBe(plaintext);
    expect(openResource(resource('ba9876543210', Aes.AesGcm.encrypt(plaintext, apiV3Key, 'ba9876543210', ''), ''), apiV3Key)).toBe(plaintext);
  });

  it('seals what the package opens', () => {
    const sealed = sealResource(plaintext, apiV3Key, 'transaction');
    expect(sealed).toMatchObject({ algorithm: 'AEAD_AES_256_GCM', associated_data: 'transaction', original_type: 'transaction' });
    expect(Buffer.byteLength(sealed.nonce)).toBe(12);
    expect(Aes.AesGcm.decrypt(sealed.ciphertext, apiV3Key, sealed.nonce, sealed.associated_data)).toBe(plaintext);
  });

  it('refuses a changed tag, ciphertext, associated data, nonce or key', () => {
    const bytes = Buffer.from(pythonSealed.ciphertext, 'base64');
    const flipped = (at: number) => Buffer.from(bytes.map((byte, index) => (index === at ? byte ^ 1 : byte))).toString('base64');
    refused(resource(pythonSealed.nonce, flipped(bytes.length - 1)));
    refused(resource(pythonSealed.nonce, flipped(0)));
    refused(resource(pythonSealed.nonce, pythonSealed.ciphertext, 'refund'));
    refused(resource(pythonSealed.nonce, pythonSealed.ciphertext, ''));
    refused(resource('fJ3kQ8pLm2Zy', pythonSealed.ciphertext));
    expect(() => openResource(resource(pythonSealed.nonce, pythonSealed.ciphertext), apiV3Key.replace('a', 'b'))).toThrow(SignatureError);
  });

  it('reads a whole notification signed by openssl and sealed by the package', () => {
    const note = JSON.stringify({
      id: 'EV-2018022511223320873',
      create_time: '2015-05-20T13:29:35+08:00',
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: resource('0123456789ab', Aes.AesGcm.encrypt(pythonSealed.plaintext, apiV3Key, '0123456789ab', 'transaction')),
    });
    const headers = opensslSigned(note, { nonce: 'fa1c0nce0000' });
    expect(adapter().readNotification(headers, note)).toEqual({
      nonce: 'fa1c0nce0000',
      event: {
        kind: 'transaction',
        transaction: {
          method: 'wechatpay',
          outTradeNo: '1217752501201407033233368018',
          transactionId: '4200000000000000000000000001',
          tradeState: 'SUCCESS',
          total: 100,
        },
      },
    });
    expect(() => adapter().readNotification(headers, note.replace('EV-2018', 'EV-2019'))).toThrow(SignatureError);
  });
});

/**
 * WeChat Pay's documentation publishes a test merchant key (merchant 1900007291,
 * certificate serial 408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB) with the
 * signatures it makes — "if your signature equals the document's, you compute it
 * correctly" — on its pages on request signatures (for a path parameter: GET
 * /v3/refund/domestic/refunds/123123123123 with its whole Authorization header;
 * for a body: POST /v3/pay/transactions/jsapi), and a WeChat Pay public key
 * with a signed Native order answer on "如何使用微信支付公钥验签".
 */
const published = {
  merchantKey: `-----BEGIN PRIVATE KEY-----
MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQCm2mb6q8gMKH/3
CNTbpJAIrbqiBiQGEOtjGcBrDYltsGynWgNscqT7WvfzU14FQbYcQUC5T4Wvva7m
i3fIp3OgX8VqMDNA0qebnr38Pe6kqiLyZgFpJPXlSKDyPyqhRbVTbXssvSMQeVKc
dXeVxoNNeoOlNFHgF/P0io6AmAVnz+hN8SiZKuOsth5/zUTLGvtkgxBcQooQrtXh
RcpLT798OyIb9xeJ2HO3xRtMv2+perEzb4gMibI74UBz+2QEbnkubPE+2jU2rRZu
dnNEz/BPOt3Qj/w2V6/G0VumGDh6+UeMU0jv4aupHztWITC4Akn0l7lBCNy3lgl8
VFaJnkIxAgMBAAECggEAYGL8aESB7NwciDWW2UdoWUsa7GxFtSdjAz2mFXGdeTsY
mVh7b9OOkRGM+Qio4LqEHDBp1mMk5E/cUJwy1zw8pGGO5nfvs7u9TT3XnHaefIs4
YvUgTYAneIuLRkXNN5rQU+CD7mVYczTSz0Vgjqo9wa1LjUz7G0xbBmJgTdMEFGJs
eJjy6AbJo0CGIwp6HJbTm4CmOUgXnnDAIbEGTIRImkZFH/rzneIeR7oZ77FVwxr1
CZB2gfRCov/yRPbw8vnryYkmvQ7D/ze3j5097vRg/MoDGBSdoOwcmo75vyofr0AS
zytMjmHYyifqkf5slPropSiJeGf4p/7gtKyF6dE/XQKBgQDVAlJ+4U5ZVGOuDc3+
sAhz8CTzgFNlq9vKuSoFK6hOz2L+cwj+E7NXGkOe2DsHHZNy2Xqxk7caKhPEp1z9
hhpMpyLVMoFt6CKemyoRBWDCQwLLwem9SZF/IAyovBkLiH36P42Jm26gUkNMKC/5
Zhtqxf6RZgRQzbVudJi47vIRCwKBgQDIh0+v27Oo+DM3fhObH4I1NrXpWOEGH7OQ
G1dEsMuFYF4hjGhg0kBEP3w9vVdl2+mRllZKTsx9oqjb8OibPLLIH8xsdbAB0WLf
JvjLu4wl/ILUzN1RI03dWnnv2EnEeQn6c3hizvrJ9wR5U4ue9RPVnQooJ0hZF1PU
uCL5fWK3MwKBgElReU/PAYbh80WP3t3Rfbdaa32dKBeQ5iCLR5lsA4zM+YgX1HqQ
EWTj126vgvHaDkyz6vWAoL/Sx+cirHFfXWIRDX5Q2hgYlQH+6qXdMgbrxeSYpHnQ
/tHBGFpkFELSAnrGsVMyOwvYBO4LzyeLK9i+ufcWJFoj1FVmsMLHDG8tAoGARdbi
iQQCoYG4DMarO2aQ6cmhN6EN1h0qY7EyBqlwaIZ0okiNfdMcMOjPc41DKCWcRmlO
qlihXcxN9TQFPzO3rH1urAOdBjUPs1qWYhZyrDQyuLyVBBJApyxAtajloDjrob+f
mQIvVDHk7ACN6xG+E7K6+9salnTKbJapD618uQMCgYBNy6XUvzLkP/A1U/UZdtcx
l8GwU/dturLxz4CyGbqDw4ubaYY2e13lnqHUqQgPtiSyH51nq3tdo8G0YAJdfkSv
KvnfslW91fyEBUKnkdW1o3/1UFU/wprZ7ixVL/F42A4xDu7OFE8EnweJOZ0jWceE
OdhCkaIGBCfRnlECRK8UyQ==
-----END PRIVATE KEY-----
`,
  mchid: '1900007291',
  serial: '408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB',
  timestamp: 1554208460,
  nonce: '593BEC0C930BF1AFEB40B4A08C8FB242',
  refundQuery: {
    path: '/v3/refund/domestic/refunds/123123123123',
    authorization:
      'WECHATPAY2-SHA256-RSA2048 mchid="1900007291",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",signature="Lc9VXxmeonkdV8Xk9tmigQFLhl0vRWTerdmoRu01aAnYwIrD/5nsSwE1WlmZGLRlAFTNQ3QsMa0+VRDlJp1Wp5p0nO8EK68b5sJBbjouxaFciIfq1zfDWWz+jqhcMoKXI1A6dPm1AW7D4d30WsMTNzp6g23OXakIsh9LO3lUmwvTuE0BY8ncf6tNGk4wKmvXwERd/ZpoQY3MAVKz+Nakwc+2XBmzT66KcUehU5kr4IvGa/lEU5RZb/q00zP9VLdBhC/jQSX3X1UcJLCtEc4gTmib4tnmAT+bHF/e17ZAuxDNcx6rqT8gNEXqaJGG+1OflMSTU2tpyG65G4dMKdFcoA==",timestamp="1554208460",serial_no="408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB"',
  },
  jsapiOrder: {
    path: '/v3/pay/transactions/jsapi',
    body: '{"appid":"wxd678efh567hg6787","mchid":"1900007291","description":"Image形象店-深圳腾大-QQ公仔","out_trade_no":"1217752501201407033233368018","notify_url":"https://www.weixin.qq.com/wxpay/pay.php","amount":{"total":100,"currency":"CNY"},"payer":{"openid":"oUpF8uMuAJO_M2pxb1Q9zNjWeS6o"}}',
    signature:
      'jnks4dlrPw3ZX+ozVvSK39oa0t7OMBsg83BHAwd8BRdUFiVaQNTLTvci+wURgP1OQBbKYhFGvt7iqYpDSTQkp7Uq1sltaQKyncCyrA1g88m5bsKERQfPyT0ahSwKTYJ1CAn9QiJuSJRq1QsQs07eehbU/k9BCS51jTyc1Jpsi2H77HF9f/BnjXAOP3/sPObg6V5Ee4EzwLox684hhuMuIwHo7D8KFk3LIHOKDcNI4It1aCXydFWNpNK+SG86VUDe5kwoDpw4Ulqfu9z8OFDGbDs9TCxEv8iqQzbpxOlEVoOe2kalSYM5kApQb3nZcxdUtoE0liJGW3RGUNE0t4v01A==',
  },
  nativeAnswer: {
    publicKey: `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwXNI6sdlknHBnK8Fu2U6
Cwor9qY747jP8KAfeBMeveEt1TqaHkLfaSD07trZLhGpfs8/AHqjhgSMO1O10YQW
OrrJ4hjIWPKqxbgrYMkBQc+mwdiWp4W3ByCqxBRagCveCXRWCmuJYovl9H/bsDI0
iGbpVtEOghJtfciisYSgxcLufUDTRkvwxjIBK1pCRjk33jJ5YTBWTHMRtMAOcFLN
F6hdEYdX8SPsgHHeLZ5Lv2T/686w1xtgCHef/sd4uSfWmyzsalQdHG/e4IyYmrhx
+O3VBoNDzE3nx23bFeV/RVNCG7cV6VhmYokJNHa/erIPkEmEFID6A5wQOXuxUkmJ
WwIDAQAB
-----END PUBLIC KEY-----
`,
    headers: {
      'Wechatpay-Nonce': 'd824f2e086d3c1df967785d13fcd22ef',
      'Wechatpay-Signature':
        'mfI1CPqvBrgcXfgXMFjdNIhBf27ACE2YyeWsWV9ZI7T7RU0vHvbQpu9Z32ogzc+k8ZC5n3kz7h70eWKjgqNdKQF0eRp8mVKlmfzMLBVHbssB9jEZEDXThOX1XFqX7s7ymia1hoHQxQagPGzkdWxtlZPZ4ZPvr1RiqkgAu6Is8MZgXXrRoBKqjmSdrP1N7uxzJ/cjfSiis9FiLjuADoqmQ1P7p2N876YPAol7Rn0+GswwAwxldbdLrmVSjfytfSBJFqTMHn4itojgxSWWN1byuckQt8hSTEv/Lg97QoeGniYP17T80pJeQyL3b+295FPHSO2AtvCgyIbKMZ0BALilAA==',
      'Wechatpay-Timestamp': '1722850421',
      'Wechatpay-Serial': 'PUB_KEY_ID_0000000000000024101100397200000006',
    },
    body: '{"code_url":"weixin://wxpay/bizpayurl?pr=JyC91EIz1"}',
  },
};

describe("WeChat Pay's published examples", () => {
  const merchantKey = createPrivateKey(published.merchantKey);

  /** Runs `work` with the clock at `seconds` (Date only: the RSA pool's timers keep running). */
  async function at<T>(seconds: number, work: () => T | Promise<T>): Promise<T> {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(seconds * 1000);
    try {
      return await work();
    } finally {
      vi.useRealTimers();
    }
  }

  /** The Authorization our code makes at the examples' time with their nonce. */
  function authorizationAtExample(method: string, pathAndQuery: string, body: string) {
    vi.mocked(randomBytes).mockImplementationOnce(() => Buffer.from(published.nonce, 'hex'));
    return at(published.timestamp, () =>
      requestAuthorization(method, pathAndQuery, body, { mchid: published.mchid, serial: published.serial, privateKey: merchantKey }),
    );
  }

  it('makes the published Authorization header of a GET with a path parameter, byte for byte', async () => {
    expect(await authorizationAtExample('GET', published.refundQuery.path, '')).toBe(published.refundQuery.authorization);
    const message = `GET\n${published.refundQuery.path}\n${published.timestamp}\n${published.nonce}\n\n`;
    expect(published.refundQuery.authorization).toContain(`signature="${opensslSign(file(published.merchantKey), message)}"`);
  });

  it('makes the published signature of a POST with a UTF-8 body, byte for byte', async () => {
    const { path: orderPath, body, signature } = published.jsapiOrder;
    expect(authorizationOf(await authorizationAtExample('POST', orderPath, body))).toEqual({
      mchid: published.mchid,
      nonce_str: published.nonce,
      signature,
      timestamp: String(published.timestamp),
      serial_no: published.serial,
    });
    expect(Rsa.sign(Formatter.request('POST', orderPath, published.timestamp, published.nonce, body), merchantKey)).toBe(signature);
  });

  it('accepts the published signed answer with the published WeChat Pay public key, and nothing changed in it', async () => {
    const { publicKey, headers, body } = published.nativeAnswer;
    const key = { serial: headers['Wechatpay-Serial'], publicKey: createPublicKey(publicKey) };
    await at(Number(headers['Wechatpay-Timestamp']) + 60, () => {
      expect(verifyPlatformSignature(headers, body, key)).toBe(headers['Wechatpay-Nonce']);
      expect(() => verifyPlatformSignature(headers, body.replace('JyC91EIz1', 'JyC91EIz2'), key)).toThrow('bad signature');
      expect(() => verifyPlatformSignature({ ...headers, 'Wechatpay-Nonce': 'd824f2e086d3c1df967785d13fcd22ee' }, body, key)).toThrow('bad signature');
    });
    // Today the same answer is five minutes too old.
    expect(() => verifyPlatformSignature(headers, body, key)).toThrow('stale timestamp');
  });
});

describe("a notification through the app's notify route", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({
      SITE_URL: 'https://beacon.test',
      PAYMENT_PROVIDER: 'wechatpay',
      WECHATPAY_URL: baseUrl,
      WECHATPAY_MCHID: merchant.mchid,
      WECHATPAY_APPID: appid,
      WECHATPAY_MERCHANT_SERIAL: merchant.serial,
      WECHATPAY_MERCHANT_KEY_FILE: pem(merchant.privateKey),
      WECHATPAY_PLATFORM_SERIAL: platform.serial,
      WECHATPAY_PLATFORM_CERT_FILE: pem(platform.publicKey),
      WECHATPAY_APIV3_KEY: apiV3Key,
      WECHATPAY_NOTIFY_URL: `https://beacon.test/api${commerceCalls.notify.path}`,
    });
    await t.app.db.insert(products).values(demoProducts);
  });
  afterAll(() => t.close());

  const deliver = (body: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api${commerceCalls.notify.path}`, headers: { 'content-type': 'application/json', ...headers }, payload: body });

  it('pays the order the app started at WeChat Pay once the notification made by openssl and the package comes; a changed one changes nothing', async () => {
    const { AccessToken: token } = await loginBySms(t, '13930000001', 'oracle-device');
    const order = (await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: 5000, Target: '12345678' } })).body.data;
    const paying = await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wechatpay' } });
    expect(paying.body.data.Order.State).toBe('paying');
    const started = received.at(-1)!;
    expect(JSON.parse(started.body.toString('utf8'))).toMatchObject({ out_trade_no: order.Key, amount: { total: order.Price } });
    expectSignedAsDocumented(started);

    const transaction = JSON.stringify({
      mchid: merchant.mchid,
      appid,
      out_trade_no: order.Key,
      transaction_id: '4200000000000000000000000002',
      trade_state: 'SUCCESS',
      trade_state_desc: '支付成功',
      amount: { total: order.Price, payer_total: order.Price, currency: 'CNY', payer_currency: 'CNY' },
    });
    const nonce = 'Xy7Kq2Lm9Pw4';
    // The summary comes escaped (\uXXXX): the signature holds for the bytes sent, not for the JSON parsed and written again.
    const note = JSON.stringify({
      id: 'EV-2026111912345678901',
      create_time: '2026-11-19T16:29:35+08:00',
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: {
        original_type: 'transaction',
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext: Aes.AesGcm.encrypt(transaction, apiV3Key, nonce, 'transaction'),
        associated_data: 'transaction',
        nonce,
      },
    }).replace('支付成功', '\\u652f\\u4ed8\\u6210\\u529f');
    const headers = opensslSigned(note);
    const state = async () => (await t.app.db.select({ state: orders.state }).from(orders).where(eq(orders.key, order.Key)))[0].state;

    expect((await deliver(note.replace('EV-2026', 'EV-2027'), headers)).statusCode).toBe(400);
    expect((await deliver(note, opensslSigned(note, { privateKeyFile: strangerPrivatePem }))).statusCode).toBe(400);
    expect(await state()).toBe('paying');
    const accepted = await deliver(note, headers);
    expect([accepted.statusCode, accepted.json()]).toEqual([200, { code: 'SUCCESS', message: 'OK' }]);
    expect(await state()).toBe('paid');
  });
});
