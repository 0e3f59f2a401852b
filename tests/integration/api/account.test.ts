/**
 * The account-centre calls against the real app, on PGlite and (in the
 * scale-out suite) on PostgreSQL: every authenticated call refuses a missing,
 * expired or revoked token, nobody reaches another user's rows, bad uploads
 * store nothing, and racing changes leave one winner.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountCalls, avatarRules } from '#contract/account.ts';
import type { ApiRoute } from '#contract/api.ts';
import { ErrorCode } from '#contract/errors.ts';
import { identity } from '#contract/identity.ts';
import { emailConfirmations, externalAccounts, sessions, users, verificationCodes } from '../../../server/db/schema.ts';
import { hashOpaqueToken } from '../../../server/crypto/opaque-tokens.ts';
import { hashPassword } from '../../../server/modules/identity/passwords.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import * as codes from './codes.ts';
import { startApp, type CallOptions, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;
const newPhone = () => `1370000${String(++phoneSeq).padStart(4, '0')}`;
const device = 'test-device-0002';
const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

const outbox = (to: string) => codes.outbox(t, to);
const lastCode = (to: string) => codes.lastCode(t, to);
const ageCodes = (target: string) => codes.ageCodes(t, target);
const sendSms = (phone: string) => codes.sendSms(t, phone);

async function login(phone = newPhone(), options: CallOptions = {}) {
  const Code = await sendSms(phone);
  const response = await t.call(identity.loginOrRegister, { ...options, body: { Phone: phone, Code, DeviceId: device } });
  expect(response.body.code).toBe(200);
  return { phone, token: response.body.data.AccessToken, user: response.body.data.User };
}

/** Asks the account's own code (sms: its phone; email: its address) with `token`, and reads it as its owner would. */
async function ownCode(token: string, channel: 'sms' | 'email', contact: string): Promise<string> {
  await ageCodes(contact);
  expect((await t.call(accountCalls.sendOwnCode, { body: { Channel: channel }, token })).status).toBe(200);
  return lastCode(contact);
}

/** The newest message to `to`: the security notice, after a change. */
const lastMessage = async (to: string) => (await outbox(to)).at(-1) ?? '';

/** The failed tries of the newest code sent to `target`. */
async function failedTries(target: string): Promise<number> {
  const [row] = await t.app.db
    .select({ failedTries: verificationCodes.failedTries })
    .from(verificationCodes)
    .where(eq(verificationCodes.target, target))
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  return row.failedTries;
}

/** An account with an e-mail address and no phone, logged in twice (through its password), as its two tokens. */
async function emailAccount() {
  const email = `mail-only-${++phoneSeq}-${Date.now()}@example.com`;
  const [row] = await t.app.db.insert(users).values({ email, nickname: 'Mail only' }).returning({ id: users.id });
  const token = await tokenFor(row.id);
  const other = (await t.call(identity.loginByPassword, { body: { Account: email, Password: 'made for the test', DeviceId: device } })).body.data.AccessToken;
  return { email, userId: row.id, token, other };
}

const avatarFiles = () => readdirSync(path.join(t.app.config.DATA_DIR, 'uploads', 'avatars')).sort();
/** A session for a user made directly in the database (one without a phone), through the password login. */
async function tokenFor(userId: number): Promise<string> {
  await t.app.db
    .update(users)
    .set({ passwordHash: await hashPassword('made for the test') })
    .where(eq(users.id, userId));
  const [row] = await t.app.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const response = await t.call(identity.loginByPassword, { body: { Account: row.email!, Password: 'made for the test', DeviceId: device } });
  return response.body.data.AccessToken;
}

/** A PNG that says it is 100,000 × 100,000 pixels (40 GB decoded) in a few hundred bytes: a small image with its header rewritten. */
async function decompressionBomb(): Promise<Buffer> {
  const bytes = Buffer.from(await png(8, 8));
  const header = bytes.subarray(12, 29); // "IHDR" and its 13 bytes of data
  header.writeUInt32BE(100_000, 4);
  header.writeUInt32BE(100_000, 8);
  bytes.writeUInt32BE(zlib.crc32(header), 29);
  return bytes;
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();

beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

/** Every authenticated call of the account centre, with a request that would otherwise be valid. */
const authenticatedCalls: Array<[string, ApiRoute, CallOptions]> = [
  ['updateNickname', accountCalls.updateNickname, { body: { NickName: 'Valid Name' } }],
  ['uploadAvatar', accountCalls.uploadAvatar, { body: { Image: 'AAAA' } }],
  ['sendOwnCode', accountCalls.sendOwnCode, { body: { Channel: 'sms' } }],
  ['changePhone', accountCalls.changePhone, { body: { Phone: '13799999999', Code: '123456' } }],
  ['bindEmail', accountCalls.bindEmail, { body: { Email: 'someone@example.com' } }],
  ['setPassword', accountCalls.setPassword, { body: { Password: 'a long password' } }],
  ['revokeSession', accountCalls.revokeSession, { params: { id: '00000000-0000-4000-8000-000000000000' } }],
  ['loginHistory', accountCalls.loginHistory, {}],
  ['messageChoices', accountCalls.messageChoices, {}],
  ['setMessageChoices', accountCalls.setMessageChoices, { body: { RaffleMessages: false } }],
  ['deleteAccount', accountCalls.deleteAccount, { body: { Password: 'x' } }],
  ['sessions', identity.sessions, {}],
  ['signOutOtherSessions', identity.signOutOtherSessions, {}],
  ['unbundleAccount', identity.unbundleAccount, { params: { id: 1 } }],
];

describe('authentication', () => {
  it.each(authenticatedCalls)('%s refuses no token, an expired token and a revoked token with 401', (_, route, options) =>
    expectBadTokensRefused(t, route, options, async () => {
      const { token, user } = await login();
      return { token, userId: user.Id };
    }),
  );
});

describe('profile', () => {
  it('saves a nickname that keeps the rules and names the rule one breaks', async () => {
    const { token } = await login();
    const saved = await t.call(accountCalls.updateNickname, { body: { NickName: '  星标 Player_1  ' }, token });
    expect(saved.body).toMatchObject({ code: 200, data: { NickName: '星标 Player_1' } });

    const refused = async (NickName: string, message: string) => {
      const response = await t.call(accountCalls.updateNickname, { body: { NickName }, token });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: ErrorCode.NicknameInvalid, message });
    };
    await refused('A', 'A nickname must be 2 to 20 characters long.');
    await refused('x'.repeat(21), 'A nickname must be 2 to 20 characters long.');
    await refused('no<script>', 'A nickname may contain letters, digits, spaces between words and - _ . · only.');
    await refused('two  spaces', 'A nickname may contain letters, digits, spaces between words and - _ . · only.');
    const ja = await t.call(accountCalls.updateNickname, { body: { NickName: 'A' }, token, locale: 'ja' });
    expect(ja.body.message).toBe('ニックネームは2～20文字で入力してください。');
  });

  it('re-encodes an avatar into every size, strips its metadata and serves it for good', async () => {
    const { token } = await login();
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#aa3300' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret place', Artist: 'someone' } })
      .toBuffer();
    const response = await t.call(accountCalls.uploadAvatar, { body: { Image: photo.toString('base64') }, token });
    expect(response.body.code).toBe(200);
    const urls = response.body.data.AvatarUrl;
    expect(Object.keys(urls)).toEqual(Object.keys(avatarRules.sizes));
    expect(urls.large).toMatch(/^\/api\/avatars\/[0-9a-f]{20}-256\.webp$/);

    const served = await t.app.inject({ url: urls.large });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const metadata = await sharp(served.rawPayload).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', 256, 256]);
    expect(metadata.exif).toBeUndefined();
    expect((await sharp((await t.app.inject({ url: urls.small })).rawPayload).metadata()).width).toBe(48);

    // A new avatar replaces the old files, which no one shows any more.
    const next = await t.call(accountCalls.uploadAvatar, { body: { Image: (await png(300, 300)).toString('base64') }, token });
    expect(next.body.data.AvatarUrl.large).not.toBe(urls.large);
    expect((await t.app.inject({ url: urls.large })).statusCode).toBe(404);
  });

  it('refuses what is not a usable image with a clear 4xx, and stores nothing', async () => {
    const { token, user } = await login();
    const before = avatarFiles();
    const huge = await sharp({ create: { width: 5000, height: 10, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const bomb = await decompressionBomb();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const cases: Array<[Buffer, string]> = [
      [Buffer.from('just some text, not an image'), 'That file is not a PNG, JPEG or WebP image.'],
      [svg, 'That file is not a PNG, JPEG or WebP image.'],
      [(await png(100, 100)).subarray(0, 60), 'That file is not a PNG, JPEG or WebP image.'],
      [
        await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
          .gif()
          .toBuffer(),
        'That file is not a PNG, JPEG or WebP image.',
      ],
      [huge, 'The image is too large: it may be 4,096 × 4,096 pixels at most.'],
      [bomb, 'The image is too large: it may be 4,096 × 4,096 pixels at most.'],
    ];
    for (const [bytes, message] of cases) {
      const response = await t.call(accountCalls.uploadAvatar, { body: { Image: bytes.toString('base64') }, token });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: ErrorCode.AvatarInvalid, message });
    }
    const tooBig = await t.call(accountCalls.uploadAvatar, { body: { Image: Buffer.alloc(avatarRules.maxBytes + 10).toString('base64') }, token });
    expect(tooBig.body).toMatchObject({ code: ErrorCode.AvatarInvalid, message: 'The image is too large: it may be 2 MB at most.' });
    const farTooBig = await t.call(accountCalls.uploadAvatar, { body: { Image: Buffer.alloc(3 * avatarRules.maxBytes).toString('base64') }, token });
    expect(farTooBig.status).toBe(413);
    expect(avatarFiles()).toEqual(before);
    const [row] = await t.app.db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.Id));
    expect(row.avatarUrl).toEqual({});
  });
});

describe('phone', () => {
  it('changes the phone with a code to the old number and one to the new, signs out the other devices and tells the old number', async () => {
    const { phone, token } = await login();
    const elsewhere = await login(phone);
    const next = newPhone();
    const OldCode = await (async () => {
      await ageCodes(phone);
      expect((await t.call(accountCalls.sendOwnCode, { body: { Channel: 'sms' }, token })).body.message).toBe('SMS sent successfully.');
      return lastCode(phone);
    })();
    const Code = await sendSms(next);

    const noOld = await t.call(accountCalls.changePhone, { body: { Phone: next, Code }, token });
    expect(noOld.body).toMatchObject({ code: ErrorCode.CodeInvalid, message: 'Please enter the correct code.' });
    const changed = await t.call(accountCalls.changePhone, { body: { Phone: next, Code, OldCode }, token });
    expect(changed.body.data).toMatchObject({ User: { Phone: `${next.slice(0, 3)}****${next.slice(-4)}` }, Revoked: 1 });
    expect((await t.call(identity.sessions, { token: elsewhere.token })).status).toBe(401);
    expect((await t.call(identity.sessions, { token })).status).toBe(200);
    expect(await lastMessage(phone)).toMatch(/^\[Beacon Toolkit\] The phone number of your account was changed on .+ If this was not you/);

    // The new number logs in to the same account; the old one makes a new account.
    expect((await login(next)).user.Id).toBe(changed.body.data.User.Id);
    expect((await login(phone)).user.Id).not.toBe(changed.body.data.User.Id);
  });

  it('lets exactly one of several racing accounts take a new number', async () => {
    const racers = await Promise.all([1, 2, 3, 4, 5].map(() => login()));
    const oldCodes: string[] = [];
    for (const racer of racers) {
      await ageCodes(racer.phone);
      await t.call(accountCalls.sendOwnCode, { body: { Channel: 'sms' }, token: racer.token });
      oldCodes.push(await lastCode(racer.phone));
    }
    const target = newPhone();
    const Code = await sendSms(target);
    const results = await Promise.all(
      racers.map((racer, index) => t.call(accountCalls.changePhone, { body: { Phone: target, Code, OldCode: oldCodes[index] }, token: racer.token })),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    expect(results.filter((result) => result.status !== 200).every((result) => result.status === 400 || result.status === 409)).toBe(true);
    expect(await t.app.db.select({ id: users.id }).from(users).where(eq(users.phone, target))).toHaveLength(1);
  });

  it('refuses a number another account has, with a clear 409', async () => {
    const taken = await login();
    const [row] = await t.app.db
      .insert(users)
      .values({ email: `no-phone-${taken.phone}@example.com`, nickname: 'No phone' })
      .returning({ id: users.id });
    // An account without a phone binds one with its e-mail's code and the new number's; here the number is taken.
    const token = await tokenFor(row.id);
    const OldCode = await ownCode(token, 'email', `no-phone-${taken.phone}@example.com`);
    const response = await t.call(accountCalls.changePhone, { body: { Phone: taken.phone, Code: await sendSms(taken.phone), OldCode }, token });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe('This phone number is already used by another account.');
  });
});

describe('e-mail', () => {
  it('binds an address through the link it e-mails, once, and refuses expired and unknown links', async () => {
    const { phone, token } = await login();
    const email = `bind-${Date.now()}@example.com`;
    const sent = await t.call(accountCalls.bindEmail, { body: { Email: email, Code: await ownCode(token, 'sms', phone) }, token });
    expect(sent.body.message).toBe(`We have sent a confirmation link to ${email}. Open it to finish.`);
    const [text] = await outbox(email);
    const link = new URL(/https?:\/\/\S+/.exec(text)![0]);
    expect(link.pathname).toBe('/en/verification/email/confirm');
    const Token = link.searchParams.get('token')!;

    const confirmed = await t.call(accountCalls.confirmEmail, { body: { Token }, token });
    expect(confirmed.body).toMatchObject({ code: 200, data: { Email: email, Revoked: 0 } });
    expect((await t.call(identity.refreshUserInfo, { body: { Refresh: true }, token })).body.data.Email).toBe(email);
    expect((await t.call(accountCalls.confirmEmail, { body: { Token } })).body).toMatchObject({
      code: ErrorCode.LinkUsed,
      message: 'This confirmation link has already been used.',
    });
    expect((await t.call(accountCalls.confirmEmail, { body: { Token: 'made-up' } })).body.code).toBe(ErrorCode.LinkInvalid);

    const other = await login();
    expect((await t.call(accountCalls.bindEmail, { body: { Email: email }, token: other.token })).body.code).toBe(ErrorCode.EmailTaken);
    const late = `late-${Date.now()}@example.com`;
    await t.call(accountCalls.bindEmail, { body: { Email: late, Code: await ownCode(other.token, 'sms', other.phone) }, token: other.token });
    await t.app.db
      .update(emailConfirmations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailConfirmations.email, late));
    const lateToken = new URL(/https?:\/\/\S+/.exec((await outbox(late))[0])![0]).searchParams.get('token')!;
    const expired = await t.call(accountCalls.confirmEmail, { body: { Token: lateToken } });
    expect(expired.status).toBe(410);
    expect(expired.body.message).toBe('This confirmation link has expired. Please ask for a new one.');
  });
});

describe('password and sessions', () => {
  it('sets, then changes the password only with the current one, signing out the other devices', async () => {
    const first = await login();
    const second = await login(first.phone);
    const Code = await ownCode(second.token, 'sms', first.phone);
    const set = await t.call(accountCalls.setPassword, { body: { Password: 'first password', Code }, token: second.token });
    expect(set.body).toMatchObject({ code: 200, data: { Revoked: 1 } });
    expect((await t.call(identity.sessions, { token: first.token })).status).toBe(401);

    const third = await login(first.phone);
    const wrong = await t.call(accountCalls.setPassword, { body: { Current: 'not it', Password: 'second password' }, token: second.token });
    expect(wrong.body).toMatchObject({ code: ErrorCode.PasswordWrong, message: 'The current password is wrong.' });
    expect((await t.call(accountCalls.setPassword, { body: { Password: 'second password' }, token: second.token })).body.code).toBe(ErrorCode.PasswordWrong);
    const changed = await t.call(accountCalls.setPassword, { body: { Current: 'first password', Password: 'second password' }, token: second.token });
    expect(changed.body.data.Revoked).toBe(1);
    expect((await t.call(identity.sessions, { token: third.token })).status).toBe(401);
    expect(await lastMessage(first.phone)).toMatch(/^\[Beacon Toolkit\] The password of your account was changed on /);
    expect((await t.call(identity.loginByPassword, { body: { Account: first.phone, Password: 'second password', DeviceId: device } })).body.code).toBe(200);
  });

  it('lists sessions with their device and place, and signs out one of them but not another user’s', async () => {
    const home = await login(newPhone(), { ip: '192.168.1.20', headers: { 'user-agent': chrome } });
    const abroad = await login(home.phone, { ip: '123.45.67.8' });
    const list = (await t.call(identity.sessions, { token: home.token })).body.data;
    expect(list[0].Current).toBe(true);
    expect(list.map((s) => [s.Device, s.Place, s.Current])).toEqual(
      expect.arrayContaining([
        ['Chrome · Windows 10', 'local', true],
        [expect.any(String), 'KR', false],
      ]),
    );
    const other = list.find((s) => !s.Current)!;

    const stranger = await login();
    expect((await t.call(accountCalls.revokeSession, { params: { id: other.Id }, token: stranger.token })).body).toMatchObject({
      code: 404,
      message: 'That session was not found, or it has already ended.',
    });
    expect((await t.call(identity.sessions, { token: abroad.token })).status).toBe(200);
    expect((await t.call(accountCalls.revokeSession, { params: { id: other.Id }, token: home.token })).body.code).toBe(200);
    expect((await t.call(identity.sessions, { token: abroad.token })).status).toBe(401);
    expect((await t.call(accountCalls.revokeSession, { params: { id: other.Id }, token: home.token })).status).toBe(404);
  });

  it('keeps a login history of successes and failures, newest first, for the account alone', async () => {
    const { phone, token } = await login(newPhone(), { ip: '8.8.8.8' });
    await t.call(accountCalls.setPassword, { body: { Password: 'history password', Code: await ownCode(token, 'sms', phone) }, token });
    await t.call(identity.loginByPassword, { body: { Account: phone, Password: 'wrong password', DeviceId: device }, ip: '10.1.1.1' });
    await t.call(identity.loginByPassword, { body: { Account: phone, Password: 'history password', DeviceId: device } });
    const history = (await t.call(accountCalls.loginHistory, { token })).body.data;
    expect(history.map((event) => [event.Method, event.Success])).toEqual([
      ['password', true],
      ['password', false],
      ['sms', true],
    ]);
    expect(history[1]).toMatchObject({ Address: '10.1.1.1', Place: 'local' });
    expect(history[2]).toMatchObject({ Address: '8.8.8.8', Place: 'US' });
    expect((await t.call(accountCalls.loginHistory, { token: (await login()).token })).body.data).toHaveLength(1);
  });
});

describe('account takeover: a stolen session cannot take the account', () => {
  it('refuses a password set without a code', async () => {
    const owner = await login();
    const thief = await login(owner.phone);
    const refused = await t.call(accountCalls.setPassword, { body: { Password: 'the thief’s password' }, token: thief.token });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: ErrorCode.CodeInvalid, message: 'Please enter the correct code.' });
    const [row] = await t.app.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, owner.user.Id));
    expect(row.passwordHash).toBeNull();
    expect((await t.call(identity.sessions, { token: owner.token })).status).toBe(200);
  });

  it('sets a first password with a right code only: a wrong one counts its try; the other devices are signed out and the phone is told', async () => {
    const owner = await login();
    const current = await login(owner.phone);
    const Code = await ownCode(current.token, 'sms', owner.phone);
    const wrong = await t.call(accountCalls.setPassword, {
      body: { Password: 'first password', Code: Code === '000000' ? '111111' : '000000' },
      token: current.token,
    });
    expect(wrong.body.code).toBe(ErrorCode.CodeInvalid);
    expect(await failedTries(owner.phone)).toBe(1);
    expect((await t.call(identity.sessions, { token: owner.token })).status).toBe(200);

    const set = await t.call(accountCalls.setPassword, { body: { Password: 'first password', Code }, token: current.token });
    expect(set.body).toMatchObject({ code: 200, data: { Revoked: 1 } });
    expect((await t.call(identity.sessions, { token: owner.token })).status).toBe(401);
    expect((await t.call(identity.sessions, { token: current.token })).status).toBe(200);
    expect(await lastMessage(owner.phone)).toMatch(/^\[Beacon Toolkit\] A password was set on your account on .+ If this was not you/);
    // The code is used up: it confirms nothing else.
    expect((await t.call(accountCalls.deleteAccount, { body: { Code }, token: current.token })).body.code).toBe(ErrorCode.CodeInvalid);
  });

  it('tells the owner in the language of the change, and a notice that cannot be sent never stops it', async () => {
    const { phone, token } = await login();
    const Code = await ownCode(token, 'sms', phone);
    const failing = vi.spyOn(t.app.sms, 'send').mockRejectedValueOnce(new Error('the gateway is down'));
    try {
      const set = await t.call(accountCalls.setPassword, { body: { Password: 'first password', Code }, token, locale: 'ja' });
      expect(set.body.code).toBe(200);
      expect(failing).toHaveBeenCalledOnce();
    } finally {
      failing.mockRestore();
    }
    const second = await login(phone);
    await t.call(accountCalls.setPassword, { body: { Current: 'first password', Password: 'second password' }, token: second.token, locale: 'ja' });
    expect(await lastMessage(phone)).toMatch(/^【Beacon Toolkit】/);
  });

  it('lets one of two racing requests with the same right code set the password', async () => {
    const { phone, token } = await login();
    const other = await login(phone);
    const Code = await ownCode(token, 'sms', phone);
    const results = await Promise.all(
      [token, other.token].map((racer, index) => t.call(accountCalls.setPassword, { body: { Password: `racing password ${index}`, Code }, token: racer })),
    );
    expect(results.map((result) => result.status).sort()).toEqual([200, 400]);
  });

  it('lets one of two racing phone changes, and one of two racing e-mail changes, use the same right code', async () => {
    const { phone, token, user } = await login();
    const OldCode = await ownCode(token, 'sms', phone);
    const numbers = [newPhone(), newPhone()];
    const codes = await Promise.all(numbers.map((number) => sendSms(number)));
    const phones = await Promise.all(numbers.map((Phone, index) => t.call(accountCalls.changePhone, { body: { Phone, Code: codes[index], OldCode }, token })));
    expect(phones.map((result) => result.status).sort()).toEqual([200, 400]);

    const [row] = await t.app.db.select({ phone: users.phone }).from(users).where(eq(users.id, user.Id));
    const Code = await ownCode(token, 'sms', row.phone!);
    const addresses = [`race-a-${user.Id}@example.com`, `race-b-${user.Id}@example.com`];
    const links = await Promise.all(addresses.map((Email) => t.call(accountCalls.bindEmail, { body: { Email, Code }, token })));
    expect(links.map((result) => result.status).sort()).toEqual([200, 400]);
    expect((await Promise.all(addresses.map((address) => outbox(address)))).flat()).toHaveLength(1);
  });

  it('asks an account with neither phone nor e-mail to bind a phone first, which its new number’s code alone does', async () => {
    const { phone, token, user } = await login();
    await t.app.db.update(users).set({ phone: null }).where(eq(users.id, user.Id));
    const refused = await t.call(accountCalls.setPassword, { body: { Password: 'first password', Code: '123456' }, token });
    expect(refused.body).toMatchObject({
      code: ErrorCode.ContactMissing,
      message: 'Please bind a phone number first: changes like this one are confirmed with a code sent to it.',
    });
    const email = await t.call(accountCalls.bindEmail, { body: { Email: `no-contact-${user.Id}@example.com`, Code: '123456' }, token });
    expect(email.body.code).toBe(ErrorCode.ContactMissing);
    expect(await outbox(`no-contact-${user.Id}@example.com`)).toEqual([]);
    const bound = await t.call(accountCalls.changePhone, { body: { Phone: phone, Code: await sendSms(phone) }, token });
    expect(bound.body.data.User.Phone).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
  });

  it('changes the phone of an account without one only with a code to its e-mail; the other devices are signed out and the address is told', async () => {
    const account = await emailAccount();
    const next = newPhone();
    const Code = await sendSms(next);
    const noProof = await t.call(accountCalls.changePhone, { body: { Phone: next, Code }, token: account.token });
    expect(noProof.body.code).toBe(ErrorCode.CodeInvalid);
    const OldCode = await ownCode(account.token, 'email', account.email);
    const wrong = await t.call(accountCalls.changePhone, {
      body: { Phone: next, Code, OldCode: OldCode === '000000' ? '111111' : '000000' },
      token: account.token,
    });
    expect(wrong.body.code).toBe(ErrorCode.CodeInvalid);
    expect(await failedTries(account.email)).toBe(1);
    const [unchanged] = await t.app.db.select({ phone: users.phone }).from(users).where(eq(users.id, account.userId));
    expect(unchanged.phone).toBeNull();

    const changed = await t.call(accountCalls.changePhone, { body: { Phone: next, Code, OldCode }, token: account.token });
    expect(changed.body).toMatchObject({ code: 200, data: { Revoked: 1 } });
    expect((await t.call(identity.sessions, { token: account.other })).status).toBe(401);
    expect((await t.call(identity.sessions, { token: account.token })).status).toBe(200);
    expect(await lastMessage(account.email)).toMatch(/The phone number of your account was changed on /);
  });

  it('sends an e-mail change’s link only with a code to the phone and one to the old address, then signs out the others and tells the old address', async () => {
    const { phone, token, user } = await login();
    const old = `old-${user.Id}@example.com`;
    await t.app.db.update(users).set({ email: old }).where(eq(users.id, user.Id));
    const elsewhere = await login(phone);
    const next = `new-${user.Id}@example.com`;
    const phoneCode = await ownCode(token, 'sms', phone);
    const emailCode = await ownCode(token, 'email', old);
    const bind = (body: { Code?: string; OldEmailCode?: string }) => t.call(accountCalls.bindEmail, { body: { Email: next, ...body }, token });

    expect((await bind({})).body.code).toBe(ErrorCode.CodeInvalid);
    expect((await bind({ OldEmailCode: emailCode })).body.code).toBe(ErrorCode.CodeInvalid);
    expect((await bind({ Code: phoneCode })).body.code).toBe(ErrorCode.CodeInvalid);
    expect((await bind({ Code: emailCode, OldEmailCode: phoneCode })).body.code).toBe(ErrorCode.CodeInvalid);
    expect(await outbox(next)).toEqual([]);

    // The swapped try counted against the phone's code; both are still good.
    const sent = await bind({ Code: phoneCode, OldEmailCode: emailCode });
    expect(sent.body.code).toBe(200);
    const Token = new URL(/https?:\/\/\S+/.exec((await outbox(next)).at(-1)!)![0]).searchParams.get('token')!;
    // The codes were used up by the link: a second link needs new ones.
    expect((await bind({ Code: phoneCode, OldEmailCode: emailCode })).body.code).toBe(ErrorCode.CodeInvalid);

    const confirmed = await t.call(accountCalls.confirmEmail, { body: { Token }, token });
    expect(confirmed.body).toMatchObject({ code: 200, data: { Email: next, Revoked: 1 } });
    expect((await t.call(identity.sessions, { token: elsewhere.token })).status).toBe(401);
    expect((await t.call(identity.refreshUserInfo, { body: { Refresh: true }, token })).body.data.Email).toBe(next);
    expect(await lastMessage(old)).toMatch(/^The e-mail address of your account was changed on .+ If this was not you/);
    expect(await lastMessage(phone)).toMatch(/The e-mail address of your account was changed on /);
  });

  it('changes the address of an account without a phone with a code to that address', async () => {
    const account = await emailAccount();
    const next = `next-${account.userId}@example.com`;
    const Code = await ownCode(account.token, 'email', account.email);
    expect((await t.call(accountCalls.bindEmail, { body: { Email: next, Code }, token: account.token })).body.code).toBe(200);
    const Token = new URL(/https?:\/\/\S+/.exec((await outbox(next)).at(-1)!)![0]).searchParams.get('token')!;
    expect((await t.call(accountCalls.confirmEmail, { body: { Token }, token: account.token })).body.data).toEqual({ Email: next, Revoked: 1 });
    expect(await lastMessage(account.email)).toMatch(/The e-mail address of your account was changed on /);
  });

  it('signs out every session when the link is opened without a login of the account (no, expired or revoked token)', async () => {
    for (const kind of ['none', 'expired', 'revoked', 'another account'] as const) {
      const { phone, token, user } = await login();
      const keeper = await login(phone);
      const email = `opened-${kind.replace(' ', '-')}-${user.Id}@example.com`;
      await t.call(accountCalls.bindEmail, { body: { Email: email, Code: await ownCode(token, 'sms', phone) }, token });
      const Token = new URL(/https?:\/\/\S+/.exec((await outbox(email)).at(-1)!)![0]).searchParams.get('token')!;
      let opener: string | undefined;
      if (kind === 'expired') {
        opener = (await login(phone)).token;
        await t.app.db.execute(sql`update tokens set expires_at = now() - interval '1 second' where hash = ${hashOpaqueToken(opener)}`);
      } else if (kind === 'revoked') {
        opener = (await login(phone)).token;
        await t.call(identity.logout, { token: opener });
      } else if (kind === 'another account') {
        opener = (await login()).token;
      }
      const confirmed = await t.call(accountCalls.confirmEmail, { body: { Token }, token: opener });
      expect(confirmed.body.code, kind).toBe(200);
      expect((await t.call(identity.sessions, { token })).status, kind).toBe(401);
      expect((await t.call(identity.sessions, { token: keeper.token })).status, kind).toBe(401);
      const open = await t.app.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.userId, user.Id), isNull(sessions.revokedAt)));
      expect(open, kind).toEqual([]);
    }
  });
});

describe('linked identities and deletion', () => {
  it('never removes the last way to log in, and no one else’s identity', async () => {
    const { token, user } = await login();
    const bind = async (provider: string) =>
      (
        await t.app.db
          .insert(externalAccounts)
          .values({ userId: user.Id, provider, subject: `${provider}-${user.Id}`, displayName: provider })
          .returning()
      )[0];
    // With a phone as well, an identity may go.
    expect((await t.call(identity.unbundleAccount, { params: { id: (await bind('qq')).id }, token })).body.code).toBe(200);
    // Without a phone, the only identity left may not.
    await t.app.db.update(users).set({ phone: null }).where(eq(users.id, user.Id));
    const last = await bind('steam');
    const refused = await t.call(identity.unbundleAccount, { params: { id: last.id }, token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("This is the last way to log in to your account, so it can't be removed. Bind a phone number or another account first.");
    expect((await t.call(identity.unbundleAccount, { params: { id: last.id }, token: (await login()).token })).status).toBe(404);
  });

  it('deletes an account after its code, ends its tokens at once and frees its phone', async () => {
    const first = await login();
    const second = await login(first.phone);
    expect((await t.call(accountCalls.deleteAccount, { body: {}, token: first.token })).body.message).toBe(
      'Please enter the code we sent you, or your password.',
    );
    expect((await t.call(accountCalls.deleteAccount, { body: { Password: 'no password set' }, token: first.token })).body.code).toBe(ErrorCode.PasswordWrong);
    await ageCodes(first.phone);
    await t.call(accountCalls.sendOwnCode, { body: { Channel: 'sms' }, token: first.token });
    const deleted = await t.call(accountCalls.deleteAccount, { body: { Code: await lastCode(first.phone) }, token: first.token });
    expect(deleted.body).toMatchObject({ code: 200, message: 'Your account has been deleted.' });
    expect((await t.call(identity.sessions, { token: first.token })).status).toBe(401);
    expect((await t.call(identity.sessions, { token: second.token })).status).toBe(401);
    expect(await t.app.db.select().from(users).where(eq(users.id, first.user.Id))).toEqual([]);
    // Its codes went with it: the number gets a new code at once.
    expect((await t.call(identity.sendSmsCode, { body: { Phone: first.phone } })).status).toBe(200);
    const again = await login(first.phone);
    expect(again.user.Id).not.toBe(first.user.Id);
    expect(again.user.NickName).toMatch(/^Beacon-/);
  });
});
