/**
 * The fake Tencent Cloud SMS endpoint's own checks (tests/setup/fake-tencent-sms.ts):
 * its TC3-HMAC-SHA256 signer reproduces the worked example of Tencent Cloud's
 * "Signature v3" document byte for byte, and the server answers as the API
 * does — a call signed with the wrong key, an unknown SecretId, a stale
 * timestamp, a body changed after signing are refused with Tencent's codes
 * (HTTP 200, `Response.Error`), a good call is sent and recorded, a number or
 * template it cannot take is refused per number, and a test can choose the
 * next answer or have none at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTencentSms, tc3Authorization, tc3Sign, type FakeTencentSms, type Tc3Request } from '../setup/fake-tencent-sms.ts';

describe('the TC3-HMAC-SHA256 signer', () => {
  // The document's example: DescribeInstances on CVM in ap-guangzhou, with its sample key, at 1551113065 (2019-02-25 UTC).
  const example: Tc3Request = {
    method: 'POST',
    path: '/',
    query: '',
    headers: { 'content-type': 'application/json; charset=utf-8', host: 'cvm.tencentcloudapi.com' },
    payload: String.raw`{"Limit": 1, "Filters": [{"Values": ["\u672a\u547d\u540d"], "Name": "instance-name"}]}`,
    timestamp: 1551113065,
    service: 'cvm',
  };

  it('reproduces the document’s canonical request, string to sign, signature and Authorization', () => {
    const signed = tc3Sign(example, 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE');
    expect(signed.canonicalRequest).toBe(
      [
        'POST',
        '/',
        '',
        'content-type:application/json; charset=utf-8',
        'host:cvm.tencentcloudapi.com',
        '',
        'content-type;host',
        '35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064',
      ].join('\n'),
    );
    expect(signed.hashedCanonicalRequest).toBe('5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031');
    expect(signed.stringToSign).toBe(
      ['TC3-HMAC-SHA256', '1551113065', '2019-02-25/cvm/tc3_request', '5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031'].join('\n'),
    );
    expect(signed.signature).toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168');
    expect(tc3Authorization('AKID**********************0123456789EXAMPLE', signed)).toBe(
      'TC3-HMAC-SHA256 Credential=AKID**********************0123456789EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });

  it('gives another signature for another key, date, service or body', () => {
    const base = tc3Sign(example, 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE').signature;
    expect(tc3Sign(example, 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLF').signature).not.toBe(base);
    expect(tc3Sign({ ...example, timestamp: example.timestamp + 86_400 }, 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE').signature).not.toBe(base);
    expect(tc3Sign({ ...example, service: 'sms' }, 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE').signature).not.toBe(base);
    expect(tc3Sign({ ...example, payload: `${example.payload as string} ` }, 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE').signature).not.toBe(base);
  });
});

describe('the fake endpoint', () => {
  let fake: FakeTencentSms;
  beforeAll(async () => {
    fake = await startFakeTencentSms();
  });
  afterAll(() => fake.close());

  /** A SendSms call signed as the document says, with what a test changes. */
  async function call(
    body: Record<string, unknown>,
    change: { secretKey?: string; secretId?: string; timestamp?: number; sent?: string; headers?: Record<string, string> } = {},
  ) {
    const payload = JSON.stringify(body);
    const timestamp = change.timestamp ?? Math.floor(Date.now() / 1000);
    const signed = tc3Sign(
      { method: 'POST', path: '/', query: '', headers: { 'content-type': 'application/json', host: '127.0.0.1' }, payload, timestamp, service: '127' },
      change.secretKey ?? fake.secretKey,
    );
    const response = await fetch(fake.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: tc3Authorization(change.secretId ?? fake.secretId, signed),
        'x-tc-action': 'SendSms',
        'x-tc-version': '2021-01-11',
        'x-tc-region': fake.region,
        'x-tc-timestamp': String(timestamp),
        ...change.headers,
      },
      body: change.sent ?? payload,
    });
    expect(response.status).toBe(200);
    return (
      (await response.json()) as { Response: { Error?: { Code: string }; SendStatusSet?: Array<{ Code: string; SerialNo: string; PhoneNumber: string }> } }
    ).Response;
  }
  const loginCode = (to: string, params = ['123456']) => ({
    PhoneNumberSet: [to],
    SmsSdkAppId: fake.sdkAppId,
    SignName: fake.signName,
    TemplateId: fake.templates.domestic.loginCode,
    TemplateParamSet: params,
  });

  it('sends and records a well-signed call, answering each number’s SerialNo', async () => {
    const answer = await call(loginCode('13800138000'));
    expect(answer.Error).toBeUndefined();
    expect(answer.SendStatusSet).toMatchObject([{ Code: 'Ok', PhoneNumber: '+8613800138000' }]);
    expect(fake.received.at(-1)).toEqual({
      phoneNumber: '+8613800138000',
      templateId: fake.templates.domestic.loginCode,
      kind: 'loginCode',
      international: false,
      params: ['123456'],
      signName: fake.signName,
      serialNo: answer.SendStatusSet![0].SerialNo,
    });
  });

  it('refuses a wrong key, an unknown SecretId, a stale timestamp and a body changed after signing, sending nothing', async () => {
    const before = fake.received.length;
    expect((await call(loginCode('+8613800138001'), { secretKey: 'not-the-key' })).Error?.Code).toBe('AuthFailure.SignatureFailure');
    expect((await call(loginCode('+8613800138001'), { secretId: 'AKIDsomeoneelse' })).Error?.Code).toBe('AuthFailure.SecretIdNotFound');
    expect((await call(loginCode('+8613800138001'), { timestamp: Math.floor(Date.now() / 1000) - 301 })).Error?.Code).toBe('AuthFailure.SignatureExpire');
    const tampered = JSON.stringify(loginCode('+8613800138002'));
    expect((await call(loginCode('+8613800138001'), { sent: tampered })).Error?.Code).toBe('AuthFailure.SignatureFailure');
    expect((await call(loginCode('+8613800138001'), { headers: { authorization: 'Bearer something' } })).Error?.Code).toBe('AuthFailure.InvalidAuthorization');
    expect(fake.received.length).toBe(before);
  });

  it('refuses another action, version or region, and another SdkAppId', async () => {
    expect((await call(loginCode('+8613800138001'), { headers: { 'x-tc-action': 'SendMultiGlobalSms' } })).Error?.Code).toBe('InvalidAction');
    expect((await call(loginCode('+8613800138001'), { headers: { 'x-tc-version': '2019-07-11' } })).Error?.Code).toBe('NoSuchVersion');
    expect((await call(loginCode('+8613800138001'), { headers: { 'x-tc-region': 'ap-beijing' } })).Error?.Code).toBe('UnsupportedRegion');
    expect((await call({ ...loginCode('+8613800138001'), SmsSdkAppId: '1400000000' })).Error?.Code).toBe('UnauthorizedOperation.SmsSdkAppIdVerifyFail');
  });

  it('refuses per number a bad number, a template of the other kind of number, a missing sign and a wrong count of parameters', async () => {
    const codeOf = async (body: Record<string, unknown>) => (await call(body)).SendStatusSet![0].Code;
    expect(await codeOf(loginCode('+86123'))).toBe('InvalidParameterValue.IncorrectPhoneNumber');
    expect(await codeOf(loginCode('+85261234567'))).toBe('UnsupportedOperation.ChineseMainlandTemplateToGlobalPhone');
    expect(await codeOf({ ...loginCode('+8613800138001'), TemplateId: fake.templates.international.loginCode })).toBe(
      'UnsupportedOperation.GlobalTemplateToChineseMainlandPhone',
    );
    expect(await codeOf({ ...loginCode('+8613800138001'), TemplateId: '999' })).toBe('FailedOperation.TemplateUnapprovedOrNotExist');
    expect(await codeOf({ ...loginCode('+8613800138001'), SignName: undefined })).toBe('FailedOperation.SignatureIncorrectOrUnapproved');
    expect(await codeOf(loginCode('+8613800138001', ['1', '2']))).toBe('FailedOperation.TemplateParamSetNotMatchApprovedTemplate');
    expect((await call({ ...loginCode('+8613800138001'), PhoneNumberSet: ['+8613800138001', '+85261234567'] })).Error?.Code).toBe(
      'UnsupportedOperation.ContainDomesticAndInternationalPhoneNumber',
    );
    // An international number takes an international template, with no sign.
    expect(await codeOf({ ...loginCode('+85261234567'), TemplateId: fake.templates.international.loginCode, SignName: undefined })).toBe('Ok');
  });

  it('answers the next call a chosen code, for the call or per number, and then as before', async () => {
    fake.failNext('FailedOperation.InsufficientBalanceInSmsPackage', 'request');
    expect((await call(loginCode('+8613800138003'))).Error?.Code).toBe('FailedOperation.InsufficientBalanceInSmsPackage');
    fake.failNext('LimitExceeded.PhoneNumberDailyLimit');
    expect((await call(loginCode('+8613800138003'))).SendStatusSet![0]).toMatchObject({ Code: 'LimitExceeded.PhoneNumberDailyLimit', SerialNo: '' });
    expect((await call(loginCode('+8613800138003'))).SendStatusSet![0].Code).toBe('Ok');
  });

  it('holds the next call without an answer', async () => {
    fake.hang();
    const requests = fake.requests;
    const held = await fetch(fake.url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(300) }).catch((error: Error) => error);
    expect(held).toBeInstanceOf(Error);
    expect(fake.requests).toBe(requests + 1);
    expect((await call(loginCode('+8613800138004'))).SendStatusSet![0].Code).toBe('Ok');
  });
});
