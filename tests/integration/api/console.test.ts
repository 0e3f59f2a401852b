/**
 * The operators' console's sign-in and commands (contract/console.ts): an
 * operator enrols an authenticator and signs in with its codes (never the
 * same one twice) or a recovery code (once each); the console session lives in
 * an http-only cookie, ends when idle, old, signed out, when its login ends or
 * its role goes; a state-changing call needs the session's CSRF value and is
 * refused from another site; every command is allowed from its role up and
 * refused below it; a support user cannot refund past the limit; and what the
 * console does is audited as the console user, from their address.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCalls } from '#contract/account.ts';
import { operatorRoles, type OperatorRole } from '#contract/admin.ts';
import { parseWords } from '#contract/command.ts';
import { operatorCommands, type AnyCommandResult } from '#contract/commands.ts';
import type { Order } from '#contract/commerce.ts';
import { commerceCalls } from '#contract/commerce.ts';
import { consoleCalls, consoleCsrfHeader, consoleSessionLimits, roleIncludes } from '#contract/console.ts';
import { ErrorCode } from '#contract/errors.ts';
import { identity } from '#contract/identity.ts';
import { localeCodes } from '#contract/locales.ts';
import { raffleCommands } from '#contract/commands/raffle.ts';
import type { LocalizedText, RaffleDefinition } from '#contract/raffle.ts';
import { runCommand } from '../../../server/admin-command.ts';
import { shellActor } from '../../../server/db/audit.ts';
import {
  auditLog,
  cdkeyBatches,
  consoleFactors,
  consoleSessions,
  donations,
  orders,
  products,
  raffleEntries,
  raffles,
  refunds,
} from '../../../server/db/schema.ts';
import { message } from '../../../server/i18n/messages.ts';
import { demoProducts } from '../../../server/modules/commerce/catalogue.ts';
import { changeBalance } from '../../../server/modules/commerce/wallet.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { ageCodes, lastCode, loginBySms, sendSms } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;

beforeAll(async () => {
  t = await startApp({ SUPPORT_REFUND_LIMIT_FEN: '3000' });
  await t.app.db.insert(products).values(demoProducts);
});
afterAll(() => t.close());

/** A command at the server's shell, as `npm run admin` runs it: its words parsed into the declared arguments. */
async function shell(...words: string[]): Promise<AnyCommandResult> {
  const { command, args } = parseWords(operatorCommands, words);
  return (await runCommand(t.app, command.name, args, { actor: shellActor('root@shop', null), locale: 'en', attachment: null }, null)) as AnyCommandResult;
}

async function customer() {
  const phone = `1370000${String(++phoneSeq).padStart(4, '0')}`;
  const login = await loginBySms(t, phone, `device-${phoneSeq}`);
  return { phone, token: login.AccessToken, userId: login.User.Id };
}

/** A fresh account code to the user's own phone (or `to`, their e-mail), as the console's enrolment step sends and the operator reads it. */
async function ownCode(user: { phone: string; token: string }, to: { Channel: 'sms' | 'email'; address: string } = { Channel: 'sms', address: user.phone }) {
  await ageCodes(t, to.address);
  expect((await t.call(accountCalls.sendOwnCode, { token: user.token, body: { Channel: to.Channel } })).body.code).toBe(200);
  return lastCode(t, to.address);
}

/** The user's authenticator as stored, if any. */
const factorOf = async (userId: number) => (await t.app.db.select().from(consoleFactors).where(eq(consoleFactors.userId, userId)))[0];

/** The current code of the user's authenticator, as their phone shows it. */
async function currentCode(userId: number): Promise<string> {
  const [factor] = await t.app.db
    .select()
    .from(consoleFactors)
    .where(sql`${consoleFactors.userId} = ${userId}`);
  return generate({ secret: factor.secret });
}

/** Lets the next sign-in use the current step again (a real operator waits the 30 s for the next code). */
const forgetLastStep = (userId: number) => t.app.db.execute(sql`update console_factors set last_time_step = null where user_id = ${userId}`);

/** The console session's cookie, as the browser sends it back. */
function cookieOf(headers: Record<string, unknown>): string {
  const set = [headers['set-cookie']].flat().find((value) => typeof value === 'string' && value.startsWith('beacon_console=')) as string;
  return set.split(';')[0];
}

interface Operator {
  userId: number;
  token: string;
  cookie: string;
  csrf: string;
  recoveryCodes: string[];
}

/** A customer given a role at the shell, enrolled and signed in at the console. */
async function operator(role: OperatorRole): Promise<Operator> {
  const user = await customer();
  await shell('role', 'grant', String(user.userId), role);
  expect((await t.call(consoleCalls.enrol, { token: user.token, body: { Code: await ownCode(user) } })).body.code).toBe(200);
  const confirmed = await t.call(consoleCalls.confirm, { token: user.token, body: { Code: await currentCode(user.userId) } });
  expect(confirmed.body.code).toBe(200);
  return {
    userId: user.userId,
    token: user.token,
    cookie: cookieOf(confirmed.headers),
    csrf: confirmed.body.data.Session.Csrf,
    recoveryCodes: confirmed.body.data.RecoveryCodes,
  };
}

/** A console command as the console page sends it, its arguments written here as the shell's words; the answer's data is the command's result. */
async function run(who: Pick<Operator, 'cookie' | 'csrf'>, words: string[], headers: Record<string, string> = {}) {
  const { command, args } = parseWords(operatorCommands, words);
  const answer = await t.call(consoleCalls.run, {
    body: { Command: command.name, Args: args },
    headers: { cookie: who.cookie, [consoleCsrfHeader]: who.csrf, ...headers },
  });
  return answer as typeof answer & { body: { data: AnyCommandResult } };
}

describe('enrolling and signing in', () => {
  it.each([
    ['access', consoleCalls.access, {}],
    ['enrol', consoleCalls.enrol, { body: { Code: '123456' } }],
    ['confirm', consoleCalls.confirm, { body: { Code: '123456' } }],
    ['signIn', consoleCalls.signIn, { body: { Code: '123456' } }],
  ] as const)('%s refuses no token, an expired token and a revoked token with 401', (_, route, options) =>
    expectBadTokensRefused(t, route, options, async () => {
      const { token, userId } = await customer();
      return { token, userId };
    }),
  );

  it('tells a customer without a role so, and lets them enrol nothing', async () => {
    const { token } = await customer();
    expect((await t.call(consoleCalls.access, { token })).body.data).toEqual({ Role: null, Enrolled: false, EnrolTo: null, LockedUntil: null });
    const enrol = await t.call(consoleCalls.enrol, { token, body: { Code: '123456' } });
    expect(enrol.status).toBe(403);
    expect(enrol.body).toMatchObject({ code: ErrorCode.ConsoleForbidden, message: 'Your account’s console role does not allow this.' });
  });

  it('enrols an authenticator, shows the recovery codes once, and opens a console session in an http-only, same-site cookie', async () => {
    const user = await customer();
    await shell('role', 'grant', String(user.userId), 'support');
    expect((await t.call(consoleCalls.access, { token: user.token })).body.data).toEqual({
      Role: 'support',
      Enrolled: false,
      EnrolTo: { Channel: 'sms', To: `${user.phone.slice(0, 3)}****${user.phone.slice(-4)}` },
      LockedUntil: null,
    });

    const enrolled = await t.call(consoleCalls.enrol, { token: user.token, body: { Code: await ownCode(user) } });
    expect(enrolled.body.data.Uri).toMatch(/^otpauth:\/\/totp\/Beacon%20Toolkit%20console:(%2B)?\d+\?secret=[A-Z2-7]+&issuer=Beacon%20Toolkit%20console/);
    const wrong = await t.call(consoleCalls.confirm, { token: user.token, body: { Code: '000000' } });
    expect(wrong.body.code).toBe(ErrorCode.ConsoleCodeInvalid);

    const confirmed = await t.call(consoleCalls.confirm, { token: user.token, body: { Code: await currentCode(user.userId) } });
    expect(confirmed.body.data.RecoveryCodes).toHaveLength(consoleSessionLimits.recoveryCodes);
    expect(new Set(confirmed.body.data.RecoveryCodes).size).toBe(consoleSessionLimits.recoveryCodes);
    expect(confirmed.body.data.RecoveryCodes[0]).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){4}$/);
    expect(confirmed.body.data.Session).toMatchObject({ UserId: user.userId, Role: 'support' });
    const setCookie = String([confirmed.headers['set-cookie']].flat()[0]);
    expect(setCookie).toMatch(/^beacon_console=[\w-]+; Path=\/api\/console; HttpOnly; SameSite=Strict$/);
    expect((await t.call(consoleCalls.access, { token: user.token })).body.data).toEqual({ Role: 'support', Enrolled: true, EnrolTo: null, LockedUntil: null });

    // Once confirmed, the authenticator stays until an admin resets it: a thief with the login cannot swap in theirs.
    expect((await t.call(consoleCalls.enrol, { token: user.token, body: { Code: await ownCode(user) } })).body.code).toBe(ErrorCode.ConsoleEnrolled);
    // A lost phone: an admin resets it (audited), and the operator enrols anew; the old recovery codes are gone with it.
    expect(await shell('role', 'reset-factor', String(user.userId))).toEqual({
      command: 'role reset-factor',
      key: String(user.userId),
      userId: user.userId,
      reset: true,
    });
    expect((await t.call(consoleCalls.access, { token: user.token })).body.data).toMatchObject({ Role: 'support', Enrolled: false });
    const recoveryAfterReset = await t.call(consoleCalls.signIn, { token: user.token, body: { RecoveryCode: confirmed.body.data.RecoveryCodes[0] } });
    expect(recoveryAfterReset.body.code).toBe(ErrorCode.ConsoleCodeInvalid);
    // The login alone (a stolen session) cannot enrol after a reset either: a fresh code to the phone can.
    expect((await t.call(consoleCalls.enrol, { token: user.token, body: {} })).body.code).toBe(ErrorCode.BadRequest);
    expect((await t.call(consoleCalls.enrol, { token: user.token, body: { Code: '123456' } })).body.code).toBe(ErrorCode.CodeInvalid);
    expect(await factorOf(user.userId)).toBeUndefined();
    expect((await t.call(consoleCalls.enrol, { token: user.token, body: { Code: await ownCode(user) } })).body.code).toBe(200);
    expect(await shell('audit', 'list', '--action', 'role reset-factor')).toMatchObject({
      rows: [{ target: `user ${user.userId}`, actor: "root@shop (operators' command)" }],
    });
  });

  it('never takes the same code twice, takes each recovery code once in any case and spacing, and audits every sign-in', async () => {
    const op = await operator('support');
    const code = await currentCode(op.userId);
    const replayed = await t.call(consoleCalls.signIn, { token: op.token, body: { Code: code } });
    expect(replayed.body.code).toBe(ErrorCode.ConsoleCodeInvalid);
    await forgetLastStep(op.userId);
    expect((await t.call(consoleCalls.signIn, { token: op.token, body: { Code: code } })).body.code).toBe(200);

    const recovery = op.recoveryCodes[3];
    const typed = recovery.toLowerCase().replaceAll('-', '');
    const first = await t.call(consoleCalls.signIn, { token: op.token, body: { RecoveryCode: typed } });
    expect(first.body.data).toMatchObject({ UserId: op.userId, Role: 'support' });
    expect((await t.call(consoleCalls.signIn, { token: op.token, body: { RecoveryCode: recovery } })).body.code).toBe(ErrorCode.ConsoleCodeInvalid);
    // Another operator's recovery code is no use either.
    const other = await operator('support');
    expect((await t.call(consoleCalls.signIn, { token: op.token, body: { RecoveryCode: other.recoveryCodes[0] } })).body.code).toBe(
      ErrorCode.ConsoleCodeInvalid,
    );

    const audit = await shell('audit', 'list', '--action', 'console sign-in', '--size', '200');
    if (audit.command !== 'audit list') throw new Error('not an audit list');
    expect(audit.rows.filter((line) => line.actorUserId === op.userId).map((line) => line.after)).toEqual([
      { with: 'recovery code' },
      { with: 'code' },
      { with: 'a new authenticator' },
    ]);
  });

  it('refuses two sign-ins racing with the same code but one', async () => {
    const op = await operator('support');
    await forgetLastStep(op.userId);
    const code = await currentCode(op.userId);
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.call(consoleCalls.signIn, { token: op.token, body: { Code: code } })));
    expect(answers.filter((answer) => answer.body.code === 200)).toHaveLength(1);
  });
});

describe('enrolling needs a fresh code to the operator’s own phone', () => {
  /** Another code than `code`: a wrong one, whatever `code` is. */
  const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('refuses no code, a wrong code, another account’s code and a login code, storing nothing; takes a fresh code of its own', async () => {
    const user = await customer();
    await shell('role', 'grant', String(user.userId), 'operator');
    const noCode = await t.call(consoleCalls.enrol, { token: user.token, body: {} });
    expect(noCode.body.code).toBe(ErrorCode.BadRequest);

    const code = await ownCode(user);
    const other = await customer();
    const othersCode = await ownCode(other);
    const loginCode = await sendSms(t, user.phone);
    for (const [why, Code] of [
      ['a wrong code', otherThan(code)],
      ['another account’s code', othersCode === code ? otherThan(code) : othersCode],
      ['a login code', loginCode === code ? otherThan(code) : loginCode],
    ] as const) {
      const refused = await t.call(consoleCalls.enrol, { token: user.token, body: { Code }, locale: 'ja' });
      expect(refused.body.code, why).toBe(ErrorCode.CodeInvalid);
      expect(await factorOf(user.userId), why).toBeUndefined();
    }

    const enrolled = await t.call(consoleCalls.enrol, { token: user.token, body: { Code: code } });
    expect(enrolled.body.data.Secret).toMatch(/^[A-Z2-7]+$/);
    expect((await factorOf(user.userId))?.secret).toBe(enrolled.body.data.Secret);
  });

  it('needs a new code to replace an enrolment not yet confirmed, and burns a code after its own tries', async () => {
    const user = await customer();
    await shell('role', 'grant', String(user.userId), 'support');
    const code = await ownCode(user);
    const first = await t.call(consoleCalls.enrol, { token: user.token, body: { Code: code } });
    expect(first.body.code).toBe(200);
    // The same code again (used up) replaces nothing.
    expect((await t.call(consoleCalls.enrol, { token: user.token, body: { Code: code } })).body.code).toBe(ErrorCode.CodeInvalid);
    expect((await factorOf(user.userId))?.secret).toBe(first.body.data.Secret);

    const next = await ownCode(user);
    const tries = Array.from({ length: 5 }, () => t.call(consoleCalls.enrol, { token: user.token, body: { Code: otherThan(next) } }));
    expect((await Promise.all(tries)).map((answer) => answer.body.code).sort()).toEqual([...Array(4).fill(ErrorCode.CodeInvalid), ErrorCode.CodeBurned].sort());
    expect((await t.call(consoleCalls.enrol, { token: user.token, body: { Code: next } })).body.code).toBe(ErrorCode.CodeInvalid);
    expect((await factorOf(user.userId))?.secret).toBe(first.body.data.Secret);

    const replaced = await t.call(consoleCalls.enrol, { token: user.token, body: { Code: await ownCode(user) } });
    expect(replaced.body.code).toBe(200);
    expect((await factorOf(user.userId))?.secret).toBe(replaced.body.data.Secret);
    expect(replaced.body.data.Secret).not.toBe(first.body.data.Secret);
  });

  it('lets a racing pair of enrolments with one code store one secret', async () => {
    const user = await customer();
    await shell('role', 'grant', String(user.userId), 'support');
    const code = await ownCode(user);
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.call(consoleCalls.enrol, { token: user.token, body: { Code: code } })));
    const won = answers.filter((answer) => answer.body.code === 200);
    expect(won).toHaveLength(1);
    expect((await factorOf(user.userId))?.secret).toBe(won[0].body.data.Secret);
  });

  it('sends the code to the e-mail of an account without a phone, and tells an account with neither to add a phone first', async () => {
    const user = await customer();
    await shell('role', 'grant', String(user.userId), 'support');
    const email = `ops-${user.userId}@example.com`;
    await t.app.db.execute(sql`update users set phone = null, email = ${email} where id = ${user.userId}`);
    expect((await t.call(consoleCalls.access, { token: user.token })).body.data).toMatchObject({ EnrolTo: { Channel: 'email', To: email } });
    const code = await ownCode(user, { Channel: 'email', address: email });
    expect((await t.call(consoleCalls.enrol, { token: user.token, body: { Code: code } })).body.code).toBe(200);

    const bare = await customer();
    await shell('role', 'grant', String(bare.userId), 'support');
    await t.app.db.execute(sql`update users set phone = null, email = null where id = ${bare.userId}`);
    expect((await t.call(consoleCalls.access, { token: bare.token })).body.data).toMatchObject({ Enrolled: false, EnrolTo: null });
    const refused = await t.call(consoleCalls.enrol, { token: bare.token, body: { Code: '123456' }, locale: 'en' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: ErrorCode.ConsoleContactMissing, message: expect.stringMatching(/add a phone number/i) });
    expect(await factorOf(bare.userId)).toBeUndefined();
  });
});

describe('guessing the second factor', () => {
  const { lockAfterFailures, lockoutMs } = consoleSessionLimits;

  /** Six-digit codes the user's authenticator shows neither now nor one step either side. */
  async function wrongCodes(userId: number, count: number): Promise<string[]> {
    const { secret } = (await factorOf(userId))!;
    const now = Math.floor(Date.now() / 1000);
    const valid = new Set(await Promise.all([-60, -30, 0, 30, 60].map((shift) => generate({ secret, epoch: now + shift }))));
    const codes: string[] = [];
    for (let n = 0; codes.length < count; n += 7919) {
      const code = String(n % 1_000_000).padStart(6, '0');
      if (!valid.has(code)) codes.push(code);
    }
    return codes;
  }

  const lockouts = async (userId: number) => {
    const audit = await shell('audit', 'list', '--target', `user ${userId}`, '--size', '200');
    if (audit.command !== 'audit list') throw new Error('not an audit list');
    return audit.rows.filter((line) => line.action === 'console lockout' || line.action === 'role unlock');
  };

  it('locks the account after a few wrong codes in a row from 50 addresses at once, refuses even a right code until the lock lifts, and audits it', async () => {
    const op = await operator('support');
    await forgetLastStep(op.userId);
    const guesses = await wrongCodes(op.userId, 50);
    const answers = await Promise.all(
      guesses.map((Code, i) => t.call(consoleCalls.signIn, { token: op.token, body: { Code }, ip: `10.43.${Math.floor(i / 200)}.${(i % 200) + 1}` })),
    );
    const codes = answers.map((answer) => answer.body.code);
    expect(codes.filter((code) => code === ErrorCode.ConsoleCodeInvalid)).toHaveLength(lockAfterFailures - 1);
    expect(codes.filter((code) => code === ErrorCode.ConsoleLocked)).toHaveLength(50 - lockAfterFailures + 1);
    const factor = (await factorOf(op.userId))!;
    expect(factor.failedTries).toBe(lockAfterFailures);
    expect(factor.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + lockoutMs - 60_000);
    expect(factor.lockedUntil!.getTime()).toBeLessThanOrEqual(Date.now() + lockoutMs);

    // Even the right code: refused in the reader's language, saying when to try again.
    const right = await t.call(consoleCalls.signIn, { token: op.token, body: { Code: await currentCode(op.userId) }, locale: 'ru' });
    expect(right.status).toBe(429);
    expect(right.body.code).toBe(ErrorCode.ConsoleLocked);
    expect(right.body.message).toMatch(/\d+ мин/);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(lockoutMs / 1000 - 60);
    expect((await t.call(consoleCalls.access, { token: op.token })).body.data).toMatchObject({ Enrolled: true, LockedUntil: factor.lockedUntil!.getTime() });
    expect(await shell('role', 'list')).toMatchObject({
      operators: expect.arrayContaining([expect.objectContaining({ userId: op.userId, lockedUntil: factor.lockedUntil!.toISOString() })]),
    });
    const [lockout, ...more] = await lockouts(op.userId);
    expect(more).toEqual([]);
    expect(lockout).toMatchObject({
      actorUserId: op.userId,
      address: expect.stringMatching(/^10\.43\./),
      before: { failedTries: lockAfterFailures - 1 },
      after: { failedTries: lockAfterFailures, lockedUntil: factor.lockedUntil!.toISOString() },
    });

    // The lock lifts by time; a right code then signs in and clears the count.
    await t.app.db.execute(sql`update console_factors set locked_until = now() - interval '1 second' where user_id = ${op.userId}`);
    expect((await t.call(consoleCalls.signIn, { token: op.token, body: { Code: await currentCode(op.userId) } })).body.code).toBe(200);
    expect(await factorOf(op.userId)).toMatchObject({ failedTries: 0, lockedUntil: null });
    expect((await shell('role', 'list')) as unknown).toMatchObject({
      operators: expect.arrayContaining([expect.objectContaining({ userId: op.userId, lockedUntil: null })]),
    });
  });

  it('counts wrong recovery codes too, and an admin unlocks the account, audited', async () => {
    const op = await operator('operator');
    const guesses = Array.from({ length: lockAfterFailures }, (_, i) => `WRONG-CODE-${String(i).padStart(4, '0')}-XXXX`);
    const answers = [];
    for (const RecoveryCode of guesses) answers.push((await t.call(consoleCalls.signIn, { token: op.token, body: { RecoveryCode } })).body.code);
    expect(answers).toEqual([...Array(lockAfterFailures - 1).fill(ErrorCode.ConsoleCodeInvalid), ErrorCode.ConsoleLocked]);
    const recovery = await t.call(consoleCalls.signIn, { token: op.token, body: { RecoveryCode: op.recoveryCodes[0] } });
    expect(recovery.body.code).toBe(ErrorCode.ConsoleLocked);

    const admin = await operator('admin');
    expect((await run(admin, ['role', 'unlock', String(op.userId)])).body.data).toEqual({
      command: 'role unlock',
      key: String(op.userId),
      userId: op.userId,
      unlocked: true,
    });
    expect(await factorOf(op.userId)).toMatchObject({ failedTries: 0, lockedUntil: null });
    // The recovery code tried while locked was not used up.
    expect((await t.call(consoleCalls.signIn, { token: op.token, body: { RecoveryCode: op.recoveryCodes[0] } })).body.code).toBe(200);
    expect((await run(admin, ['role', 'unlock', String(op.userId)])).body.data).toMatchObject({ unlocked: false });
    expect((await run(op, ['role', 'unlock', String(admin.userId)])).body.code).toBe(ErrorCode.ConsoleForbidden);
    expect((await lockouts(op.userId)).map((line) => [line.action, line.actorUserId])).toEqual([
      ['role unlock', admin.userId],
      ['console lockout', op.userId],
    ]);
  });

  it('counts wrong codes when confirming a new authenticator, and keeps counting after a lock lifts by time', async () => {
    const user = await customer();
    await shell('role', 'grant', String(user.userId), 'support');
    expect((await t.call(consoleCalls.enrol, { token: user.token, body: { Code: await ownCode(user) } })).body.code).toBe(200);
    const guesses = await wrongCodes(user.userId, lockAfterFailures + 1);
    const answers = await Promise.all(guesses.map((Code) => t.call(consoleCalls.confirm, { token: user.token, body: { Code } })));
    expect(answers.filter((answer) => answer.body.code === ErrorCode.ConsoleLocked)).toHaveLength(2);
    expect((await t.call(consoleCalls.confirm, { token: user.token, body: { Code: await currentCode(user.userId) } })).body.code).toBe(ErrorCode.ConsoleLocked);
    // Replacing the unconfirmed authenticator keeps the lock: a new secret is no new set of guesses.
    expect((await t.call(consoleCalls.enrol, { token: user.token, body: { Code: await ownCode(user) } })).body.code).toBe(200);
    expect((await factorOf(user.userId))?.lockedUntil).not.toBeNull();

    // Once the lock lifts by time, one more wrong code locks again: a guesser gets one try a lockout.
    await t.app.db.execute(sql`update console_factors set locked_until = now() - interval '1 second' where user_id = ${user.userId}`);
    const [again] = await wrongCodes(user.userId, 1);
    expect((await t.call(consoleCalls.confirm, { token: user.token, body: { Code: again } })).body.code).toBe(ErrorCode.ConsoleLocked);
    expect(await factorOf(user.userId)).toMatchObject({ failedTries: lockAfterFailures + 1 });
    await t.app.db.execute(sql`update console_factors set locked_until = now() - interval '1 second' where user_id = ${user.userId}`);
    expect((await t.call(consoleCalls.confirm, { token: user.token, body: { Code: await currentCode(user.userId) } })).body.code).toBe(200);
    expect(await factorOf(user.userId)).toMatchObject({ failedTries: 0, lockedUntil: null });
  });
});

describe('the console session', () => {
  it('refuses a call without the session, or with one that ended in any way', async () => {
    const none = await t.call(consoleCalls.run, { body: { Command: ['users', 'list'] } });
    expect(none.status).toBe(403);
    expect(none.body).toMatchObject({ code: ErrorCode.ConsoleSignIn, message: 'Please sign in to the console again: your console session has ended.' });
    expect((await run({ cookie: 'beacon_console=made-up', csrf: 'x' }, ['users', 'list'])).body.code).toBe(ErrorCode.ConsoleSignIn);

    const ends: Array<[string, (op: Operator) => Promise<unknown>]> = [
      [
        'signed out',
        async (op) => expect((await t.call(consoleCalls.signOut, { headers: { cookie: op.cookie, [consoleCsrfHeader]: op.csrf } })).body.code).toBe(200),
      ],
      [
        'left idle',
        (op) =>
          t.app.db.execute(
            sql`update console_sessions set last_seen_at = now() - ${`${consoleSessionLimits.idleMs + 1000} milliseconds`}::interval where user_id = ${op.userId}`,
          ),
      ],
      ['too old', (op) => t.app.db.execute(sql`update console_sessions set expires_at = now() - interval '1 second' where user_id = ${op.userId}`)],
      ['its login ended', (op) => t.call(identity.logout, { token: op.token })],
      ['its role was taken away', (op) => shell('role', 'revoke', String(op.userId))],
    ];
    for (const [why, end] of ends) {
      const op = await operator('operator');
      expect((await run(op, ['users', 'list'])).body.code).toBe(200);
      await end(op);
      expect((await run(op, ['users', 'list'])).body.code, why).toBe(ErrorCode.ConsoleSignIn);
    }
  });

  it('keeps a session in use alive, and gives a new tab its CSRF value on a read', async () => {
    const op = await operator('support');
    await t.app.db.execute(sql`update console_sessions set last_seen_at = now() - interval '14 minutes' where user_id = ${op.userId}`);
    expect((await run(op, ['users', 'list'])).body.code).toBe(200);
    const session = await t.call(consoleCalls.session, { headers: { cookie: op.cookie } });
    expect(session.body.data).toMatchObject({ UserId: op.userId, Role: 'support', Csrf: op.csrf });
    expect(session.body.data.ExpiresAt).toBeGreaterThan(Date.now() + consoleSessionLimits.lifetimeMs - 60_000);
  });

  it('counts the session check the console’s “stay signed in” makes as use, once the last use is older than the slack the page allows for', async () => {
    const op = await operator('support');
    const lastSeen = async () =>
      (await t.app.db.select({ at: consoleSessions.lastSeenAt }).from(consoleSessions).where(eq(consoleSessions.userId, op.userId)))[0].at.getTime();
    const ago = (ms: number) =>
      t.app.db.execute(sql`update console_sessions set last_seen_at = now() - ${`${ms} milliseconds`}::interval where user_id = ${op.userId}`);
    // In the warning, the page's last call is long past the slack: the check writes the last use again, a whole idle period on.
    const { idleMs, idleWarningMs, lastUseSlackMs } = consoleSessionLimits;
    await ago(idleMs - idleWarningMs);
    const before = Date.now();
    expect((await t.call(consoleCalls.session, { headers: { cookie: op.cookie } })).body.code).toBe(200);
    expect(await lastSeen()).toBeGreaterThanOrEqual(before - 1000);
    // Within the slack it is not written (the page counts its idle end that much early for it).
    await ago(lastUseSlackMs - 5000);
    const within = await lastSeen();
    expect((await t.call(consoleCalls.session, { headers: { cookie: op.cookie } })).body.code).toBe(200);
    expect(await lastSeen()).toBe(within);
  });

  it('refuses a state-changing call without the CSRF value, with another session’s, or from another site', async () => {
    const op = await operator('admin');
    const other = await operator('admin');
    const tries: Array<[string, Record<string, string>]> = [
      ['no CSRF value', { [consoleCsrfHeader]: '' }],
      ['another session’s', { [consoleCsrfHeader]: other.csrf }],
      ['from another site', { 'sec-fetch-site': 'cross-site' }],
    ];
    for (const [why, headers] of tries) {
      const answer = await run(op, ['role', 'grant', String(other.userId), 'support'], headers);
      expect(answer.status, why).toBe(403);
      expect(answer.body.code, why).toBe(ErrorCode.ConsoleCrossSite);
    }
    // Nothing happened: the other admin is still an admin, and no grant was audited.
    expect(await shell('role', 'list')).toMatchObject({
      operators: expect.arrayContaining([expect.objectContaining({ userId: other.userId, role: 'admin' })]),
    });
    expect((await run(op, ['role', 'list'], { 'sec-fetch-site': 'same-origin' })).body.code).toBe(200);
  });
});

describe('who may run what', () => {
  it('runs every console command from its role up and refuses it below, and runs shell-only commands for nobody', async () => {
    const signedIn = Object.fromEntries(await Promise.all(operatorRoles.map(async (role) => [role, await operator(role)] as const))) as Record<
      OperatorRole,
      Operator
    >;
    expect(operatorCommands.filter((command) => command.role).length).toBeGreaterThan(30);
    for (const command of operatorCommands) {
      for (const role of operatorRoles) {
        // No arguments: allowed, it runs or is refused for the arguments it lacks (400); not allowed, it is refused before that.
        const answer = await send(signedIn[role], command.name, {});
        const allowed = command.role !== undefined && !command.local && roleIncludes(role, command.role);
        const expected = allowed ? [200, ErrorCode.BadRequest] : command.role ? [ErrorCode.ConsoleForbidden] : [ErrorCode.BadRequest];
        expect(expected, `${role} running "${command.name}" got ${answer.body.code}`).toContain(answer.body.code);
      }
    }
    await shell('maintenance', 'off');
  });
});

describe('a customer’s sessions', () => {
  it('lets an operator sign a customer’s device out: its token stops working, and the audit log says who did it', async () => {
    const op = await operator('operator');
    const buyer = await customer();
    const shown = await run(op, ['users', 'show', String(buyer.userId)]);
    if (shown.body.data.command !== 'users show' || !shown.body.data.user) throw new Error('no user');
    const [session] = shown.body.data.user.activeSessions;
    // The server has just checked the token, and remembers it: ending the session forgets it at once.
    expect((await t.call(identity.sessions, { token: buyer.token })).status).toBe(200);
    expect((await run(op, ['session', 'end', session.id])).body.data).toEqual({ command: 'session end', sessionId: session.id, userId: buyer.userId });
    expect((await t.call(identity.sessions, { token: buyer.token })).status).toBe(401);
    expect((await run(op, ['session', 'end', session.id])).body.data).toMatchObject({ userId: null });
    const audit = await shell('audit', 'list', '--action', 'session end');
    expect(audit).toMatchObject({ rows: [{ actorUserId: op.userId, target: `user ${buyer.userId}`, before: { session: session.id } }] });
  });
});

describe('the audit log', () => {
  it('has every change a console user makes, under their name and address, with the record before and after', async () => {
    const op = await operator('operator');
    const batch = `audit-${op.userId}`;
    const changes: string[][] = [
      ['maintenance', 'on'],
      ['maintenance', 'off'],
      ['status', 'set', 'github', 'degraded', '--note', 'Slow in the south'],
      ['cdkey', 'create', '--batch', batch, '--count', '2', '--grants', 'wallet:500'],
      ['cdkey', 'export', batch],
      ['cdkey', 'revoke', '--batch', batch],
      ['product', 'set', 'audit-plan', '--kind', 'membership', '--months', '1', '--price', '600'],
      ['idle', 'set', String(op.userId), '--state', 'Paused'],
    ];
    for (const words of changes) expect((await run(op, words)).body.code, words.join(' ')).toBe(200);
    expect((await run(op, ['maintenance', 'status'])).body.code).toBe(200);
    const audit = await shell('audit', 'list', '--size', '200');
    if (audit.command !== 'audit list') throw new Error('not an audit list');
    const mine = audit.rows.filter((line) => line.actorUserId === op.userId);
    expect(mine.map((line) => line.action).reverse()).toEqual([
      'console sign-in',
      'maintenance on',
      'maintenance off',
      'status set',
      'cdkey create',
      'cdkey export',
      'cdkey revoke',
      'product set',
      'idle set',
    ]);
    expect((await run(op, ['status', 'incidents'])).body.data).toMatchObject({ incidents: [{ Key: 'github', State: 'degraded', Previous: 'up' }] });
    expect(mine.find((line) => line.action === 'status set')).toMatchObject({
      target: 'service github',
      after: { state: 'degraded', note: { Texts: { en: 'Slow in the south' } } },
    });
    expect(mine.find((line) => line.action === 'maintenance on')).toMatchObject({ before: { maintenance: false }, after: { maintenance: true } });
    expect(mine.find((line) => line.action === 'cdkey revoke')).toMatchObject({ target: `batch ${batch}`, after: { revoked: 2 } });
    // Reading writes nothing.
    expect(mine.filter((line) => line.action === 'maintenance status')).toEqual([]);
    // Found by record, and sorted oldest first a page at a time.
    const byRecord = await run(op, ['audit', 'list', '--target', `batch ${batch}`]);
    expect(byRecord.body.code).toBe(ErrorCode.ConsoleForbidden);
    const found = await shell('audit', 'list', '--target', `batch ${batch}`);
    if (found.command !== 'audit list') throw new Error('not an audit list');
    expect(found.rows.map((line) => line.action)).toEqual(['cdkey revoke', 'cdkey export', 'cdkey create']);
    const older = await shell('audit', 'list', '--target', `batch ${batch}`, '--sort', 'at', '--asc', '--size', '2');
    expect(older).toMatchObject({ rows: [{ action: 'cdkey create' }, { action: 'cdkey export' }], total: 3, page: 1, size: 2 });
  });
});

/** A command as a console page sends it: its name, its arguments (as they are, checked by the server alone) and a file, from a page in `locale`. */
const send = (op: Pick<Operator, 'cookie' | 'csrf'>, command: string, args: unknown, attachment?: Buffer, locale = 'en') =>
  t.call(consoleCalls.run, {
    body: { Command: command, Args: args, ...(attachment ? { Attachment: attachment.toString('base64') } : {}) },
    headers: { cookie: op.cookie, [consoleCsrfHeader]: op.csrf },
    locale,
  });

describe('raffles from the console', () => {
  const day = 86_400_000;
  const at = (fromNow: number) => new Date(Date.now() + fromNow).toISOString();
  const everywhere = (text: string) => Object.fromEntries(localeCodes.map((locale) => [locale, `${text} (${locale})`])) as LocalizedText;
  const definition = (opensIn: number): RaffleDefinition => ({
    Kind: 'registration',
    Title: everywhere('Console raffle'),
    Description: everywhere('Made at the console.'),
    Prizes: [{ Name: everywhere('CN¥5'), Quantity: 1, Grant: { Kind: 'wallet', Amount: 500 } }],
    OpensAt: at(opensIn),
    ClosesAt: at(opensIn + day),
    DrawAt: at(opensIn + day),
    PublicSource: everywhere('The next lottery draw'),
  });
  const raffleCount = async () => (await t.app.db.select({ id: raffles.id }).from(raffles)).length;

  it('makes a raffle from its definition and an uploaded cover, opens it early, closes it, enters the value and draws it, each audited', async () => {
    const op = await operator('operator');
    const cover = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const made = await send(op, 'raffle create', { definition: definition(day) }, cover);
    expect(made.body.data).toMatchObject({ command: 'raffle create', refused: null, raffle: { state: 'upcoming', title: 'Console raffle (en)' } });
    const id = raffleCommands.create.result.parse(made.body.data).raffle!.id;
    const [row] = await t.app.db
      .select({ cover: raffles.cover })
      .from(raffles)
      .where(sql`${raffles.id} = ${id}`);
    expect(row.cover).toMatch(/^[0-9a-f]{20}\.webp$/);

    expect((await send(op, 'raffle open', { id })).body.data).toMatchObject({ raffle: { state: 'open' }, refused: null });
    expect((await send(op, 'raffle close', { id })).body.data).toMatchObject({ raffle: { state: 'closed' } });
    expect((await send(op, 'raffle value', { id, value: ' 2026-12-03 draw: 01 02 03 ' })).body.data).toMatchObject({
      refused: null,
      raffle: { publicValue: '2026-12-03 draw: 01 02 03' },
    });
    expect((await send(op, 'raffle draw', { id })).body.data).toMatchObject({ raffle: { state: 'drawn' }, refused: null });

    const audit = await shell('audit', 'list', '--target', `raffle ${id}`);
    if (audit.command !== 'audit list') throw new Error('not an audit list');
    expect(audit.rows.map((line) => line.action).reverse()).toEqual(['raffle create', 'raffle open', 'raffle close', 'raffle value', 'raffle draw']);
    expect((await send(op, 'raffle entries', { id })).body.data).toEqual({ command: 'raffle entries', raffleId: id, entries: [] });
    expect((await send(op, 'raffle entries', { id: 999999 })).body.data).toMatchObject({ entries: null });
  });

  it('refuses a definition or arguments the command does not take (400), says what is wrong with a cover, and makes nothing', async () => {
    const op = await operator('operator');
    const before = await raffleCount();
    for (const args of [
      // The definition is the object itself: never JSON text, never the shell's words.
      { definition: JSON.stringify(definition(day)) },
      { definition: '{"Kind": ' },
      ['raffle', 'create', '--definition', JSON.stringify(definition(day))],
      { definition: { ...definition(day), PublicSource: undefined } },
      { definition: { ...definition(day), Title: { en: 'Only English' } } },
      { definition: { ...definition(day), Prizes: [] } },
      { definition: { ...definition(day), Owner: 'someone' } },
      {},
    ]) {
      const answer = await send(op, 'raffle create', args);
      expect(answer.body.code, JSON.stringify(args).slice(0, 80)).toBe(ErrorCode.BadRequest);
    }
    const badCover = await send(op, 'raffle create', { definition: definition(day) }, Buffer.from('not an image'));
    expect(badCover.body.data).toMatchObject({ raffle: null, refused: 'The cover is not a PNG, JPEG or WebP image.' });
    expect(await raffleCount()).toBe(before);

    // An id is a positive whole number, a public value one line of at most 200 characters.
    for (const [command, args] of [
      ['raffle show', { id: '1' }],
      ['raffle show', { id: 0 }],
      ['raffle open', { id: 1.5 }],
      ['raffle close', { id: 2_147_483_648 }],
      ['raffle entries', {}],
      ['raffle value', { id: 1, value: '' }],
      ['raffle value', { id: 1, value: 'x'.repeat(201) }],
      ['raffle value', { id: 1, value: 'two\nlines' }],
      ['raffle draw', { id: 1, publicValue: '   ' }],
      ['raffle draw', { id: 1, force: true }],
      ['raffle list', { all: true }],
      ['raffle entered', { user: '' }],
    ] as const) {
      expect((await send(op, command, args)).body.code, `${command} ${JSON.stringify(args)}`).toBe(ErrorCode.BadRequest);
    }
  });

  it('reads no path of the server’s: a file named as the shell names one is refused, and one named as a cover is never opened', async () => {
    const op = await operator('operator');
    const folder = mkdtempSync(path.join(tmpdir(), 'beacon-console-file-'));
    // A valid definition, and a FIFO with no writer: opening the FIFO would hang the server until a writer came.
    const file = path.join(folder, 'raffle.json');
    writeFileSync(file, JSON.stringify(definition(day)));
    const fifo = path.join(folder, 'endless');
    execFileSync('mkfifo', [fifo]);
    const before = await raffleCount();
    for (const target of [file, fifo, '/dev/zero', '/etc/passwd']) {
      for (const args of [{ file: target }, { definition: definition(day), file: target }, ['--file', target]]) {
        const answer = await send(op, 'raffle create', args);
        expect(answer.body.code, `${target} ${JSON.stringify(args).slice(0, 60)}`).toBe(ErrorCode.BadRequest);
      }
    }
    expect(await raffleCount()).toBe(before);
    // `Cover` names the CLI's image beside its file; from the console the image is the upload, and the name is never opened.
    const named = await send(op, 'raffle create', { definition: { ...definition(day), Cover: fifo } });
    expect(named.body.data).toMatchObject({ refused: null, raffle: { state: 'upcoming' } });
    const [row] = await t.app.db
      .select({ cover: raffles.cover })
      .from(raffles)
      .where(sql`${raffles.id} = ${raffleCommands.create.result.parse(named.body.data).raffle!.id}`);
    expect(row.cover).toBeNull();
  });
});

describe('arguments the console may not send to roles, the audit log and reviews', () => {
  it('refuses a role there is none of, a user that is no text, and options the commands do not have (400), and changes nothing', async () => {
    const admin = await operator('admin');
    const other = await customer();
    for (const [command, args] of [
      ['role grant', { user: String(other.userId), role: 'owner' }],
      ['role grant', { user: String(other.userId) }],
      ['role grant', { user: other.userId, role: 'support' }],
      ['role grant', { user: `${other.userId}\u0000`, role: 'support' }],
      ['role grant', [String(other.userId), 'support']],
      ['role revoke', { user: String(other.userId), role: 'support' }],
      ['role unlock', {}],
      ['role reset-factor', { user: 'x'.repeat(321) }],
      ['role list', { limit: 5 }],
      ['audit list', { size: 0 }],
      ['audit list', { size: 201 }],
      ['audit list', { page: '2' }],
      ['audit list', { page: 0 }],
      ['audit list', { action: '' }],
      ['audit list', { sort: 'address' }],
      ['audit export', { limit: 5 }],
    ] as const) {
      expect((await send(admin, command, args)).body.code, `${command} ${JSON.stringify(args)}`).toBe(ErrorCode.BadRequest);
    }
    expect(await shell('role', 'list')).not.toMatchObject({ operators: expect.arrayContaining([expect.objectContaining({ userId: other.userId })]) });
  });

  it('refuses a review id that is no id, a reason too long or on two lines, and options the commands do not have (400), and hides nothing', async () => {
    const op = await operator('operator');
    for (const [command, args] of [
      ['evaluation show', { id: '1' }],
      ['evaluation show', { id: 1, reason: 'why' }],
      ['evaluation hide', { id: 0 }],
      ['evaluation hide', { id: 1, reason: 'x'.repeat(501) }],
      ['evaluation hide', { id: 1, reason: 'two\nlines' }],
      ['evaluation hide', { id: 1, reason: '   ' }],
      ['evaluation unhide', { id: 1, hidden: false }],
      ['evaluation reported', { limit: 5 }],
    ] as const) {
      expect((await send(op, command, args)).body.code, `${command} ${JSON.stringify(args)}`).toBe(ErrorCode.BadRequest);
    }
    const audit = await shell('audit', 'list', '--action', 'evaluation hide');
    if (audit.command !== 'audit list') throw new Error('not an audit list');
    expect(audit.rows.filter((line) => line.actorUserId === op.userId)).toEqual([]);
  });
});

describe('refunds from the console', () => {
  async function paidOrder(price: number): Promise<{ order: Order; userId: number }> {
    const buyer = await customer();
    await t.app.db.transaction((tx) => changeBalance(tx, buyer.userId, 100_000, 'credit', null));
    const created = await t.call(commerceCalls.createOrder, { token: buyer.token, body: { Product: 'steam-cn', Amount: price, Target: '12345678' } });
    const paid = await t.call(commerceCalls.pay, { token: buyer.token, params: { key: created.body.data.Key }, body: { Method: 'wallet' } });
    expect(paid.body.data.Order.State).toBe('paid');
    return { order: paid.body.data.Order, userId: buyer.userId };
  }

  it('finds a customer by an order number, and shows their logins, wallet and orders with a timeline', async () => {
    const support = await operator('support');
    const { order, userId } = await paidOrder(1500);
    const shown = await run(support, ['users', 'show', order.Key]);
    expect(shown.body.data).toMatchObject({ command: 'users show', user: { id: userId, loginHistory: [{ Method: 'sms', Success: true }] } });
    expect((await run(support, ['users', 'show', '99999999999999999999'])).body.data).toMatchObject({ user: null });

    const wallet = await send(support, 'wallet show', { user: String(userId) });
    expect(wallet.body.data).toMatchObject({
      wallet: {
        balance: 100_000 - order.Price,
        planUntil: null,
        ledger: [
          { Delta: -order.Price, Reason: 'payment', Order: order.Key },
          { Delta: 100_000, Reason: 'credit' },
        ],
      },
    });

    const listed = await send(support, 'order list', { user: String(userId), method: 'wallet', state: 'paid' });
    expect(listed.body.data).toMatchObject({ rows: [{ Key: order.Key, UserId: userId }] });
    expect((await send(support, 'order list', { user: String(userId), method: 'wechatpay' })).body.data).toMatchObject({ rows: [], total: 0 });
    expect((await send(support, 'order list', { method: 'cash' })).body.code).toBe(ErrorCode.BadRequest);

    const today = new Date().toISOString().slice(0, 10);
    expect((await send(support, 'order list', { user: String(userId), since: today, until: today })).body.data).toMatchObject({
      rows: [{ Key: order.Key }],
    });
    expect((await send(support, 'order list', { user: String(userId), until: '2020-01-01' })).body.data).toMatchObject({ rows: [], total: 0 });
    expect((await send(support, 'cdkey redeemed', { user: String(userId) })).body.data).toEqual({
      command: 'cdkey redeemed',
      key: String(userId),
      userId,
      redemptions: [],
    });
    expect((await run(support, ['raffle', 'entered', String(userId)])).body.data).toEqual({
      command: 'raffle entered',
      key: String(userId),
      userId,
      entries: [],
    });
    expect((await run(support, ['raffle', 'entered', 'nobody@example.com'])).body.data).toMatchObject({ userId: null, entries: null });

    const detail = await send(support, 'order show', { order: order.Key });
    expect(detail.body.data).toMatchObject({
      order: { Key: order.Key, UserId: userId, State: 'paid', Timeline: [{ State: 'created' }, { State: 'paid', Source: 'wallet' }] },
    });
  });

  it('lets support refund up to the limit, in their language past it, and audits the refund as them, from their address', async () => {
    const support = await operator('support');
    const small = await paidOrder(1000);
    const large = await paidOrder(5000);
    expect(large.order.Price).toBeGreaterThan(3000);

    const refused = await t.call(consoleCalls.run, {
      body: { Command: 'order refund', Args: { order: large.order.Key } },
      headers: { cookie: support.cookie, [consoleCsrfHeader]: support.csrf },
      locale: 'ja',
    });
    expect(refused.body.data).toMatchObject({
      order: null,
      refused:
        'お使いのロールで1件の注文に返金できるのは、その注文のすべての返金を合わせて30元までです。この注文で残っているのは30元です。この返金はオペレーターに依頼してください。',
    });

    const refunded = await t.call(consoleCalls.run, {
      body: { Command: 'order refund', Args: { order: small.order.Key } },
      headers: { cookie: support.cookie, [consoleCsrfHeader]: support.csrf },
      ip: '10.9.8.7',
    });
    expect(refunded.body.data).toMatchObject({ order: { State: 'refunded' }, refused: null });

    const operatorUser = await operator('operator');
    expect((await send(operatorUser, 'order refund', { order: large.order.Key })).body.data).toMatchObject({ order: { State: 'refunded' } });

    const audit = await shell('audit', 'list', '--action', 'order refund');
    if (audit.command !== 'audit list') throw new Error('not an audit list');
    expect(audit.rows.filter((line) => line.target === `order ${small.order.Key}` || line.target === `order ${large.order.Key}`)).toMatchObject([
      { actorUserId: operatorUser.userId, target: `order ${large.order.Key}`, after: { refund: `${large.order.Key}R1`, amount: large.order.Price } },
      {
        actor: expect.stringMatching(new RegExp(`\\(user ${support.userId}, support\\)$`)),
        actorUserId: support.userId,
        address: '10.9.8.7',
        before: { state: 'paid', refundable: small.order.Price },
        after: { refund: `${small.order.Key}R1`, amount: small.order.Price, to: 'wallet' },
      },
    ]);
  });

  it('shows support a refund WeChat Pay reported abnormal, and lets only an operator resolve it', async () => {
    const support = await operator('support');
    const operatorUser = await operator('operator');
    const { order } = await paidOrder(1000);
    const refundNo = `${order.Key}R1`;
    // As WeChat Pay's ABNORMAL leaves it (refunds.test.ts runs the whole way there through the sandbox).
    const [{ id }] = await t.app.db.select({ id: orders.id }).from(orders).where(eq(orders.key, order.Key));
    await t.app.db.insert(refunds).values({ refundNo, orderId: id, amount: 1000, destination: 'original', state: 'abnormal', actor: 'ops' });
    expect((await send(support, 'refund attention', {})).body.data).toMatchObject({
      refunds: expect.arrayContaining([expect.objectContaining({ refundNo, orderKey: order.Key, state: 'abnormal' })]),
    });

    const refused = await send(support, 'refund resolve', { refund: refundNo, resolution: 'failed' });
    expect(refused.body.code).toBe(ErrorCode.ConsoleForbidden);
    expect((await t.app.db.select({ state: refunds.state }).from(refunds).where(eq(refunds.refundNo, refundNo)))[0].state).toBe('abnormal');

    expect((await send(operatorUser, 'refund resolve', { refund: refundNo, resolution: 'failed' })).body.data).toMatchObject({
      refused: null,
      refund: { state: 'failed' },
    });
    expect(await shell('audit', 'list', '--action', 'refund resolve', '--target', `order ${order.Key}`)).toMatchObject({
      rows: [{ actorUserId: operatorUser.userId, after: { refund: refundNo, state: 'failed' } }],
    });
  });
});

describe('arguments the console may not send to selling, cdkeys and donations', () => {
  /** What the console user changed: every change is audited, so their lines after signing in are the changes. */
  const changesBy = async (userId: number) =>
    (await t.app.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.actorUserId, userId))).map((line) => line.action);
  const refused = async (op: Operator, tries: ReadonlyArray<readonly [string, unknown]>) => {
    for (const [command, args] of tries) expect((await send(op, command, args)).body.code, `${command} ${JSON.stringify(args)}`).toBe(ErrorCode.BadRequest);
  };

  it('refuses amounts, destinations, days, order and refund numbers, products and fields the commands do not take (400), and refunds nothing', async () => {
    const support = await operator('support');
    const op = await operator('operator');
    const buyer = await customer();
    await t.app.db.transaction((tx) => changeBalance(tx, buyer.userId, 10_000, 'credit', null));
    const created = await t.call(commerceCalls.createOrder, { token: buyer.token, body: { Product: 'steam-cn', Amount: 1000, Target: '12345678' } });
    await t.call(commerceCalls.pay, { token: buyer.token, params: { key: created.body.data.Key }, body: { Method: 'wallet' } });
    const order = created.body.data.Key;
    await refused(support, [
      ['order refund', { order, amount: 0 }],
      ['order refund', { order, amount: -500 }],
      ['order refund', { order, amount: 10.5 }],
      ['order refund', { order, amount: '500' }],
      ['order refund', { order, to: 'bank' }],
      // Nothing a caller sends lifts a support user's limits: they come from the settings and the session's role.
      ['order refund', { order, limits: null }],
      ['order refund', { order, role: 'admin' }],
      ['order refund', { order: `${order}0` }],
      ['order refund', [order]],
      ['order show', { order: 'x'.repeat(20) }],
      ['order list', { since: '2026-13-01' }],
      ['order list', { until: '2026-02-30' }],
      ['order list', { state: 'stolen' }],
      ['order list', { user: '' }],
      ['order list', { size: 201 }],
      ['order list', { sort: 'password' }],
      ['order list', { dir: 'up' }],
      ['order list', { key: '12' }],
      ['order list', { limit: 5 }],
      ['wallet show', { user: buyer.userId }],
      ['wallet show', {}],
      ['refund attention', { all: true }],
      ['maintenance status', { on: true }],
    ]);
    await refused(op, [
      ['order fulfil', { order: 1 }],
      ['refund resolve', { refund: order, resolution: 'succeeded' }],
      ['refund resolve', { refund: `${order}R1`, resolution: 'maybe' }],
      ['product set', { code: 'Bad Code', kind: 'membership', months: 1, price: 600 }],
      ['product set', { code: 'half-plan', kind: 'membership', months: 1 }],
      ['product set', { code: 'half-plan', kind: 'membership', months: 1, price: -600 }],
      ['product set', { code: 'half-plan', kind: 'bundle', months: 1, price: 600 }],
      ['product set', { code: 'half-steam', kind: 'steamRecharge', currency: 'usd', region: 'US', ratePpm: 7_300_000, minAmount: 1, maxAmount: 2 }],
      ['product set', { code: 'half-steam', kind: 'steamRecharge', currency: 'USD', region: 'US', ratePpm: 0, minAmount: 1, maxAmount: 2 }],
      ['product set', { code: 'half-steam', kind: 'steamRecharge', currency: 'USD', region: 'US', ratePpm: 7_300_000, minAmount: 3, maxAmount: 2 }],
      ['product set', { code: 'half-plan', kind: 'membership', months: 1, price: 600, active: 'yes' }],
      ['maintenance on', { reason: 'why' }],
    ]);
    expect(await t.app.db.select({ state: orders.state }).from(orders).where(eq(orders.key, order))).toEqual([{ state: 'paid' }]);
    expect(await t.app.db.select().from(refunds).innerJoin(orders, eq(orders.id, refunds.orderId)).where(eq(orders.key, order))).toEqual([]);
    expect(
      await t.app.db
        .select()
        .from(products)
        .where(inArray(products.code, ['half-plan', 'half-steam'])),
    ).toEqual([]);
    expect(await changesBy(support.userId)).toEqual(['console sign-in']);
    expect(await changesBy(op.userId)).toEqual(['console sign-in']);
  });

  it('refuses batch names, counts, grants, a date gone by, keys and donation ids the commands do not take (400), and makes or hides nothing', async () => {
    const op = await operator('operator');
    const giver = await customer();
    const [donation] = await t.app.db.insert(donations).values({ userId: giver.userId, amount: 100, name: 'Giver' }).returning();
    const wallet = { Kind: 'wallet', Amount: 500 };
    await refused(op, [
      ['cdkey create', { batch: 'Bad Name', count: 1, grant: wallet }],
      ['cdkey create', { batch: 'bad-args', count: 0, grant: wallet }],
      ['cdkey create', { batch: 'bad-args', count: 100_001, grant: wallet }],
      ['cdkey create', { batch: 'bad-args', count: '1', grant: wallet }],
      ['cdkey create', { batch: 'bad-args', count: 1, grant: { Kind: 'wallet', Amount: -500 } }],
      ['cdkey create', { batch: 'bad-args', count: 1, grant: { Kind: 'gold', Amount: 500 } }],
      ['cdkey create', { batch: 'bad-args', count: 1, grant: { Kind: 'membership', Days: 0 } }],
      ['cdkey create', { batch: 'bad-args', count: 1, grant: { Kind: 'steamRecharge', Product: 'Steam US', Amount: 500 } }],
      // A Steam recharge of a product there is none of is refused when the command runs.
      ['cdkey create', { batch: 'bad-args', count: 1, grant: { Kind: 'steamRecharge', Product: 'steam-nowhere', Amount: 500 } }],
      ['cdkey create', { batch: 'bad-args', count: 1, grant: wallet, expires: '2020-01-01' }],
      ['cdkey create', { batch: 'bad-args', count: 1, grant: wallet, expires: '2020-01-01', force: 'yes' }],
      ['cdkey create', { batch: 'bad-args', count: 1, grant: wallet, secret: 'mine' }],
      ['cdkey export', { batch: 'bad-args', limit: 0 }],
      ['cdkey show', { batch: '' }],
      ['cdkey revoke', {}],
      ['cdkey revoke', { key: 'AAAAA-BBBBB-CCCCC-DDDDD', batch: 'bad-args' }],
      ['cdkey revoke', { key: 'AAAAA' }],
      ['cdkey check', { key: 'not a key' }],
      ['cdkey redeemed', { user: 'x'.repeat(321) }],
      ['donation hide', { id: String(donation.id) }],
      ['donation hide', { id: 0 }],
      ['donation hide', { id: 1.5 }],
      ['donation hide', {}],
      ['donation hide', { id: donation.id, hidden: true }],
      ['donation show', [donation.id]],
      ['donation list', { limit: 5 }],
    ]);
    expect(await t.app.db.select().from(cdkeyBatches).where(eq(cdkeyBatches.name, 'bad-args'))).toEqual([]);
    expect(await t.app.db.select({ hiddenAt: donations.hiddenAt }).from(donations).where(eq(donations.id, donation.id))).toEqual([{ hiddenAt: null }]);
    expect(await changesBy(op.userId)).toEqual(['console sign-in']);
  });
});

describe('the console in the operator’s language', () => {
  const day = 86_400_000;
  const everywhere = (text: string) => Object.fromEntries(localeCodes.map((locale) => [locale, `${text} (${locale})`])) as LocalizedText;

  it('names a raffle and its prizes in the console’s language (English at the shell), and refuses in that language', async () => {
    const op = await operator('operator');
    const entrant = await customer();
    const definition: RaffleDefinition = {
      Kind: 'registration',
      Title: everywhere('Raffle in words'),
      Description: everywhere('Made at the console.'),
      Prizes: [{ Name: everywhere('Prize'), Quantity: 1, Grant: null }],
      OpensAt: new Date(Date.now() + day).toISOString(),
      ClosesAt: new Date(Date.now() + 2 * day).toISOString(),
      DrawAt: new Date(Date.now() + 2 * day).toISOString(),
      PublicSource: everywhere('The next lottery draw'),
    };
    const made = raffleCommands.create.result.parse((await send(op, 'raffle create', { definition }, undefined, 'ja')).body.data);
    expect(made.raffle?.title).toBe('Raffle in words (ja)');
    const id = made.raffle!.id;
    const listed = raffleCommands.list.result.parse((await send(op, 'raffle list', {}, undefined, 'ru')).body.data);
    expect(listed.rows.find((raffle) => raffle.id === id)?.title).toBe('Raffle in words (ru)');
    const atShell = await shell('raffle', 'show', String(id));
    expect(atShell.command === 'raffle show' && atShell.raffle?.title).toBe('Raffle in words (en)');

    // Refusals: in the page's language, the raffle's state named in it; at the shell in English.
    const early = (await send(op, 'raffle value', { id, value: '01 02 03' }, undefined, 'ru')).body.data;
    expect(early.refused).toBe(message('ru', 'refused.raffleValueEarly', { state: message('ru', 'raffleState.upcoming') }));
    expect(early.refused).toContain('ещё не открыт');
    const earlyAtShell = await shell('raffle', 'value', String(id), '01 02 03');
    expect(earlyAtShell.command === 'raffle value' && earlyAtShell.refused).toBe(
      'A public value is entered for a registration raffle once its registration has closed; this one is upcoming.',
    );
    expect((await send(op, 'raffle draw', { id }, undefined, 'ja')).body.data.refused).toBe(message('ja', 'refused.raffleNoPublicValue'));
    expect((await send(op, 'raffle open', { id }, undefined, 'ja')).body.data.refused).toBeNull();
    expect((await send(op, 'raffle open', { id }, undefined, 'ja')).body.data.refused).toBe(
      message('ja', 'refused.raffleNotUpcoming', { state: message('ja', 'raffleState.open') }),
    );

    // One entrant, drawn: the winner's prize and the entrant's raffles in the page's language.
    await t.app.db.insert(raffleEntries).values({ raffleId: id, number: 1, userId: entrant.userId });
    await t.app.db.update(raffles).set({ entrants: 1 }).where(eq(raffles.id, id));
    const drawn = (await send(op, 'raffle draw', { id, publicValue: '01 02 03' }, undefined, 'ru')).body.data;
    expect(drawn).toMatchObject({ refused: null, raffle: { state: 'drawn', title: 'Raffle in words (ru)' }, winners: [{ number: 1, prize: 'Prize (ru)' }] });
    expect((await send(op, 'raffle draw', { id }, undefined, 'ru')).body.data.refused).toBe(message('ru', 'refused.raffleDrawnAlready'));
    const entered = raffleCommands.entered.result.parse((await send(op, 'raffle entered', { user: String(entrant.userId) }, undefined, 'ja')).body.data);
    expect(entered.entries).toMatchObject([{ raffleId: id, title: 'Raffle in words (ja)', prize: 'Prize (ja)' }]);
  });

  it('refuses a cdkey batch whose name is taken, or a product or amount not sold, in the page’s language and changes nothing', async () => {
    const op = await operator('operator');
    const wallet = { Kind: 'wallet', Amount: 500 };
    expect((await send(op, 'cdkey create', { batch: 'in-words', count: 1, grant: wallet }, undefined, 'ja')).body.code).toBe(200);
    const taken = await send(op, 'cdkey create', { batch: 'in-words', count: 1, grant: wallet }, undefined, 'ja');
    expect(taken.body).toMatchObject({ code: ErrorCode.BadRequest, message: 'バッチ in-words はすでにあります。', data: null });
    const nowhere = await send(
      op,
      'cdkey create',
      { batch: 'in-words-2', count: 1, grant: { Kind: 'steamRecharge', Product: 'steam-nowhere', Amount: 500 } },
      undefined,
      'ru',
    );
    expect(nowhere.body).toMatchObject({ code: ErrorCode.BadRequest, message: message('ru', 'refused.noSteamProduct', { product: 'steam-nowhere' }) });
    const [steam] = demoProducts.filter((product) => product.kind === 'steamRecharge');
    const notSold = await send(
      op,
      'cdkey create',
      { batch: 'in-words-2', count: 1, grant: { Kind: 'steamRecharge', Product: steam.code, Amount: 1 } },
      undefined,
      'ru',
    );
    expect(notSold.body.message).toBe(message('ru', 'refused.amountNotSold', { product: steam.code, amount: '1' }));
    expect(await t.app.db.select().from(cdkeyBatches).where(eq(cdkeyBatches.name, 'in-words-2'))).toEqual([]);
  });
});
