import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '#contract/errors.ts';
import { identity, lifetimes, support, system, verification } from '#contract/identity.ts';
import { pluginCalls } from '#contract/plugins.ts';
import { verifyToken } from '../../../server/crypto/signed.ts';
import { externalAccounts, proofOfWorkSolutions, users, verificationCodes } from '../../../server/db/schema.ts';
import { hashPassword } from '../../../server/modules/identity/passwords.ts';
import { dictionary, type LocaleCode } from '../../../src/lib/editorial/content-files.ts';
import * as codes from './codes.ts';
import { startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;
/** A phone number no other test uses, so limits never leak between tests. */
const newPhone = () => `1390000${String(++phoneSeq).padStart(4, '0')}`;
const device = 'test-device-0001';

const lastCode = (to: string) => codes.lastCode(t, to);
const ageCodes = (target: string) => codes.ageCodes(t, target);

async function login(phone = newPhone()) {
  expect((await t.call(identity.sendSmsCode, { body: { Phone: phone } })).status).toBe(200);
  const response = await t.call(identity.loginOrRegister, { body: { Phone: phone, Code: await lastCode(phone), DeviceId: device } });
  expect(response.body.code).toBe(200);
  return { phone, ...response.body.data };
}

beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('SMS codes', () => {
  it('sends a 6-digit code and says so in the user language', async () => {
    const phone = newPhone();
    const response = await t.call(identity.sendSmsCode, { body: { Phone: phone } });
    expect(response.body).toEqual({ code: 200, message: 'SMS sent successfully.', data: null });
    expect(await lastCode(phone)).toMatch(/^\d{6}$/);
    const ja = await t.call(identity.sendSmsCode, { body: { Phone: newPhone() }, locale: 'ja-JP,ja;q=0.9' });
    expect(ja.body.message).toBe(dictionary('ja').messages.smsSent);
  });

  it('refuses a bad phone number with a clear 400', async () => {
    for (const Phone of ['', 'abc', '12', '+12345678901234567']) {
      const response = await t.call(identity.sendSmsCode, { body: { Phone } });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(ErrorCode.BadRequest);
      expect(response.body.message).toMatch(/valid phone number/);
    }
    expect((await t.call(identity.sendSmsCode, { body: {} })).status).toBe(400);
  });

  it('allows one send a minute per phone, and says a code was sent and when to ask again', async () => {
    const phone = newPhone();
    await t.call(identity.sendSmsCode, { body: { Phone: phone } });
    const again = await t.call(identity.sendSmsCode, { body: { Phone: phone } });
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^A code was already sent to this number\. You can ask for a new one in (59|60) s\.$/);
    expect(Number(again.headers['retry-after'])).toBeGreaterThanOrEqual(59);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('caps sends per phone and per address each day, saying which cap and when it frees', async () => {
    const phone = newPhone();
    for (let i = 0; i < verification.dailyPerTarget; i++) {
      expect((await t.call(identity.sendSmsCode, { body: { Phone: phone } })).status).toBe(200);
      await ageCodes(phone);
    }
    // The first of the day's sends was aged by every later one: it turns a day old in about 24 h − 20 min.
    const perPhone = await t.call(identity.sendSmsCode, { body: { Phone: phone } });
    expect(perPhone.status).toBe(429);
    expect(perPhone.body.message).toBe('This number has been sent 10 codes today, the most we send in a day. Please try again in 24 h.');
    expect(Number(perPhone.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(Number(perPhone.headers['retry-after'])).toBeLessThan(24 * 3600);

    // Many customers share a carrier's address: its cap is a setting, sized for that.
    const ip = '10.0.0.2';
    const cap = t.app.config.CODES_PER_ADDRESS_PER_DAY;
    expect(cap).toBeGreaterThanOrEqual(1000);
    await t.app.db.execute(
      sql`insert into verification_codes (channel, target, ip, code_hash, expires_at, created_at) select 'sms', 'x' || g, ${ip}, 'x', now(), now() - interval '1 hour' - g * interval '1 second' from generate_series(1, ${cap - 1}) g`,
    );
    expect((await t.call(identity.sendSmsCode, { body: { Phone: newPhone() }, ip })).status).toBe(200);
    const perAddress = await t.call(identity.sendSmsCode, { body: { Phone: newPhone() }, ip, locale: 'ru' });
    expect(perAddress.status).toBe(429);
    expect(perAddress.body.message).toMatch(/^Сегодня из вашей сети запрошено слишком много кодов\. Повторите попытку через 23 ч/);
    expect(Number(perAddress.headers['retry-after'])).toBeGreaterThan(22 * 3600);
  });
});

describe('login or register', () => {
  it('creates the user on first login and returns tokens with the user info', async () => {
    const before = Date.now();
    const result = await login();
    expect(result.AccessToken).toMatch(/^[\w-]{40,}$/);
    expect(result.RefreshToken).toMatch(/^[\w-]{40,}$/);
    expect(result.ExpiresIn).toBeGreaterThan(before);
    expect(result.User).toMatchObject({
      Phone: `${result.phone.slice(0, 3)}****${result.phone.slice(-4)}`,
      AvatarUrl: {},
      HasPassword: false,
      ExternalAccounts: [],
    });
  });

  it('logs the same user in again', async () => {
    const first = await login();
    await ageCodes(first.phone);
    const second = await login(first.phone);
    expect(second.User.Id).toBe(first.User.Id);
    expect(second.AccessToken).not.toBe(first.AccessToken);
  });

  it('rejects a wrong, missing, expired or used code', async () => {
    const phone = newPhone();
    await t.call(identity.sendSmsCode, { body: { Phone: phone } });
    const code = await lastCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const attempt = (Code: string) => t.call(identity.loginOrRegister, { body: { Phone: phone, Code, DeviceId: device } });

    expect((await attempt('')).body).toMatchObject({ code: ErrorCode.BadRequest, message: 'Please enter the correct code.' });
    expect((await attempt(wrong)).body).toMatchObject({ code: ErrorCode.CodeInvalid, message: 'Please enter the correct code.' });
    expect((await attempt(code)).body.code).toBe(200);
    expect((await attempt(code)).body.code).toBe(ErrorCode.CodeInvalid);

    const late = newPhone();
    await t.call(identity.sendSmsCode, { body: { Phone: late } });
    await t.app.db.execute(sql`update verification_codes set expires_at = now() - interval '1 second' where target = ${late}`);
    const expired = await t.call(identity.loginOrRegister, { body: { Phone: late, Code: await lastCode(late), DeviceId: device } });
    expect(expired.body.code).toBe(ErrorCode.CodeInvalid);
  });

  it('burns the code after five wrong tries', async () => {
    const phone = newPhone();
    await t.call(identity.sendSmsCode, { body: { Phone: phone } });
    const code = await lastCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await t.call(identity.loginOrRegister, { body: { Phone: phone, Code: wrong, DeviceId: device } })).body.code);
    expect(codes).toEqual([4001, 4001, 4001, 4001, ErrorCode.CodeBurned]);
    const right = await t.call(identity.loginOrRegister, { body: { Phone: phone, Code: code, DeviceId: device } });
    expect(right.body.code).toBe(ErrorCode.CodeInvalid);
  });

  it('makes one user when two first logins of one phone race', async () => {
    const phone = newPhone();
    await t.call(identity.sendSmsCode, { body: { Phone: phone } });
    const Code = await lastCode(phone);
    const results = await Promise.all([1, 2, 3].map(() => t.call(identity.loginOrRegister, { body: { Phone: phone, Code, DeviceId: device } })));
    const codes = results.map((r) => r.body.code).sort();
    expect(codes).toEqual([200, ErrorCode.CodeInvalid, ErrorCode.CodeInvalid]);
    const rows = await t.app.db.execute(sql`select count(*)::int as n from users where phone = ${phone}`);
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(1);
  });
});

describe('tokens and sessions', () => {
  it('answers user info only with a valid access token', async () => {
    const session = await login();
    const ok = await t.call(identity.refreshUserInfo, { body: { Refresh: true }, token: session.AccessToken });
    expect(ok.body.data.Id).toBe(session.User.Id);

    for (const [token, message] of [
      [undefined, 'You need to log in.'],
      ['not-a-token', 'Your login has expired. Please log in again.'],
    ]) {
      const refused = await t.call(identity.refreshUserInfo, { body: {}, token });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 401, message });
    }

    // A token past its ExpiresIn is refused even while this instance remembers it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(session.ExpiresIn + 1);
      expect((await t.call(identity.refreshUserInfo, { body: {}, token: session.AccessToken })).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('signs out server-side', async () => {
    const session = await login();
    expect((await t.call(identity.logout, { token: session.AccessToken })).body.code).toBe(200);
    expect((await t.call(identity.refreshUserInfo, { body: {}, token: session.AccessToken })).status).toBe(401);
    expect((await t.call(identity.logout, { token: session.AccessToken })).status).toBe(401);
  });

  it('rotates refresh tokens and revokes the session when one is reused', async () => {
    const session = await login();
    const rotated = await t.call(identity.refreshToken, { body: { RefreshToken: session.RefreshToken } });
    expect(rotated.body.code).toBe(200);
    const next = rotated.body.data;
    expect((await t.call(identity.refreshUserInfo, { body: {}, token: session.AccessToken })).status).toBe(401);
    expect((await t.call(identity.refreshUserInfo, { body: {}, token: next.AccessToken })).status).toBe(200);

    const reused = await t.call(identity.refreshToken, { body: { RefreshToken: session.RefreshToken } });
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe(ErrorCode.RefreshReused);
    expect((await t.call(identity.refreshUserInfo, { body: {}, token: next.AccessToken })).status).toBe(401);
    expect((await t.call(identity.refreshToken, { body: { RefreshToken: next.RefreshToken } })).status).toBe(401);
    expect((await t.call(identity.refreshToken, { body: { RefreshToken: 'unknown' } })).status).toBe(401);
  });

  it('lists sessions and signs out the other devices', async () => {
    const first = await login();
    await ageCodes(first.phone);
    const second = await login(first.phone);
    const list = await t.call(identity.sessions, { token: second.AccessToken });
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data.filter((s: { Current: boolean }) => s.Current)).toHaveLength(1);

    const revoked = await t.call(identity.signOutOtherSessions, { token: second.AccessToken });
    expect(revoked.body.data).toEqual({ Revoked: 1 });
    expect((await t.call(identity.refreshUserInfo, { body: {}, token: first.AccessToken })).status).toBe(401);
    expect((await t.call(identity.refreshUserInfo, { body: {}, token: second.AccessToken })).status).toBe(200);
    expect((await t.call(identity.sessions, { token: second.AccessToken })).body.data).toHaveLength(1);
  });

  it("unbinds only the caller's own external accounts", async () => {
    const owner = await login();
    const other = await login();
    const [bound] = await t.app.db
      .insert(externalAccounts)
      .values({ userId: owner.User.Id, provider: 'steam', subject: `s${owner.User.Id}`, displayName: 'Gabe' })
      .returning();

    expect((await t.call(identity.unbundleAccount, { params: { id: bound.id }, token: other.AccessToken })).status).toBe(404);
    const done = await t.call(identity.unbundleAccount, { params: { id: bound.id }, token: owner.AccessToken });
    expect(done.body.data.ExternalAccounts).toEqual([]);
    const again = await t.call(identity.unbundleAccount, { params: { id: bound.id }, token: owner.AccessToken });
    expect(again.body).toMatchObject({ code: 404, message: 'That linked account was not found.' });
    // A path id that is no id at all is a bad request, in the user's language.
    expect((await t.call(identity.unbundleAccount, { params: { id: 'x' }, token: owner.AccessToken })).body).toMatchObject({
      code: 400,
      message: 'The request is not valid. Please check what you entered.',
    });
    expect((await t.call(identity.unbundleAccount, { params: { id: bound.id } })).status).toBe(401);
  });
});

describe('password and e-mail', () => {
  it('logs in by phone or e-mail with the right password only', async () => {
    const phone = newPhone();
    await t.app.db.insert(users).values({ phone, email: `${phone}@example.com`, nickname: 'P', passwordHash: await hashPassword('correct horse') });
    const attempt = (Account: string, Password: string) => t.call(identity.loginByPassword, { body: { Account, Password, DeviceId: device } });

    expect((await attempt(phone, 'correct horse')).body.code).toBe(200);
    expect((await attempt(`${phone}@EXAMPLE.com`, 'correct horse')).body.data.User.HasPassword).toBe(true);
    expect((await attempt(phone, 'wrong horse')).body).toMatchObject({ code: ErrorCode.CredentialsInvalid, message: 'Wrong account or password.' });
    expect((await attempt('nobody@example.com', 'correct horse')).body.code).toBe(ErrorCode.CredentialsInvalid);
    expect((await attempt('', 'x')).status).toBe(400);
  });

  it('registers by e-mail with a code and refuses a taken address', async () => {
    const Email = `new${Date.now()}@example.com`;
    expect((await t.call(identity.validateRegisterEmail, { body: { Email } })).body.data).toEqual({ Available: true });
    expect((await t.call(identity.validateRegisterEmail, { body: { Email: 'not-an-email' } })).body.message).toBe('Please enter a valid e-mail address.');

    expect((await t.call(identity.sendEmailCode, { body: { Email } })).body.message).toBe('E-mail sent successfully.');
    const code = await lastCode(Email);
    const short = await t.call(identity.registerByEmail, { body: { Email, Code: code, Password: 'short', DeviceId: device } });
    expect(short.body.message).toBe('The password must be 8 to 128 characters long.');
    const created = await t.call(identity.registerByEmail, { body: { Email, Code: code, Password: 'long enough', DeviceId: device } });
    expect(created.body.data.User).toMatchObject({ Email, HasPassword: true, Phone: null });
    expect((await t.call(identity.validateRegisterEmail, { body: { Email } })).body.data).toEqual({ Available: false });

    await ageCodes(Email);
    await t.call(identity.sendEmailCode, { body: { Email } });
    const taken = await t.call(identity.registerByEmail, { body: { Email, Code: await lastCode(Email), Password: 'long enough', DeviceId: device } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe(ErrorCode.EmailTaken);
  });
});

describe('user info', () => {
  it('serves its recent copy, and reads afresh when asked with Refresh', async () => {
    const session = await login();
    const read = (Refresh?: boolean) => t.call(identity.refreshUserInfo, { body: Refresh === undefined ? {} : { Refresh }, token: session.AccessToken });
    expect((await read()).body.data.NickName).toBe(session.User.NickName);
    await t.app.db.update(users).set({ nickname: 'Renamed elsewhere' }).where(eq(users.id, session.User.Id));
    expect((await read()).body.data.NickName).toBe(session.User.NickName);
    expect((await read(true)).body.data.NickName).toBe('Renamed elsewhere');
  });
});

describe('signed tokens and links', () => {
  it('hands out store, hub and customer-service tokens to logged-in users only', async () => {
    const session = await login();
    const { secret } = t.app.keys;

    const store = await t.call(identity.storeToken, { token: session.AccessToken });
    expect(store.body).toMatchObject({ status: true, data: { expires_in: lifetimes.storeTokenSeconds } });
    expect(verifyToken(secret, 'store', store.body.data!.token)?.sub).toBe(session.User.Id);

    const hub = await t.call(identity.hubToken, { token: session.AccessToken });
    expect(hub.body.isSuccess).toBe(true);
    const claims = verifyToken(secret, 'hub', hub.body.data!.AccessToken)!;
    // It names the session, so that signing out ends its live connections.
    expect(claims.sid).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.exp - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(claims.exp - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(verifyToken(secret, 'store', hub.body.data!.AccessToken)).toBeNull();

    const service = await t.call(support.customerService, { token: session.AccessToken });
    expect(service.body.isSuccess).toBe(true);
    const reference = new URL(service.body.data!, 'http://x').searchParams.get('ref')!;
    expect(verifyToken(secret, 'customer-service', reference)?.sub).toBe(session.User.Id);

    for (const route of [identity.storeToken, identity.hubToken, support.customerService]) expect((await t.call(route)).status).toBe(401);
  });
});

describe('protection', () => {
  it('serves the public key, for browsers to keep five minutes (so a rotated key reaches new pages soon)', async () => {
    const answer = await t.call(system.publicKey);
    expect(answer.body.data.Spki).toBe(t.publicSpki);
    expect(answer.headers['cache-control']).toBe('public, max-age=300');
  });

  it('says it is ready while its database and job queue answer, and 503 in the caller’s language when one does not; it is live regardless', async () => {
    const ready = await t.call(system.ready);
    expect([ready.status, ready.body.data]).toEqual([200, { Database: 'up', Jobs: 'up', Redis: 'none' }]);
    expect(ready.headers['cache-control']).toBe('no-store');
    const down = vi.spyOn(t.app.db, 'execute').mockRejectedValueOnce(new Error('connection terminated'));
    try {
      const unready = await t.call(system.ready, { locale: 'ja' });
      expect([unready.status, unready.body.code, unready.body.data]).toEqual([503, ErrorCode.Unavailable, null]);
      expect(unready.body.message).toMatch(
        /^サービスを利用できません。データベースに接続できません。しばらくしてから、もう一度お試しください。繰り返し発生する場合は、お問い合わせの際に参照番号 [0-9a-f]{16} をお伝えください。$/,
      );
    } finally {
      down.mockRestore();
    }
    const queueDown = vi.spyOn(t.app.jobs, 'getQueues').mockRejectedValueOnce(new Error('relation "pgboss.queue" does not exist'));
    try {
      expect((await t.call(system.ready)).status).toBe(503);
      // Liveness asks nothing of the database or the queue: the process answers.
      expect(await t.call(system.live)).toMatchObject({ status: 200, body: { data: { Process: 'up' } } });
    } finally {
      queueDown.mockRestore();
    }
  });

  it('answers every unreadable sealed request with one uniform error', async () => {
    const url = `/api${identity.sendSmsCode.path}`;
    const sealed = { 'content-type': 'application/x-beacon-sealed' };
    const attempts = [
      { headers: sealed, payload: 'AAAA' },
      { headers: { ...sealed, 'x-encrypt-key': 'zz' }, payload: 'AAAA' },
      { headers: { ...sealed, 'x-encrypt-key': 'ab'.repeat(256) }, payload: 'AAAA' },
      { headers: { 'content-type': 'application/json' }, payload: '{"Phone":"13900000000"}' },
    ];
    const bodies: Array<{ code: number }> = [];
    for (const attempt of attempts) {
      const response = await t.app.inject({ method: 'POST', url, remoteAddress: `10.1.1.${bodies.length}`, ...attempt });
      expect(response.statusCode).toBe(400);
      bodies.push(response.json());
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0].code).toBe(ErrorCode.EncryptionInvalid);
  });

  it('refuses oversized bodies', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api${identity.sendSmsCode.path}`,
      headers: { 'content-type': 'application/x-beacon-sealed' },
      payload: 'A'.repeat(70_000),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe(ErrorCode.PayloadTooLarge);
  });

  it('sends security headers and an envelope for unknown API paths', async () => {
    const response = await t.app.inject({ url: '/api/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 404 });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('answers a failure it did not expect with 500 and the request id to quote, which its log line carries', async () => {
    const lines: string[] = [];
    const logged = await startApp({ LOG_LEVEL: 'error', TRUST_PROXY: 'true' }, { logStream: { write: (line) => void lines.push(line) } });
    try {
      const failOnce = () =>
        vi.spyOn(logged.app.db, 'select').mockImplementationOnce(() => {
          throw new Error('disk on fire');
        });
      // Behind the trusted proxy, its id names the request in both logs.
      failOnce();
      const proxied = await logged.call(pluginCalls.list, { headers: { 'x-request-id': 'nginx-0123456789abcdef' } });
      expect(proxied.status).toBe(500);
      expect(proxied.body.message).toBe(
        'Something went wrong on our side. Please try again later. If it keeps happening, quote reference nginx-0123456789abcdef when you contact us.',
      );
      const logLine = JSON.parse(lines.find((line) => line.includes('disk on fire'))!) as { reqId: string };
      expect(logLine.reqId).toBe('nginx-0123456789abcdef');
      // Without a well-formed one, the server makes its own.
      failOnce();
      const own = await logged.call(pluginCalls.list, { headers: { 'x-request-id': 'not an id' } });
      const id = /reference ([0-9a-f]{16}) /.exec(own.body.message)![1];
      expect(lines.filter((line) => line.includes(`"reqId":"${id}"`))).toHaveLength(1);
    } finally {
      vi.restoreAllMocks();
      await logged.close();
    }
  });

  it('sends HSTS over HTTPS only: behind a trusted proxy when it forwarded https, never on plain http', async () => {
    expect((await t.app.inject({ url: '/api/nothing/here' })).headers['strict-transport-security']).toBeUndefined();
    // A client cannot claim https to a server that does not trust a proxy.
    expect((await t.app.inject({ url: '/api/nothing/here', headers: { 'x-forwarded-proto': 'https' } })).headers['strict-transport-security']).toBeUndefined();
    const proxied = await startApp({ TRUST_PROXY: 'true' });
    try {
      const secure = await proxied.app.inject({ url: '/api/nothing/here', headers: { 'x-forwarded-proto': 'https' } });
      expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const plain = await proxied.app.inject({ url: '/api/nothing/here', headers: { 'x-forwarded-proto': 'http' } });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });
});

describe('per-address rate limit', () => {
  it('answers 429 past the limit', async () => {
    const limited = await startApp({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.call(system.publicKey, { ip: '10.9.9.9' })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await limited.call(system.publicKey, { ip: '10.9.9.8' })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  // Issue 47, point 3: a 429 that names no limit is the spec's "too fast"; the SMS flow's words are the code sends' alone.
  it('says "too fast" past a limit that names none, and the SMS words only past the code sends’ own limit', async () => {
    const shared = (code: string) => dictionary(code as LocaleCode).messages;
    const limited = await startApp({ RATE_LIMIT_PER_MINUTE: '2', IDENTITY_RATE_LIMIT_PER_MINUTE: '4' });
    try {
      const refusal = async (call: () => ReturnType<TestApp['call']>, times: number) => {
        for (let i = 1; i < times; i++) expect((await call()).status).not.toBe(429);
        const refused = await call();
        expect(refused.status).toBe(429);
        return refused.body;
      };
      // The API's own limit, and a login's stricter one: the spec's HTTP 429 text, in the page's language.
      for (const [i, code] of ['zh-CN', 'en', 'ko'].entries())
        expect(await refusal(() => limited.call(system.publicKey, { ip: `10.8.0.${i}`, locale: code }), 3)).toEqual({
          code: 429,
          message: shared(code).tooFast,
          data: null,
        });
      const login = () =>
        limited.call(identity.loginByPassword, {
          body: { Account: 'nobody@example.com', Password: 'not the password', DeviceId: device },
          ip: '10.8.1.1',
          locale: 'zh-CN',
        });
      expect(await refusal(login, 5)).toMatchObject({ code: 429, message: '操作太快了，请稍后再试。' });
      // A code send's own limit (a quarter of the logins'): the SMS flow's words.
      const send = () => limited.call(identity.sendSmsCode, { body: { Phone: newPhone() }, ip: '10.8.2.1', locale: 'zh-CN' });
      expect(await refusal(send, 2)).toEqual({ code: 429, message: '请求过于频繁，请休息一下稍后再试。', data: null });
    } finally {
      await limited.close();
    }
  });
});

// Issue 43, points 7 and 8: SMS pumping costs the attacker, not the shop; no enumeration.
describe('code requests that cost the shop', () => {
  /** A proof of work's refusals: asked for first, or given wrong, expired or used. */
  const required = { code: ErrorCode.ProofOfWorkRequired, message: 'Before we send a code, please confirm you are not a robot.', data: null };
  const invalid = {
    code: ErrorCode.ProofOfWorkInvalid,
    message: 'The check that you are not a robot failed or has expired. Please ask for the code again.',
    data: null,
  };
  /** A test app whose thresholds are low and whose challenges are quick to solve; code sends are not rate limited within them. */
  const challengingApp = (env: Record<string, string>) => startApp({ IDENTITY_RATE_LIMIT_PER_MINUTE: '400', CODE_CHALLENGE_WORK: '40', ...env });
  const sms = (app: TestApp, Phone: string, ip: string, ProofOfWork?: string) =>
    app.call(identity.sendSmsCode, { body: ProofOfWork === undefined ? { Phone } : { Phone, ProofOfWork }, ip });
  const rowsFor = async (app: TestApp, target: string) =>
    (await app.app.db.select({ n: count() }).from(verificationCodes).where(eq(verificationCodes.target, target)))[0].n;

  it('counts an IPv6 client by its /64, as the rate limiter does: a fourth code from a rotated address of the same /64 is refused or challenged', async () => {
    for (const [env, refusal] of [
      [{ CODES_PER_ADDRESS_PER_DAY: '3' }, ErrorCode.TooManyRequests],
      [{ CODE_CHALLENGE_CODES_PER_HOUR: '3' }, ErrorCode.ProofOfWorkRequired],
    ] as const) {
      const app = await challengingApp(env);
      try {
        for (const host of [':1', 'a:b:c:d', 'ffff:ffff:ffff:fffe']) expect((await sms(app, newPhone(), `2001:db8:43:7:${host}`)).body.code).toBe(200);
        const fourth = newPhone();
        expect((await sms(app, fourth, '2001:db8:43:7::9')).body.code).toBe(refusal);
        expect(await codes.outbox(app, fourth)).toEqual([]);
        // Another /64 is another network.
        expect((await sms(app, newPhone(), '2001:db8:43:8::1')).body.code).toBe(200);
      } finally {
        await app.close();
      }
    }
  });

  it('asks an address that wants codes for many numbers to prove its work first; a solution buys one code, once; nothing is sent or counted without one', async () => {
    const app = await challengingApp({ CODE_CHALLENGE_TARGETS_PER_HOUR: '2' });
    try {
      const ip = '10.43.7.1';
      const [first, second, third, fourth] = [newPhone(), newPhone(), newPhone(), newPhone()];
      expect((await sms(app, first, ip)).body.code).toBe(200);
      expect((await sms(app, second, ip)).body.code).toBe(200);
      // A second code to a number already asked for is not a new number.
      await codes.ageCodes(app, first);
      expect((await sms(app, first, ip)).body.code).toBe(200);

      const refused = await sms(app, third, ip, undefined);
      expect([refused.status, refused.body]).toEqual([403, required]);
      expect(await codes.outbox(app, third)).toEqual([]);
      expect(await rowsFor(app, third)).toBe(0);

      const proof = await codes.solvedProof(app);
      expect((await sms(app, third, ip, proof)).body).toEqual({ code: 200, message: 'SMS sent successfully.', data: null });
      expect(await codes.lastCode(app, third)).toMatch(/^\d{6}$/);
      // The same solution a second time, for another number or the same one.
      expect((await sms(app, fourth, ip, proof)).body).toEqual(invalid);
      await codes.ageCodes(app, third);
      expect((await sms(app, third, ip, proof)).body).toEqual(invalid);
      expect(await codes.outbox(app, fourth)).toEqual([]);
      expect(await rowsFor(app, fourth)).toBe(0);

      // E-mail addresses are targets too.
      const Email = `pump-${Date.now()}@example.com`;
      expect((await app.call(identity.sendEmailCode, { body: { Email }, ip })).body).toEqual(required);
      expect((await app.call(identity.sendEmailCode, { body: { Email, ProofOfWork: await codes.solvedProof(app) }, ip })).body.code).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('lets one solution buy one code when two requests race with it', async () => {
    const app = await challengingApp({ CODE_CHALLENGE_TARGETS_PER_HOUR: '0' });
    try {
      for (let round = 0; round < 3; round++) {
        const proof = await codes.solvedProof(app);
        const phones = [newPhone(), newPhone(), newPhone()];
        const answers = await Promise.all(phones.map((phone, i) => sms(app, phone, `10.43.8.${i + 1}`, proof)));
        expect(answers.map((answer) => answer.body.code).sort()).toEqual([200, ErrorCode.ProofOfWorkInvalid, ErrorCode.ProofOfWorkInvalid]);
        const sent = await Promise.all(phones.map(async (phone) => (await codes.outbox(app, phone)).length));
        expect(sent.sort()).toEqual([0, 0, 1]);
      }
    } finally {
      await app.close();
    }
  });

  it('refuses an expired, forged, tampered or wrong solution, and sends nothing', async () => {
    const app = await challengingApp({ CODE_CHALLENGE_TARGETS_PER_HOUR: '0' });
    try {
      const phone = newPhone();
      const ip = '10.43.9.1';
      expect((await sms(app, phone, ip)).body).toEqual(required);

      // Solved, then sent after the challenge's five minutes.
      const late = await codes.solvedProof(app);
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 5 * 60_000 + 1000);
        expect((await sms(app, phone, ip, late)).body).toEqual(invalid);
      } finally {
        vi.useRealTimers();
      }

      // A challenge this server never made, solved honestly.
      const foreign = await createChallenge({
        algorithm: 'PBKDF2/SHA-256',
        cost: 1,
        counter: 3,
        deriveKey,
        hmacSignatureSecret: 'not the server’s key',
        hmacKeySignatureSecret: 'nor this one',
        expiresAt: new Date(Date.now() + 60_000),
      });
      expect((await sms(app, phone, ip, codes.proofPayload(foreign, await solveChallenge({ challenge: foreign, deriveKey })))).body).toEqual(invalid);

      // The server's challenge made easier, or answered with a key that is not its solution.
      const challenge = (await app.call(identity.codeChallenge)).body.data;
      const easier = { ...challenge, parameters: { ...challenge.parameters, keyPrefix: '00', keySignature: undefined } };
      const easySolution = await solveChallenge({ challenge: easier, deriveKey });
      expect(await sms(app, phone, ip, codes.proofPayload(easier, easySolution))).toMatchObject({ status: 400, body: invalid });
      expect((await sms(app, phone, ip, codes.proofPayload(challenge, { counter: 7, derivedKey: 'ab'.repeat(32) }))).body).toEqual(invalid);
      expect((await sms(app, phone, ip, codes.proofPayload(challenge, null))).body).toEqual(invalid);
      expect((await sms(app, phone, ip, 'not a payload')).body).toEqual(invalid);

      expect(await codes.outbox(app, phone)).toEqual([]);
      expect(await rowsFor(app, phone)).toBe(0);
      // Refused requests used nothing up: the number still gets its code with a good solution, and
      // solutions whose challenge expired are forgotten on the way.
      await app.app.db.insert(proofOfWorkSolutions).values({ signature: 'stale', expiresAt: new Date(Date.now() - 1000) });
      expect((await sms(app, phone, ip, await codes.solvedProof(app))).body.code).toBe(200);
      expect((await app.app.db.select().from(proofOfWorkSolutions)).map((row) => row.signature)).not.toContain('stale');
    } finally {
      await app.close();
    }
  });

  it('asks everyone for a proof of work once the shop has sent many codes in the hour, whatever their address', async () => {
    const app = await challengingApp({ CODE_CHALLENGE_SHOP_CODES_PER_HOUR: '3' });
    try {
      for (let i = 1; i <= 3; i++) expect((await sms(app, newPhone(), `10.43.10.${i}`)).body.code).toBe(200);
      const phone = newPhone();
      expect((await sms(app, phone, '10.43.11.1')).body).toEqual(required);
      expect((await app.call(identity.sendEmailCode, { body: { Email: `shop-${Date.now()}@example.com` }, ip: '10.43.12.1' })).body).toEqual(required);
      expect((await sms(app, phone, '10.43.11.1', await codes.solvedProof(app))).body.code).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('serves challenges that expire in five minutes and are never cached', async () => {
    const answer = await t.call(identity.codeChallenge);
    expect(answer.headers['cache-control']).toBe('no-store');
    const { parameters, signature } = answer.body.data;
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(parameters.algorithm).toBe('PBKDF2/SHA-256');
    expect(parameters.expiresAt * 1000 - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(parameters.expiresAt * 1000 - Date.now()).toBeLessThanOrEqual(5 * 60_000);
  });

  it('makes challenges for one address only as often as codes may be asked (each costs a key derivation), then 429', async () => {
    // The app's limit: IDENTITY_RATE_LIMIT_PER_MINUTE (20) a minute, a quarter of it for code sends and challenges.
    const ip = '203.0.113.91';
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.call(identity.codeChallenge, { ip })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // Another address is not held back.
    expect((await t.call(identity.codeChallenge, { ip: '203.0.113.92' })).status).toBe(200);
  });

  it('answers a code request alike whether or not the number or e-mail address has an account', async () => {
    const known = await login();
    await ageCodes(known.phone);
    const Email = `known-${Date.now()}@example.com`;
    await t.app.db.insert(users).values({ email: Email, nickname: 'Known', passwordHash: await hashPassword('long enough') });
    const answers = [
      await t.call(identity.sendSmsCode, { body: { Phone: known.phone } }),
      await t.call(identity.sendSmsCode, { body: { Phone: newPhone() } }),
      await t.call(identity.sendEmailCode, { body: { Email } }),
      await t.call(identity.sendEmailCode, { body: { Email: `unknown-${Date.now()}@example.com` } }),
    ];
    expect(answers.map(({ status, body }) => ({ status, body }))).toEqual([
      { status: 200, body: { code: 200, message: 'SMS sent successfully.', data: null } },
      { status: 200, body: { code: 200, message: 'SMS sent successfully.', data: null } },
      { status: 200, body: { code: 200, message: 'E-mail sent successfully.', data: null } },
      { status: 200, body: { code: 200, message: 'E-mail sent successfully.', data: null } },
    ]);
  });

  it('answers the registration e-mail check only a few times an hour per address (IPv6 by its /64), then 429', async () => {
    const app = await startApp({ REGISTER_EMAIL_CHECKS_PER_HOUR: '3' });
    try {
      const check = (ip: string) => app.call(identity.validateRegisterEmail, { body: { Email: `probe-${ip.replaceAll(':', '')}@example.com` }, ip });
      for (const host of ['1', '2', '3']) expect((await check(`2001:db8:43:9::${host}`)).status).toBe(200);
      const refused = await check('2001:db8:43:9:ffff::4');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 429, data: null });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
      expect((await check('2001:db8:43:a::1')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
