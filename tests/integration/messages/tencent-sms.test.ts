/**
 * Login codes by Tencent Cloud SMS (`SMS_PROVIDER=tencent`), through the real
 * app and the official SDK against a Tencent endpoint written from Tencent's
 * documents (tests/setup/fake-tencent-sms.ts), which checks every call's
 * TC3-HMAC-SHA256 signature. A mainland number gets the domestic template with
 * the sign, any other the international one, the code as the template's
 * parameter; each answer Tencent documents is answered as its refusal says
 * (429 with a wait, 400 naming the number, 503 with the line an operator's
 * alert matches, 502), as is a provider that never answers, within the
 * deadline; and no refusal counts against the day's caps of a number or an
 * address.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '#contract/errors.ts';
import { identity, verification } from '#contract/identity.ts';
import { verificationCodes } from '../../../server/db/schema.ts';
import { startApp, type TestApp } from '../api/harness.ts';
import { startFakeTencentSms, type FailureLevel, type FakeTencentSms } from '../../setup/fake-tencent-sms.ts';

/** The deadline of a call to Tencent here: production's is 5 s; a short one proves the same sooner. */
const providerTimeoutMs = 1_000;
const perAddressPerDay = 3;

let fake: FakeTencentSms;
let t: TestApp;
const logged: string[] = [];

beforeAll(async () => {
  fake = await startFakeTencentSms();
  t = await startApp(
    {
      ...fake.settings,
      PROVIDER_TIMEOUT_MS: String(providerTimeoutMs),
      CODES_PER_ADDRESS_PER_DAY: String(perAddressPerDay),
      IDENTITY_RATE_LIMIT_PER_MINUTE: '4000',
      LOG_LEVEL: 'info',
    },
    { logStream: { write: (line) => void logged.push(line) } },
  );
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

let seq = 0;
const newPhone = () => `1393${String(++seq).padStart(7, '0')}`;
const newInternationalPhone = () => `+8526${String(++seq).padStart(7, '0')}`;
const e164 = (phone: string) => (phone.startsWith('+') ? phone : `+86${phone}`);
const sentTo = (phone: string) => fake.received.filter((each) => each.phoneNumber === e164(phone));
const rowsTo = async (phone: string) => (await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.target, phone))).length;
/** Moves a number's codes two minutes back, past the wait before another code. */
const ageCodes = (phone: string) => t.app.db.execute(sql`update verification_codes set created_at = created_at - interval '2 minutes' where target = ${phone}`);

const sendSms = (app: TestApp, Phone: string, ip?: string) => app.call(identity.sendSmsCode, { body: { Phone }, ip });
const login = (Phone: string, Code: string) => t.call(identity.loginOrRegister, { body: { Phone, Code, DeviceId: `device-${Phone}` } });

/** Seconds to the next midnight in China (UTC+8), when Tencent's daily limits of a number start over. */
const secondsToChinaMidnight = () => 86_400 - ((Date.now() / 1000 + 8 * 3600) % 86_400);

describe('a login code by Tencent Cloud SMS', () => {
  it('reaches a mainland number with the domestic template, the sign and the code as its parameter, alone in its call, and logs in', async () => {
    const phone = newPhone();
    const requests = fake.requests;
    const reply = await sendSms(t, phone);
    expect(reply.status).toBe(200);
    expect(fake.requests).toBe(requests + 1);
    const [sms] = sentTo(phone);
    expect(sentTo(phone)).toHaveLength(1);
    expect(sms).toMatchObject({ templateId: fake.templates.domestic.loginCode, kind: 'loginCode', international: false, signName: fake.signName });
    expect(sms.params).toHaveLength(1);
    expect(sms.params[0]).toMatch(/^\d{6}$/);
    expect((await login(phone, sms.params[0])).body.code).toBe(200);
    // The log has Tencent's id of the message, to find it in Tencent's records, and neither the number nor the code.
    const sent = logged.filter((line) => line.includes(sms.serialNo));
    expect(sent.map((line) => JSON.parse(line) as object)).toEqual([
      expect.objectContaining({ msg: 'message sent', provider: 'tencent', kind: 'loginCode', id: sms.serialNo }),
    ]);
    expect(sent.join()).not.toContain(phone);
    expect(sent.join()).not.toContain(sms.params[0]);
  });

  it('reaches a number outside the mainland with the international template, without the sign, and logs in', async () => {
    const phone = newInternationalPhone();
    expect((await sendSms(t, phone)).status).toBe(200);
    const [sms] = sentTo(phone);
    expect(sms).toMatchObject({ templateId: fake.templates.international.loginCode, international: true, signName: undefined });
    expect((await login(phone, sms.params[0])).body.code).toBe(200);
  });
});

describe('Tencent’s refusals', () => {
  const cases: Array<{ code: string; level: FailureLevel; status: 429 | 400 | 503 | 502; retryAfter?: number | 'midnight' }> = [
    { code: 'LimitExceeded.PhoneNumberThirtySecondLimit', level: 'number', status: 429, retryAfter: 30 },
    { code: 'LimitExceeded.PhoneNumberOneHourLimit', level: 'number', status: 429, retryAfter: 3600 },
    { code: 'LimitExceeded.PhoneNumberDailyLimit', level: 'request', status: 429, retryAfter: 'midnight' },
    { code: 'LimitExceeded.PhoneNumberSameContentDailyLimit', level: 'number', status: 429, retryAfter: 'midnight' },
    { code: 'InvalidParameterValue.IncorrectPhoneNumber', level: 'request', status: 400 },
    { code: 'FailedOperation.PhoneNumberInBlacklist', level: 'number', status: 400 },
    { code: 'UnsupportedOperation.ChineseMainlandTemplateToGlobalPhone', level: 'number', status: 400 },
    { code: 'UnsupportedOperation.GlobalTemplateToChineseMainlandPhone', level: 'number', status: 400 },
    { code: 'UnsupportedOperation.ContainDomesticAndInternationalPhoneNumber', level: 'request', status: 400 },
    { code: 'FailedOperation.InsufficientBalanceInSmsPackage', level: 'number', status: 503 },
    { code: 'UnauthorizedOperation.ServiceSuspendDueToArrears', level: 'request', status: 503 },
    { code: 'FailedOperation.TemplateUnapprovedOrNotExist', level: 'number', status: 503 },
    { code: 'FailedOperation.SignatureIncorrectOrUnapproved', level: 'number', status: 503 },
    { code: 'AuthFailure.SecretIdNotFound', level: 'request', status: 503 },
    { code: 'LimitExceeded.AppDailyLimit', level: 'request', status: 503 },
    { code: 'InternalError.Timeout', level: 'request', status: 502 },
    { code: 'RequestLimitExceeded', level: 'request', status: 502 },
  ];

  it.each(cases)('$code (per $level) is answered $status, sends and counts nothing', async ({ code, level, status, retryAfter }) => {
    const phone = newPhone();
    fake.failNext(code, level);
    const reply = await sendSms(t, phone);
    expect(reply.status).toBe(status);
    if (status === 429) {
      expect(reply.body.code).toBe(ErrorCode.MessageRateLimited);
      const seconds = Number(reply.headers['retry-after']);
      if (retryAfter === 'midnight') expect(Math.abs(seconds - secondsToChinaMidnight())).toBeLessThan(5);
      else expect(seconds).toBe(retryAfter);
    }
    if (status === 400) {
      expect(reply.body.code).toBe(ErrorCode.RecipientUnreachable);
      expect(reply.body.message).toContain(phone);
    }
    if (status === 503) {
      expect(reply.body.code).toBe(ErrorCode.MessagingUnavailable);
      expect(logged.some((line) => line.includes('message provider refused') && line.includes(code))).toBe(true);
    }
    if (status === 502) expect(reply.body.code).toBe(ErrorCode.MessageNotSent);
    expect(sentTo(phone)).toEqual([]);
    expect(await rowsTo(phone)).toBe(0);
    // Nothing stands in the way of the next code: no wait, no count.
    expect((await sendSms(t, phone)).status).toBe(200);
  });

  it('a Tencent that never answers is given up within the deadline, and counts nothing', async () => {
    const phone = newPhone();
    fake.hang();
    const began = Date.now();
    const reply = await sendSms(t, phone);
    const tookMs = Date.now() - began;
    expect(reply.status).toBe(502);
    expect(reply.body.code).toBe(ErrorCode.MessageNotSent);
    expect(tookMs).toBeGreaterThanOrEqual(providerTimeoutMs - 50);
    expect(tookMs).toBeLessThan(providerTimeoutMs + 1_500);
    expect(await rowsTo(phone)).toBe(0);
    expect((await sendSms(t, phone)).status).toBe(200);
  });
});

describe('the day’s caps', () => {
  /** One refusal of each kind, then a Tencent that does not answer, each for `send`. */
  async function refuseEveryWay(send: () => ReturnType<typeof sendSms>) {
    const ways: Array<[string, FailureLevel]> = [
      ['LimitExceeded.PhoneNumberOneHourLimit', 'number'],
      ['InvalidParameterValue.IncorrectPhoneNumber', 'request'],
      ['FailedOperation.InsufficientBalanceInSmsPackage', 'number'],
      ['InternalError.Timeout', 'request'],
    ];
    for (const [code, level] of ways) {
      fake.failNext(code, level);
      expect((await send()).status, code).not.toBe(200);
    }
    fake.hang();
    expect((await send()).status).toBe(502);
  }

  it(`count no refusal against a number’s ${verification.dailyPerTarget} codes a day: the last one is still sent`, async () => {
    const phone = newPhone();
    for (let sent = 1; sent < verification.dailyPerTarget; sent++) {
      expect((await sendSms(t, phone)).status).toBe(200);
      await ageCodes(phone);
    }
    await refuseEveryWay(() => sendSms(t, phone));
    expect((await sendSms(t, phone)).status).toBe(200);
    await ageCodes(phone);
    const over = await sendSms(t, phone);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe(ErrorCode.TooManyRequests);
    expect(sentTo(phone)).toHaveLength(verification.dailyPerTarget);
  });

  it(`count no refusal against an address’s ${perAddressPerDay} codes a day (CODES_PER_ADDRESS_PER_DAY): the last one is still sent`, async () => {
    const ip = '198.51.100.20';
    for (let sent = 1; sent < perAddressPerDay; sent++) expect((await sendSms(t, newPhone(), ip)).status).toBe(200);
    const last = newPhone();
    await refuseEveryWay(() => sendSms(t, last, ip));
    expect((await sendSms(t, last, ip)).status).toBe(200);
    const over = await sendSms(t, newPhone(), ip);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe(ErrorCode.TooManyRequests);
  });
});

describe('settings that are wrong', () => {
  let wrong: TestApp;
  const wrongLogged: string[] = [];
  beforeAll(async () => {
    // A secret key that is not the account's, and no international templates.
    const { TENCENT_SMS_INTERNATIONAL_TEMPLATES: _none, ...settings } = fake.settings;
    wrong = await startApp(
      { ...settings, TENCENT_SMS_SECRET_KEY: 'not-the-secret-key', LOG_LEVEL: 'warn' },
      { logStream: { write: (line) => void wrongLogged.push(line) } },
    );
  });
  afterAll(() => wrong?.close());

  it('a wrong secret key is refused by Tencent’s signature check and answered 503, with the line an operator’s alert matches', async () => {
    const phone = newPhone();
    const reply = await sendSms(wrong, phone);
    expect(reply.status).toBe(503);
    expect(reply.body.code).toBe(ErrorCode.MessagingUnavailable);
    expect(wrongLogged.some((line) => line.includes('message provider refused: tencent AuthFailure.SignatureFailure'))).toBe(true);
    expect(sentTo(phone)).toEqual([]);
  });

  it('a number outside the mainland, with no international templates, is refused 400 naming it, without asking Tencent', async () => {
    const phone = newInternationalPhone();
    const requests = fake.requests;
    const reply = await sendSms(wrong, phone);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(ErrorCode.RecipientUnreachable);
    expect(reply.body.message).toContain(phone);
    expect(fake.requests).toBe(requests);
  });
});
