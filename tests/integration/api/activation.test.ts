/**
 * cdkeys end to end: batches made by the operators' command, redemption of
 * each grant, every refusal, the history, guessing cut off by the lockout and
 * the rate limit, and 200 users racing for one key.
 */
import { randomInt } from 'node:crypto';
import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activationCalls, cdkeyLockoutMs, cdkeyMaxFailures } from '#contract/activation.ts';
import { cdkeyAlphabet, cdkeyShape, checkCharacter, formatCdkey } from '#contract/cdkey-format.ts';
import { parseWords, UsageError } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import { commerceCalls } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { cdkeys, externalAccounts, orders, products } from '../../../server/db/schema.ts';
import { demoProducts } from '../../../server/modules/commerce/catalogue.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { loginBySms } from './codes.ts';
import { runAdmin, startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;
const newUser = async () => {
  const login = await loginBySms(t, `1392100${String(++phoneSeq).padStart(4, '0')}`, `device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id };
};

beforeAll(async () => {
  t = await startApp();
  await t.app.db.insert(products).values(demoProducts);
});
afterAll(() => t.close());

const admin = (...command: string[]) => runAdmin<{ keys: string[]; batch: { used: number } | null } & Record<string, unknown>>(t, ...command);

/** A batch of `count` keys made by the operators' command; answers its keys. */
async function batch(name: string, grant: string, count = 3, ...more: string[]): Promise<string[]> {
  const made = await admin('cdkey', 'create', '--batch', name, '--count', String(count), '--grants', grant, ...more);
  expect(made.code).toBe(200);
  expect(made.data.keys).toHaveLength(count);
  return made.data.keys;
}

const redeem = (token: string, Key: string, ip?: string) => t.call(activationCalls.redeem, { token, body: { Key }, ip });

/** A key that has the right shape and check character but was never made. */
function madeUp(): string {
  const body = Array.from({ length: 19 }, () => cdkeyAlphabet[randomInt(32)]).join('');
  return formatCdkey(body + checkCharacter(body));
}

describe('redeeming', () => {
  it('makes keys that are grouped, typeable and checked, and stores only their hashes', async () => {
    const keys = await batch('shapes', 'wallet:100', 5);
    for (const key of keys) {
      expect(key).toMatch(/^[2-9A-HJ-NP-Z]{5}(-[2-9A-HJ-NP-Z]{5}){3}$/);
      expect(cdkeyShape(key)).toBe('ok');
    }
    const stored = await t.app.db.select().from(cdkeys);
    const everything = JSON.stringify(stored);
    for (const key of keys) expect(everything).not.toContain(key.replaceAll('-', '').slice(5, 15));
    // The same keys come back from export, derived again from the server's secret.
    expect((await admin('cdkey', 'export', 'shapes')).data.keys).toEqual(keys);
  });

  it('grants wallet credit once, says what it granted, and keeps it in the history, masked', async () => {
    const [key] = await batch('wallet-10', 'wallet:1000');
    const user = await newUser();
    const answer = await redeem(user.token, key.toLowerCase().replaceAll('-', ' '));
    expect(answer.body.code).toBe(200);
    expect(answer.body.data).toMatchObject({ Redemption: { Batch: 'wallet-10', Grant: { Kind: 'wallet', Amount: 1000 }, Order: null }, Balance: 1000 });
    expect(answer.body.data.Redemption.Key).not.toContain(key.slice(6, 11));
    expect((await redeem(user.token, key)).body.code).toBe(ErrorCode.CdkeyUsed);
    expect((await redeem((await newUser()).token, key)).body.code).toBe(ErrorCode.CdkeyUsed);
    const history = (await t.call(activationCalls.redemptions, { token: user.token, params: { page: 1 } })).body.data;
    expect(history).toMatchObject({ Total: 1, Page: 1, Items: [{ Batch: 'wallet-10', Key: answer.body.data.Redemption.Key }] });
    const wallet = (await t.call(commerceCalls.wallet, { token: user.token, params: { page: 1 } })).body.data;
    expect(wallet.Items.map((entry) => [entry.Reason, entry.Delta])).toEqual([['cdkey', 1000]]);
  });

  it('grants cloud-idling days and a Steam recharge (to the linked account only, or nothing at all)', async () => {
    const [days] = await batch('month', 'membership:30');
    const user = await newUser();
    const granted = (await redeem(user.token, days)).body.data;
    expect(new Date(granted.MembershipUntil!).getTime()).toBeGreaterThan(Date.now() + 29.9 * 86_400_000);

    const [recharge] = await batch('steam-50', 'steam:steam-cn:5000');
    expect((await redeem(user.token, recharge)).body.code).toBe(ErrorCode.SteamNotLinked);
    // Refused whole: the key is still there to redeem once a Steam account is linked.
    await t.app.db.insert(externalAccounts).values({ userId: user.userId, provider: 'steam', subject: '76561197960287930', displayName: 'Linked' });
    const order = (await redeem(user.token, recharge)).body.data.Redemption.Order!;
    const [row] = await t.app.db.select().from(orders).where(eq(orders.key, order));
    expect(row).toMatchObject({ state: 'paid', method: 'cdkey', price: 0, userId: user.userId });
    expect(row.item).toMatchObject({ Kind: 'steamRecharge', Amount: 5000, SteamId: '76561197960287930' });
  });

  it('refuses a typo, an unknown, a revoked and an expired key, each with its own code', async () => {
    const { token } = await newUser();
    const [key, revoked] = await batch('refusals', 'wallet:100', 2);
    const typo = key.slice(0, 3) + (key[3] === 'A' ? 'B' : 'A') + key.slice(4);
    expect((await redeem(token, typo, '10.9.0.1')).body.code).toBe(ErrorCode.CdkeyChecksum);
    expect((await redeem(token, madeUp(), '10.9.0.1')).body.code).toBe(ErrorCode.CdkeyUnknown);
    expect((await admin('cdkey', 'revoke', revoked)).data).toEqual({ command: 'cdkey revoke', revoked: 1 });
    expect((await redeem(token, revoked, '10.9.0.1')).body.code).toBe(ErrorCode.CdkeyUnknown);
    // A date that has passed is refused, and nothing made, unless the operator insists: the CLI refuses the words, and
    // the server the arguments as the console or the CLI sends them.
    const pastWords = ['cdkey', 'create', '--batch', 'past', '--count', '1', '--grants', 'wallet:100', '--expires', '2020-01-01'];
    expect(() => parseWords(operatorCommands, pastWords)).toThrow(
      new UsageError('cdkey create: expires: the date has passed, so no key of the batch could be redeemed; add --force to make it anyway'),
    );
    const past = await t.app.inject({
      method: 'POST',
      url: '/api/admin/run',
      remoteAddress: '127.0.0.1',
      headers: { 'x-admin-token': t.app.adminToken },
      payload: { command: 'cdkey create', args: { batch: 'past', count: 1, grant: { Kind: 'wallet', Amount: 100 }, expires: '2020-01-01' } },
    });
    expect(past.json()).toMatchObject({ code: ErrorCode.BadRequest });
    expect((await admin('cdkey', 'show', 'past')).data.batch).toBeNull();
    const [old] = await batch('expired', 'wallet:100', 1, '--expires', '2020-01-01', '--force');
    const expired = await redeem(token, old, '10.9.0.1');
    expect(expired.body.code).toBe(ErrorCode.CdkeyExpired);
    expect(expired.body.message).toBe('This cdkey has expired and can no longer be redeemed.');
  });

  it('locks an account and an address after repeated wrong keys', async () => {
    const [good] = await batch('locked-out', 'wallet:100', 1);
    const guesser = await newUser();
    for (let i = 0; i < cdkeyMaxFailures; i++) expect((await redeem(guesser.token, madeUp())).body.code).toBe(ErrorCode.CdkeyUnknown);
    const locked = await redeem(guesser.token, good);
    expect(locked.body.code).toBe(ErrorCode.CdkeyLocked);
    expect(locked.status).toBe(429);
    // Locked until the first wrong key leaves the lockout, which began a moment ago.
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(cdkeyLockoutMs / 1000 - 60);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(cdkeyLockoutMs / 1000);
    // Another account from an address that guessed is locked too; the same account elsewhere as well.
    const other = await newUser();
    for (let i = 0; i < cdkeyMaxFailures; i++) await redeem(other.token, madeUp(), '10.77.0.1');
    expect((await redeem((await newUser()).token, good, '10.77.0.1')).body.code).toBe(ErrorCode.CdkeyLocked);
    expect((await redeem((await newUser()).token, good)).body.code).toBe(200);
  });

  it('cuts off 10,000 random guesses from one address, and none succeeds', async () => {
    const { token } = await newUser();
    const usedBefore = (await t.app.db.select().from(cdkeys).where(isNotNull(cdkeys.usedAt))).length;
    const codes = new Map<number, number>();
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(Array.from({ length: 500 }, () => redeem(token, madeUp(), '10.66.6.6')));
      for (const answer of answers) codes.set(answer.body.code, (codes.get(answer.body.code) ?? 0) + 1);
    }
    expect(codes.get(200)).toBeUndefined();
    expect(codes.get(ErrorCode.CdkeyUnknown) ?? 0).toBeLessThanOrEqual(30);
    expect((codes.get(ErrorCode.TooManyRequests) ?? 0) + (codes.get(ErrorCode.CdkeyLocked) ?? 0)).toBeGreaterThanOrEqual(9_970);
    expect((await t.app.db.select().from(cdkeys).where(isNotNull(cdkeys.usedAt))).length).toBe(usedBefore);
    console.log(`guessing: 10,000 guesses, ${JSON.stringify(Object.fromEntries(codes))} by code, none redeemed`);
  });

  it('lets exactly one of 200 users racing for one key redeem it', async () => {
    const [key] = await batch('race', 'wallet:500', 1);
    const usedBefore = (await t.app.db.select().from(cdkeys).where(isNotNull(cdkeys.usedAt))).length;
    const users = [];
    for (let i = 0; i < 200; i++) users.push(await newUser());
    const answers = await Promise.all(users.map((user) => redeem(user.token, key)));
    const won = answers.filter((answer) => answer.body.code === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.code === ErrorCode.CdkeyUsed)).toHaveLength(199);
    expect((await t.app.db.select().from(cdkeys).where(isNotNull(cdkeys.usedAt))).length).toBe(usedBefore + 1);
    const balances = await Promise.all(
      users.map(async (user) => (await t.call(commerceCalls.wallet, { token: user.token, params: { page: 1 } })).body.data.Balance),
    );
    expect(balances.filter((balance) => balance === 500)).toHaveLength(1);
    expect(balances.filter((balance) => balance === 0)).toHaveLength(199);
    console.log(`cdkey race: 200 users, ${won.length} redeemed, ${answers.length - won.length} told it was used`);
  });

  it('refuses missing, made-up, expired and revoked tokens', async () => {
    await expectBadTokensRefused(t, activationCalls.redeem, { body: { Key: madeUp() } }, newUser);
    await expectBadTokensRefused(t, activationCalls.redemptions, { params: { page: 1 } }, newUser);
  });
});
