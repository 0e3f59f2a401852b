/**
 * An SMS or e-mail gateway that fails (500), resets the connection or answers
 * after 30 s, in front of the real gateway client: the customer hears within a
 * few seconds, in their language, that nothing was sent; the failed send
 * counts against no cap and spends no proof of work; the code sent before it
 * still works and the one the gateway took too late never does; a change that
 * waited on an e-mail keeps its codes; a security notice that cannot be sent
 * does not fail the change it reports. Sends racing for the last place under a
 * cap let exactly that many through.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCalls } from '#contract/account.ts';
import { ErrorCode } from '#contract/errors.ts';
import { identity, verification } from '#contract/identity.ts';
import { emailConfirmations, verificationCodes } from '../../../server/db/schema.ts';
import { message } from '../../../server/i18n/messages.ts';
import { faultyProxy, type Fault, type FaultyProxy } from '../../faulty-proxy.ts';
import { solvedProof } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';

const secret = 'message-faults-gateway-secret';
const perAddressPerDay = 3;

/** The gateway's double: it takes every message with the secret and keeps it, as a phone or mailbox receives it. */
const received: Array<{ to: string; text: string; kind: string; params: Record<string, string>; locale: string }> = [];
const gateway = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    if (request.headers.authorization !== `Bearer ${secret}`) return void response.writeHead(401).end();
    received.push(JSON.parse(body) as (typeof received)[number]);
    response.writeHead(204).end();
  });
});

/** The deadline of the calls to the gateways here. */
const providerTimeoutMs = 2_500;
let t: TestApp;
let proxy: FaultyProxy;

beforeAll(async () => {
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  proxy = await faultyProxy(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}`);
  t = await startApp({
    SMS_PROVIDER: 'http',
    SMS_GATEWAY_URL: `${proxy.origin}/sms`,
    SMS_GATEWAY_SECRET: secret,
    EMAIL_PROVIDER: 'http',
    EMAIL_GATEWAY_URL: `${proxy.origin}/email`,
    EMAIL_GATEWAY_SECRET: secret,
    CODES_PER_ADDRESS_PER_DAY: String(perAddressPerDay),
    IDENTITY_RATE_LIMIT_PER_MINUTE: '4000',
    CODE_CHALLENGE_WORK: '50',
    // Production's is 5 s (the deployment test waits it out); a shorter one proves the same here sooner.
    PROVIDER_TIMEOUT_MS: String(providerTimeoutMs),
  });
});
afterAll(async () => {
  await t.close();
  await proxy.close();
  gateway.closeAllConnections();
  await new Promise((resolve) => gateway.close(resolve));
});

let seq = 0;
const newPhone = () => `1393${String(++seq).padStart(7, '0')}`;
const codesTo = (to: string) => received.filter((each) => each.to === to).map((each) => /\d{6}/.exec(each.text)![0]);
const rowsTo = async (target: string) => (await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.target, target))).length;
const ageCodes = (target: string) =>
  t.app.db.execute(sql`update verification_codes set created_at = created_at - interval '2 minutes' where target = ${target}`);

/** Whether `text` is the message `key` in `locale`, with whatever request id it names. */
function expectSaid(text: string, locale: 'ja' | 'ru' | 'en', key: 'smsNotSent' | 'emailNotSent', what: string) {
  const [before, after] = message(locale, key, { id: '\u0000' }).split('\u0000');
  expect(text.startsWith(before) && text.endsWith(after), `${what}: ${text}`).toBe(true);
}

/** Runs `work` with the gateway's link in `fault`; answers what it answered and how long it took. */
async function withFault<T>(fault: Fault | null, work: () => Promise<T>): Promise<T & { tookMs: number }> {
  proxy.fault = fault;
  const began = Date.now();
  try {
    return { ...(await work()), tookMs: Date.now() - began };
  } finally {
    proxy.fault = null;
  }
}

const sendSms = (Phone: string, options: { ip?: string; locale?: string; proof?: string } = {}) =>
  t.call(identity.sendSmsCode, { body: { Phone, ProofOfWork: options.proof }, ip: options.ip, locale: options.locale });

const login = (Phone: string, Code: string) => t.call(identity.loginOrRegister, { body: { Phone, Code, DeviceId: `device-${Phone}` } });

describe('the generic gateway', () => {
  it('gets the message’s kind, its parameters and the locale beside the text as the reader reads it', async () => {
    const phone = newPhone();
    expect((await sendSms(phone, { locale: 'ru' })).status).toBe(200);
    const [sent] = received.filter((each) => each.to === phone);
    expect(sent).toMatchObject({ kind: 'loginCode', locale: 'ru', params: { code: expect.stringMatching(/^\d{6}$/) } });
    expect(sent.text).toBe(message('ru', 'smsSign') + message('ru', 'smsText', { code: sent.params.code }));
  });
});

describe('an SMS gateway that fails', () => {
  it('says within a few seconds that nothing was sent, counts nothing, and the code sent before still works', async () => {
    const phone = newPhone();
    expect((await sendSms(phone)).status).toBe(200);
    const [first] = codesTo(phone);
    for (const fault of ['fail', 'reset', 'slow'] as const) {
      await ageCodes(phone);
      const reply = await withFault(fault, () => sendSms(phone, { locale: 'ja' }));
      expect(reply.status, fault).toBe(502);
      expect(reply.body.code, fault).toBe(ErrorCode.MessageNotSent);
      expectSaid(reply.body.message, 'ja', 'smsNotSent', fault);
      // PROVIDER_TIMEOUT_MS for the one that crawls; at once for the others.
      expect(reply.tookMs, fault).toBeLessThan(fault === 'slow' ? providerTimeoutMs + 2_000 : 2_000);
      expect(await rowsTo(phone), fault).toBe(1);
    }
    // The gateway that crawled delivered its code after all: the customer was told it was not sent, and it does not work.
    const late = codesTo(phone).at(-1)!;
    expect(codesTo(phone)).toHaveLength(2);
    if (late !== first) expect((await login(phone, late)).body.code).toBe(ErrorCode.CodeInvalid);
    expect((await login(phone, first)).body.code).toBe(200);
  });

  it(`leaves the day's caps untouched: ${verification.dailyPerTarget + 2} failed sends to a number, then it gets its code`, async () => {
    const phone = newPhone();
    for (let i = 0; i < verification.dailyPerTarget + 2; i++) {
      expect((await withFault('fail', () => sendSms(phone, { ip: '198.51.100.7' }))).status).toBe(502);
    }
    expect(await rowsTo(phone)).toBe(0);
    expect((await sendSms(phone, { ip: '198.51.100.7' })).status).toBe(200);
    expect((await login(phone, codesTo(phone)[0])).body.code).toBe(200);
  });

  it(`lets exactly ${perAddressPerDay} of 8 racing sends from one address through, and none of 8 that fail count`, async () => {
    const ip = '198.51.100.8';
    const phones = Array.from({ length: 8 }, newPhone);
    const failed = await withFault('fail', async () => ({ replies: await Promise.all(phones.map((phone) => sendSms(phone, { ip }))) }));
    // Each failed, or found the cap held by the sends in flight; none was sent.
    expect(failed.replies.every((reply) => reply.status === 502 || reply.status === 429)).toBe(true);
    expect(failed.replies.some((reply) => reply.status === 502)).toBe(true);
    expect(await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.ip, ip))).toEqual([]);

    const replies = await Promise.all(phones.map((phone) => sendSms(phone, { ip })));
    expect(replies.map((reply) => reply.status).sort()).toEqual([...Array(perAddressPerDay).fill(200), ...Array(8 - perAddressPerDay).fill(429)]);
    expect(await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.ip, ip))).toHaveLength(perAddressPerDay);
  });
});

describe('an e-mail gateway that fails', () => {
  it('says so for a login code by e-mail, in the reader’s language, and counts nothing', async () => {
    const email = `fault-${++seq}@beacon.test`;
    for (const fault of ['fail', 'reset'] as const) {
      const reply = await withFault(fault, () => t.call(identity.sendEmailCode, { body: { Email: email }, locale: 'ru' }));
      expect(reply.status, fault).toBe(502);
      expectSaid(reply.body.message, 'ru', 'emailNotSent', fault);
    }
    expect(await rowsTo(email)).toBe(0);
    expect((await t.call(identity.sendEmailCode, { body: { Email: email } })).status).toBe(200);
  });

  it('leaves no link and the codes unused when the confirmation link cannot be sent, so the same codes work again', async () => {
    const phone = newPhone();
    expect((await sendSms(phone)).status).toBe(200);
    const { AccessToken: token } = (await login(phone, codesTo(phone)[0])).body.data;
    await ageCodes(phone);
    expect((await t.call(accountCalls.sendOwnCode, { token, body: { Channel: 'sms' } })).status).toBe(200);
    const Code = codesTo(phone).at(-1)!;
    const Email = `bound-${++seq}@beacon.test`;
    const failed = await withFault('fail', () => t.call(accountCalls.bindEmail, { token, body: { Email, Code }, locale: 'ja' }));
    expect(failed.status).toBe(502);
    expectSaid(failed.body.message, 'ja', 'emailNotSent', 'bind');
    expect(await t.app.db.select().from(emailConfirmations).where(eq(emailConfirmations.email, Email))).toEqual([]);
    const again = await t.call(accountCalls.bindEmail, { token, body: { Email, Code } });
    expect(again.body.code).toBe(200);
    expect(received.filter((each) => each.to === Email)).toHaveLength(1);
  });
});

describe('a security notice that cannot be sent', () => {
  it('does not fail the change it reports, and does not hold it past the deadline', async () => {
    const phone = newPhone();
    expect((await sendSms(phone)).status).toBe(200);
    const { AccessToken: token } = (await login(phone, codesTo(phone)[0])).body.data;
    await ageCodes(phone);
    expect((await t.call(accountCalls.sendOwnCode, { token, body: { Channel: 'sms' } })).status).toBe(200);
    const first = { Password: 'first password 1', Code: codesTo(phone).at(-1)! };
    const set = await withFault('fail', () => t.call(accountCalls.setPassword, { token, body: first }));
    expect(set.body.code).toBe(200);
    const changed = await withFault('slow', () =>
      t.call(accountCalls.setPassword, { token, body: { Password: 'second password 2', Current: first.Password } }),
    );
    expect(changed.body.code).toBe(200);
    expect(changed.tookMs).toBeLessThan(providerTimeoutMs + 2_000);
  });
});

describe('a proof of work spent on a code that could not be sent', () => {
  it('is given back: the same solution buys the code once the gateway works', async () => {
    const strict = await startApp({
      SMS_PROVIDER: 'http',
      SMS_GATEWAY_URL: `${proxy.origin}/sms`,
      SMS_GATEWAY_SECRET: secret,
      CODE_CHALLENGE_CODES_PER_HOUR: '0',
      CODE_CHALLENGE_WORK: '50',
    });
    try {
      const phone = newPhone();
      const send = (proof?: string) => strict.call(identity.sendSmsCode, { body: { Phone: phone, ProofOfWork: proof } });
      expect((await send()).body.code).toBe(ErrorCode.ProofOfWorkRequired);
      const proof = await solvedProof(strict);
      expect((await withFault('fail', () => send(proof))).status).toBe(502);
      expect((await send(proof)).status).toBe(200);
      // Used once it bought a code that was sent.
      await strict.app.db.execute(sql`update verification_codes set created_at = created_at - interval '2 minutes' where target = ${phone}`);
      expect((await send(proof)).body.code).toBe(ErrorCode.ProofOfWorkInvalid);
    } finally {
      await strict.close();
    }
  });
});
