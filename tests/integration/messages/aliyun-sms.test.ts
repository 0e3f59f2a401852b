/**
 * Login codes by Aliyun SMS (`SMS_PROVIDER=aliyun`) through the real app and
 * Alibaba Cloud's SDK, against the fake endpoint written from Aliyun's public
 * documents (tests/setup/fake-aliyun-sms.ts), which checks the ACS3-HMAC-SHA256
 * signature, the sign, the template and its variables. A mainland number gets
 * the domestic template, any other the international one; each of Aliyun's
 * refusals is answered as plugins/errors.ts `fromMessenger` says (429 with a
 * wait, 400 naming the number, 503 and an operator's log line, 502); every
 * SMS kind goes with its own template and parameters by name; a provider
 * that does not answer is given up within PROVIDER_TIMEOUT_MS; and no refusal
 * counts against the customer's caps.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '#contract/errors.ts';
import { identity, verification } from '#contract/identity.ts';
import { loadConfig } from '../../../server/config.ts';
import { verificationCodes } from '../../../server/db/schema.ts';
import { aliyunSmsMessenger } from '../../../server/messages/aliyun-sms.ts';
import { messageKinds, smsKinds, type OutgoingMessage } from '../../../server/messages/kinds.ts';
import { MessengerError } from '../../../server/messages/messenger.ts';
import { faultyProxy } from '../../faulty-proxy.ts';
import { startApp, type TestApp } from '../api/harness.ts';
import { startFakeAliyunSms, type FakeAliyunSms } from '../../setup/fake-aliyun-sms.ts';

/** The deadline of a call to Aliyun here: short, so the provider that never answers is given up on soon. */
const providerTimeoutMs = 1_000;
const perAddressPerDay = 3;
const limits = { IDENTITY_RATE_LIMIT_PER_MINUTE: '4000', CODES_PER_ADDRESS_PER_DAY: String(perAddressPerDay), PROVIDER_TIMEOUT_MS: String(providerTimeoutMs) };

let fake: FakeAliyunSms;
let t: TestApp;
/** A shop set up wrong: a secret that is not its key's, and no international templates. */
let misconfigured: TestApp;
const logLines: string[] = [];
const misconfiguredLog: string[] = [];

beforeAll(async () => {
  fake = await startFakeAliyunSms();
  [t, misconfigured] = await Promise.all([
    startApp({ ...fake.settings(), ...limits, LOG_LEVEL: 'error' }, { logStream: { write: (line) => void logLines.push(line) } }),
    startApp(
      { ...fake.settings({ international: false }), ALIYUN_SMS_ACCESS_KEY_SECRET: 'not-the-secret-of-this-key', ...limits, LOG_LEVEL: 'error' },
      { logStream: { write: (line) => void misconfiguredLog.push(line) } },
    ),
  ]);
});
afterAll(async () => {
  await t?.close();
  await misconfigured?.close();
  await fake?.close();
});

let seq = 0;
const newPhone = () => `1395${String(++seq).padStart(7, '0')}`;
const sendSms = (Phone: string, options: { app?: TestApp; ip?: string; locale?: string } = {}) =>
  (options.app ?? t).call(identity.sendSmsCode, { body: { Phone }, ip: options.ip, locale: options.locale });
const login = (Phone: string, Code: string) => t.call(identity.loginOrRegister, { body: { Phone, Code, DeviceId: `device-${Phone}` } });
const deliveredTo = (phoneNumber: string) => fake.received.filter((each) => each.phoneNumber === phoneNumber);
const rowsTo = async (target: string) => (await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.target, target))).length;

describe('a login code by Aliyun SMS', () => {
  it('reaches a mainland number with the domestic template and {"code"}, and logs in', async () => {
    const phone = newPhone();
    expect((await sendSms(phone)).status).toBe(200);
    const [sms] = deliveredTo(phone);
    expect(sms).toMatchObject({ signName: fake.signName, templateCode: fake.templates.domestic.loginCode });
    expect(Object.keys(sms.params)).toEqual(['code']);
    expect(sms.params.code).toMatch(/^\d{6}$/);
    expect((await login(phone, sms.params.code)).body.code).toBe(200);
  });

  it('reaches a mainland number written with +86 as Aliyun writes it, without the country code', async () => {
    const bare = newPhone();
    expect((await sendSms(`+86${bare}`)).status).toBe(200);
    expect(deliveredTo(bare)).toHaveLength(1);
  });

  it('reaches a number outside the mainland with the international template, as country code and number', async () => {
    const phone = `+8526123${String(++seq).padStart(4, '0')}`;
    expect((await sendSms(phone)).status).toBe(200);
    const [sms] = deliveredTo(phone.slice(1));
    expect(sms).toMatchObject({ templateCode: fake.templates.international.loginCode, params: { code: expect.stringMatching(/^\d{6}$/) } });
    expect((await login(phone, sms.params.code)).body.code).toBe(200);
  });

  it('is refused 400 naming the number, without calling Aliyun, for a number outside the mainland when no international templates are set', async () => {
    const calls = fake.calls;
    const phone = '+85261239999';
    const reply = await sendSms(phone, { app: misconfigured, locale: 'ja' });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(ErrorCode.RecipientUnreachable);
    expect(reply.body.message).toContain(phone);
    expect(fake.calls).toBe(calls);
  });

  it('is refused 400 naming the number when Aliyun finds it is no mainland mobile (given without its +)', async () => {
    const phone = '85261238888';
    const reply = await sendSms(phone);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(ErrorCode.RecipientUnreachable);
    expect(reply.body.message).toContain(phone);
    expect(await rowsTo(phone)).toBe(0);
  });
});

describe('every SMS the product sends', () => {
  it('goes with its kind’s template and its parameters by name, and Aliyun’s BizId is its id', async () => {
    const messenger = aliyunSmsMessenger(loadConfig({ NODE_ENV: 'test', ...fake.settings() }));
    for (const kind of smsKinds) {
      const phone = newPhone();
      const params = Object.fromEntries(messageKinds[kind].params.map((name, index) => [name, `${name}-${index}`]));
      const { id } = await messenger.send({ to: phone, kind, params, locale: 'zh-CN' } as OutgoingMessage);
      expect(deliveredTo(phone), kind).toEqual([expect.objectContaining({ templateCode: fake.templates.domestic[kind], params, bizId: id })]);
    }
  });
});

describe('Aliyun’s refusals', () => {
  const cases = [
    { code: 'isv.BUSINESS_LIMIT_CONTROL', status: 429, error: ErrorCode.MessageRateLimited },
    { code: 'isv.DAY_LIMIT_CONTROL', status: 429, error: ErrorCode.MessageRateLimited },
    { code: 'Throttling.User', status: 429, error: ErrorCode.MessageRateLimited },
    { code: 'isv.MOBILE_NUMBER_ILLEGAL', status: 400, error: ErrorCode.RecipientUnreachable },
    { code: 'isv.MOBILE_COUNT_OVER_LIMIT', status: 400, error: ErrorCode.RecipientUnreachable },
    { code: 'isv.AMOUNT_NOT_ENOUGH', status: 503, error: ErrorCode.MessagingUnavailable },
    { code: 'isv.OUT_OF_SERVICE', status: 503, error: ErrorCode.MessagingUnavailable },
    { code: 'isv.SMS_TEMPLATE_ILLEGAL', status: 503, error: ErrorCode.MessagingUnavailable },
    { code: 'isv.SMS_SIGNATURE_ILLEGAL', status: 503, error: ErrorCode.MessagingUnavailable },
    { code: 'isv.ACCOUNT_ABNORMAL', status: 503, error: ErrorCode.MessagingUnavailable },
    { code: 'InvalidAccessKeyId.NotFound', status: 503, error: ErrorCode.MessagingUnavailable },
    { code: 'isp.SYSTEM_ERROR', status: 502, error: ErrorCode.MessageNotSent },
  ] as const;

  it.each(cases)('$code is answered $status, and nothing is counted', async ({ code, status, error }) => {
    const phone = newPhone();
    const logged = logLines.length;
    fake.failNext(code);
    const reply = await sendSms(phone, { locale: 'ru' });
    expect(reply.status).toBe(status);
    expect(reply.body.code).toBe(error);
    if (status === 429) expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
    if (status === 400 || status === 429) expect(reply.body.message).toContain(phone);
    const refused = logLines.slice(logged).filter((line) => line.includes('message provider refused'));
    expect(refused.map((line) => JSON.parse(line).providerCode)).toEqual(status === 503 ? [code] : []);
    expect(await rowsTo(phone)).toBe(0);
    expect(deliveredTo(phone)).toEqual([]);
  });

  it('waits as long as the limit Aliyun names: a minute for its per-minute limit, until Beijing’s midnight for the day’s', async () => {
    fake.failNext('isv.BUSINESS_LIMIT_CONTROL');
    expect((await sendSms(newPhone())).headers['retry-after']).toBe('60');
    fake.failNext('isv.DAY_LIMIT_CONTROL');
    const wait = Number((await sendSms(newPhone())).headers['retry-after']);
    const beijing = new Date(Date.now() + 8 * 3_600_000);
    const untilMidnight = 86_400 - (beijing.getUTCHours() * 3600 + beijing.getUTCMinutes() * 60 + beijing.getUTCSeconds());
    expect(Math.abs(wait - untilMidnight)).toBeLessThanOrEqual(2);
  });

  it('refuses a wrong secret by its signature check: 503 and the operator’s log line, which does not show the secret', async () => {
    const phone = newPhone();
    const logged = misconfiguredLog.length;
    const reply = await sendSms(phone, { app: misconfigured });
    expect(reply.status).toBe(503);
    expect(reply.body.code).toBe(ErrorCode.MessagingUnavailable);
    expect(misconfiguredLog.slice(logged).map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ msg: 'message provider refused: aliyun SignatureDoesNotMatch', provider: 'aliyun', providerCode: 'SignatureDoesNotMatch' }),
    ]);
    expect(deliveredTo(phone)).toEqual([]);
    expect(misconfiguredLog.join('\n')).not.toContain('not-the-secret-of-this-key');
  });
});

describe('an Aliyun that does not answer', () => {
  it(`is given up within ${providerTimeoutMs} ms (502), counts nothing, and the code it delivers late never works`, async () => {
    const phone = newPhone();
    fake.hang();
    const began = Date.now();
    const reply = await sendSms(phone);
    const tookMs = Date.now() - began;
    fake.release();
    expect(reply.status).toBe(502);
    expect(reply.body.code).toBe(ErrorCode.MessageNotSent);
    expect(tookMs).toBeLessThan(providerTimeoutMs + 1_000);
    expect(await rowsTo(phone)).toBe(0);
    const [late] = deliveredTo(phone);
    expect((await login(phone, late.params.code)).body.code).toBe(ErrorCode.CodeInvalid);
  });

  it('nor one that answers what is not Aliyun’s protocol, or drops the connection: unreachable', async () => {
    const proxy = await faultyProxy(fake.url);
    try {
      const config = loadConfig({ NODE_ENV: 'test', ...fake.settings(), ALIYUN_SMS_ENDPOINT: proxy.origin, PROVIDER_TIMEOUT_MS: String(providerTimeoutMs) });
      const messenger = aliyunSmsMessenger(config);
      for (const fault of ['garbage', 'reset', 'fail'] as const) {
        proxy.fault = fault;
        const sending = messenger.send({ to: '13950000000', kind: 'loginCode', params: { code: '123456' }, locale: 'en' });
        await expect(sending, fault).rejects.toBeInstanceOf(MessengerError);
        await expect(sending, fault).rejects.toMatchObject({ refusal: 'unreachable', to: '13950000000', providerCode: null });
      }
    } finally {
      await proxy.close();
    }
  });
});

describe('the daily caps, after refusals', () => {
  it(`are untouched: with ${perAddressPerDay} codes a day from an address, refusals of every kind between them leave the last place free`, async () => {
    const ip = '198.51.100.45';
    for (let i = 0; i < perAddressPerDay - 1; i++) expect((await sendSms(newPhone(), { ip })).status).toBe(200);
    const refused = newPhone();
    for (const code of ['isv.BUSINESS_LIMIT_CONTROL', 'isv.MOBILE_NUMBER_ILLEGAL', 'isv.AMOUNT_NOT_ENOUGH', 'isp.SYSTEM_ERROR']) {
      fake.failNext(code);
      expect((await sendSms(refused, { ip })).status).not.toBe(200);
    }
    // The last place under the cap is still free, and then the cap holds.
    expect((await sendSms(refused, { ip })).status).toBe(200);
    expect((await login(refused, deliveredTo(refused)[0].params.code)).body.code).toBe(200);
    const over = await sendSms(newPhone(), { ip });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe(ErrorCode.TooManyRequests);
  });

  it(`are untouched for a number: ${verification.dailyPerTarget} refused sends to it, then it gets its code`, async () => {
    const phone = newPhone();
    for (let i = 0; i < verification.dailyPerTarget; i++) {
      fake.failNext(i % 2 ? 'isv.BUSINESS_LIMIT_CONTROL' : 'isv.OUT_OF_SERVICE');
      expect((await sendSms(phone)).status).not.toBe(200);
    }
    expect(await rowsTo(phone)).toBe(0);
    expect((await sendSms(phone)).status).toBe(200);
    expect((await login(phone, deliveredTo(phone)[0].params.code)).body.code).toBe(200);
  });
});
