/**
 * Desktop sign-in approval, played as the desktop client plays it, on PGlite
 * and (in the scale-out suite) on PostgreSQL: start, poll, approve or refuse
 * on the site, tokens handed out once — also when the calls race — and the
 * codes' limits.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCalls, deviceLogin } from '#contract/device-login.ts';
import { ErrorCode } from '#contract/errors.ts';
import { identity } from '#contract/identity.ts';
import { loginEvents } from '../../../server/db/schema.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { loginBySms } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;
const newPhone = () => `1350000${String(++phoneSeq).padStart(4, '0')}`;

beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const smsLogin = () => loginBySms(t, newPhone(), 'browser-device-1');

/** The desktop client asks to be signed in. */
async function start(ip?: string) {
  const response = await t.call(deviceCalls.start, { body: { DeviceId: 'desktop-device-1', DeviceName: 'GAMING-PC', System: 'Windows 11', Lang: 'ja' }, ip });
  expect(response.body.code).toBe(200);
  return response.body.data;
}

/** Lets the next poll through at once, as if the client had waited its interval. */
const waitInterval = () => t.app.db.execute(sql`update device_authorizations set last_polled_at = last_polled_at - interval '1 minute'`);

async function poll(DeviceCode: string) {
  await waitInterval();
  return (await t.call(deviceCalls.poll, { body: { DeviceCode } })).body;
}

describe('the desktop client', () => {
  it('gets a user code, the page to approve it at and its QR code; waits; then gets its tokens once', async () => {
    const request = await start();
    expect(request.UserCode).toMatch(new RegExp(`^[${deviceLogin.userCodeAlphabet}]{4}-[${deviceLogin.userCodeAlphabet}]{4}$`));
    expect(request.VerificationUriComplete).toBe(`http://localhost:4321/ja/account/login?device=${request.UserCode}`);
    expect(request.QrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(request).toMatchObject({ ExpiresIn: deviceLogin.lifetimeMs / 1000, Interval: deviceLogin.intervalSeconds });

    expect((await t.call(deviceCalls.poll, { body: { DeviceCode: request.DeviceCode } })).body.code).toBe(ErrorCode.DeviceAuthorizationPending);
    // Again at once: too fast.
    expect((await t.call(deviceCalls.poll, { body: { DeviceCode: request.DeviceCode } })).body).toMatchObject({
      code: ErrorCode.DeviceSlowDown,
      message: 'Checking too often. Please wait a few seconds between checks.',
    });

    const approver = await smsLogin();
    const typed = request.UserCode.toLowerCase().replace('-', '');
    const shown = await t.call(deviceCalls.describe, { params: { userCode: typed }, token: approver.AccessToken });
    expect(shown.body.data).toMatchObject({ UserCode: request.UserCode, Device: 'GAMING-PC · Windows 11' });
    const decided = await t.call(deviceCalls.decide, { body: { UserCode: typed, Approve: true }, token: approver.AccessToken, locale: 'ru' });
    expect(decided.body).toMatchObject({
      code: 200,
      data: { Approved: true },
      message: 'Вход разрешён. Настольное приложение сейчас выполнит вход; эту страницу можно закрыть.',
    });

    const signedIn = await poll(request.DeviceCode);
    expect(signedIn).toMatchObject({ code: 200, data: { User: { Id: approver.User.Id } } });
    const sessions = await t.call(identity.sessions, { token: signedIn.data.AccessToken });
    expect(sessions.body.data.find((session) => session.Current)).toMatchObject({ Device: 'GAMING-PC · Windows 11' });
    expect((await poll(request.DeviceCode)).code).toBe(ErrorCode.DeviceCodeExpired);
  });

  it('hears a refusal once, then that the code is spent', async () => {
    const request = await start();
    const person = await smsLogin();
    expect((await t.call(deviceCalls.decide, { body: { UserCode: request.UserCode, Approve: false }, token: person.AccessToken })).body.data).toEqual({
      Approved: false,
    });
    expect((await poll(request.DeviceCode)).code).toBe(ErrorCode.DeviceAccessDenied);
    expect((await poll(request.DeviceCode)).code).toBe(ErrorCode.DeviceCodeExpired);
  });

  it('hears that an expired request, or an unknown code, is expired; the site no longer finds it', async () => {
    const request = await start();
    const person = await smsLogin();
    await t.app.db.execute(sql`update device_authorizations set expires_at = now() - interval '1 second' where user_code = ${request.UserCode}`);
    expect((await poll(request.DeviceCode)).code).toBe(ErrorCode.DeviceCodeExpired);
    expect((await t.call(deviceCalls.poll, { body: { DeviceCode: 'made-up' } })).body.code).toBe(ErrorCode.DeviceCodeExpired);
    const shown = await t.call(deviceCalls.describe, { params: { userCode: request.UserCode }, token: person.AccessToken });
    expect(shown.status).toBe(404);
    expect((await t.call(deviceCalls.decide, { body: { UserCode: request.UserCode, Approve: true }, token: person.AccessToken })).status).toBe(404);
  });

  it('may start a few requests a minute from one address', async () => {
    const ip = '10.250.0.1';
    const answers = await Promise.all(
      Array.from({ length: 7 }, () =>
        t.call(deviceCalls.start, { body: { DeviceId: 'desktop-device-1', DeviceName: 'PC' }, ip }).then((response) => response.status),
      ),
    );
    expect(answers.filter((status) => status === 200)).toHaveLength(Math.floor(t.app.config.IDENTITY_RATE_LIMIT_PER_MINUTE / 4));
    expect(answers.filter((status) => status === 429).length).toBeGreaterThan(0);
  });
});

describe('races', () => {
  it('decides a request once when approval and refusal race, from two users', async () => {
    const request = await start();
    const [one, two] = await Promise.all([smsLogin(), smsLogin()]);
    const answers = await Promise.all([
      t.call(deviceCalls.decide, { body: { UserCode: request.UserCode, Approve: true }, token: one.AccessToken }),
      t.call(deviceCalls.decide, { body: { UserCode: request.UserCode, Approve: false }, token: two.AccessToken }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
  });

  it('hands out the tokens of an approved request once, however many polls race', async () => {
    const request = await start();
    const person = await smsLogin();
    await t.call(deviceCalls.decide, { body: { UserCode: request.UserCode, Approve: true }, token: person.AccessToken });
    await waitInterval();
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.call(deviceCalls.poll, { body: { DeviceCode: request.DeviceCode } })));
    expect(answers.filter((answer) => answer.body.code === 200)).toHaveLength(1);
    const [{ logins }] = await t.app.db
      .select({ logins: count() })
      .from(loginEvents)
      .where(and(eq(loginEvents.userId, person.User.Id), eq(loginEvents.method, 'device')));
    expect(logins).toBe(1);
  });
});

describe('authentication', () => {
  it.each([
    ['describe', deviceCalls.describe, { params: { userCode: 'BCDF-GHJK' } }],
    ['decide', deviceCalls.decide, { body: { UserCode: 'BCDF-GHJK', Approve: true } }],
  ] as const)('%s refuses no token, an expired token and a revoked token with 401', (_, route, options) =>
    expectBadTokensRefused(t, route, options, async () => {
      const login = await smsLogin();
      return { token: login.AccessToken, userId: login.User.Id };
    }),
  );
});
