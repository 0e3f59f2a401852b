/**
 * The fake Aliyun SMS endpoint's own checks (tests/setup/fake-aliyun-sms.ts):
 * its ACS3-HMAC-SHA256 signer reproduces the worked example of Alibaba Cloud's
 * "V3 request structure and signature" document byte for byte, and the server
 * refuses what Aliyun refuses — a wrong secret, an unknown key, a stale date, a
 * nonce used twice, a request changed after it was signed — with Aliyun's codes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acs3Authorization, acs3Sign, startFakeAliyunSms, type Acs3Request, type FakeAliyunSms } from '../setup/fake-aliyun-sms.ts';

describe('the ACS3-HMAC-SHA256 signer', () => {
  // The document's example (its "固定参数示例"): RunInstances on ECS, no body, AccessKey secret `YourAccessKeySecret`.
  const example: Acs3Request = {
    method: 'POST',
    path: '/',
    query: [
      ['ImageId', 'win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd'],
      ['RegionId', 'cn-shanghai'],
    ],
    headers: {
      host: 'ecs.cn-shanghai.aliyuncs.com',
      'x-acs-action': 'RunInstances',
      'x-acs-version': '2014-05-26',
      'x-acs-date': '2023-10-26T10:22:32Z',
      'x-acs-signature-nonce': '3156853299f313e23d1673dc12e1703d',
      'x-acs-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    },
    body: '',
  };

  it('reproduces the document’s canonical request, its hash and its signature', () => {
    const signed = acs3Sign(example, 'YourAccessKeySecret');
    expect(signed.canonicalRequest).toBe(
      [
        'POST',
        '/',
        'ImageId=win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd&RegionId=cn-shanghai',
        'host:ecs.cn-shanghai.aliyuncs.com',
        'x-acs-action:RunInstances',
        'x-acs-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        'x-acs-date:2023-10-26T10:22:32Z',
        'x-acs-signature-nonce:3156853299f313e23d1673dc12e1703d',
        'x-acs-version:2014-05-26',
        '',
        'host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version',
        'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      ].join('\n'),
    );
    expect(signed.stringToSign).toBe('ACS3-HMAC-SHA256\n7ea06492da5221eba5297e897ce16e55f964061054b7695beedaac1145b1e259');
    expect(signed.signature).toBe('06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0');
    expect(acs3Authorization('YourAccessKeyId', example, 'YourAccessKeySecret')).toBe(
      'ACS3-HMAC-SHA256 Credential=YourAccessKeyId,SignedHeaders=host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version,Signature=06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0',
    );
  });

  it('encodes names and values as RFC 3986 says, spaces as %20 and `*` as %2A, and sorts the query by name', () => {
    const signed = acs3Sign(
      {
        ...example,
        query: [
          ['TemplateParam', '{"code":"0 1*~"}'],
          ['PhoneNumbers', '13800138000'],
        ],
      },
      'x',
    );
    expect(signed.canonicalRequest.split('\n')[2]).toBe('PhoneNumbers=13800138000&TemplateParam=%7B%22code%22%3A%220%201%2A~%22%7D');
  });
});

describe('the fake endpoint’s signature check', () => {
  let fake: FakeAliyunSms;
  beforeAll(async () => {
    fake = await startFakeAliyunSms();
  });
  afterAll(() => fake.close());

  /** A SendSms call signed as the document says, with what `change` changes before or after signing. */
  async function send(change: { secret?: string; keyId?: string; date?: Date; nonce?: string; tamper?: boolean } = {}) {
    const url = new URL(fake.url);
    const query: Array<[string, string]> = [
      ['PhoneNumbers', '13800138000'],
      ['SignName', fake.signName],
      ['TemplateCode', fake.templates.domestic.loginCode],
      ['TemplateParam', JSON.stringify({ code: '123456' })],
    ];
    const request: Acs3Request = {
      method: 'POST',
      path: '/',
      query,
      headers: {
        host: url.host,
        'x-acs-action': 'SendSms',
        'x-acs-version': '2017-05-25',
        'x-acs-date': (change.date ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z'),
        'x-acs-signature-nonce': change.nonce ?? randomUUID(),
        'x-acs-content-sha256': createHash('sha256').update('').digest('hex'),
      },
      body: '',
    };
    const authorization = acs3Authorization(change.keyId ?? fake.accessKeyId, request, change.secret ?? fake.accessKeySecret);
    if (change.tamper) query[0][1] = '13900139000';
    const search = query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
    const response = await fetch(`${fake.url}/?${search}`, { method: 'POST', headers: { ...request.headers, authorization } });
    return { status: response.status, body: (await response.json()) as { Code: string; Message: string; RequestId: string } };
  }

  it('takes a well-signed call', async () => {
    const before = fake.received.length;
    const { status, body } = await send();
    expect(status).toBe(200);
    expect(body.Code).toBe('OK');
    expect(fake.received.slice(before)).toEqual([
      expect.objectContaining({ phoneNumber: '13800138000', templateCode: fake.templates.domestic.loginCode, params: { code: '123456' } }),
    ]);
  });

  it('refuses a wrong secret, an unknown key, a call changed after signing, a stale date and a nonce used twice', async () => {
    const before = fake.received.length;
    expect(await send({ secret: 'not the secret' })).toMatchObject({ status: 400, body: { Code: 'SignatureDoesNotMatch' } });
    expect(await send({ keyId: 'LTAI-nobody' })).toMatchObject({ status: 404, body: { Code: 'InvalidAccessKeyId.NotFound' } });
    expect(await send({ tamper: true })).toMatchObject({ status: 400, body: { Code: 'SignatureDoesNotMatch' } });
    expect(await send({ date: new Date(Date.now() - 16 * 60_000) })).toMatchObject({ status: 400, body: { Code: 'InvalidTimeStamp.Expired' } });
    const nonce = randomUUID();
    expect(await send({ nonce })).toMatchObject({ status: 200, body: { Code: 'OK' } });
    expect(await send({ nonce })).toMatchObject({ status: 400, body: { Code: 'SignatureNonceUsed' } });
    expect(fake.received.length).toBe(before + 1);
  });
});
