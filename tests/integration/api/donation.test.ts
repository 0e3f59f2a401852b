/**
 * Donations end to end: the wallet debit and its ledger row, the bounds, the
 * opt-in name on the public sponsor list, taking a name off, the operators'
 * hiding, auth on every call, and parallel gifts that can never overdraw.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commerceCalls } from '#contract/commerce.ts';
import { donationCalls, donationRules } from '#contract/donation.ts';
import { ErrorCode } from '#contract/errors.ts';
import { donations, walletLedger } from '../../../server/db/schema.ts';
import { balanceOf, changeBalance } from '../../../server/modules/commerce/wallet.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { loginBySms } from './codes.ts';
import { runAdmin, startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;
const newUser = async () => {
  const login = await loginBySms(t, `1392300${String(++phoneSeq).padStart(4, '0')}`, `donor-device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id };
};

beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const admin = (...command: string[]) => runAdmin(t, ...command);

/** A user with `fen` in the wallet, credited as an operator would. */
async function donor(fen: number) {
  const user = await newUser();
  await t.app.db.transaction((tx) => changeBalance(tx, user.userId, fen, 'credit', null));
  return user;
}

const give = (token: string, Amount: number, Name: string | null = null) => t.call(donationCalls.donate, { token, body: { Amount, Name } });
const sponsorNames = async () => (await t.call(donationCalls.sponsors)).body.data.map((sponsor) => sponsor.Name);

describe('donating', () => {
  it('takes the amount from the wallet with its ledger row, and thanks a donor who opts in by name', async () => {
    const user = await donor(5000);
    const named = await give(user.token, 1800, '  Kind Player  ');
    expect(named.body).toMatchObject({
      code: 200,
      message: 'Thank you for your donation!',
      data: { Balance: 3200, Donation: { Amount: 1800, Name: 'Kind Player' } },
    });
    const anonymous = await give(user.token, 600);
    expect(anonymous.body.data).toMatchObject({ Balance: 2600, Donation: { Amount: 600, Name: null } });

    const ledger = await t.call(commerceCalls.wallet, { token: user.token, params: { page: 1 } });
    expect(ledger.body.data.Items.slice(0, 2).map((entry) => [entry.Reason, entry.Delta, entry.BalanceAfter])).toEqual([
      ['donation', -600, 2600],
      ['donation', -1800, 3200],
    ]);
    expect((await t.call(donationCalls.mine, { token: user.token })).body.data.map((entry) => entry.Name)).toEqual([null, 'Kind Player']);

    const list = await t.call(donationCalls.sponsors);
    expect(list.headers['cache-control']).toBe('public, max-age=60');
    expect(list.body.data[0]).toEqual({ Name: 'Kind Player', At: expect.any(String) });
  });

  it('refuses amounts outside the bounds and more than the balance, and changes nothing', async () => {
    const user = await donor(1000);
    for (const amount of [donationRules.minimum - 1, donationRules.maximum + 1]) {
      const refused = await give(user.token, amount);
      expect(refused.body).toMatchObject({ code: ErrorCode.AmountInvalid, message: 'Enter an amount from CN¥1 to CN¥1,000.' });
    }
    expect((await give(user.token, 1001)).body.code).toBe(ErrorCode.InsufficientBalance);
    expect((await give(user.token, 100, '')).body.code).toBe(ErrorCode.BadRequest);
    expect((await give(user.token, 100, 'x'.repeat(donationRules.nameMaxLength + 1))).body.code).toBe(ErrorCode.BadRequest);
    expect(await balanceOf(t.app.db, user.userId)).toBe(1000);
    expect(await t.app.db.select().from(donations).where(eq(donations.userId, user.userId))).toEqual([]);
  });

  it('keeps a name as text, whatever it contains', async () => {
    const user = await donor(1000);
    const name = '<script>x</script>';
    const given = await give(user.token, 100, name);
    expect(given.body).toMatchObject({ code: 200 });
    expect(given.body.data.Donation.Name).toBe(name);
    expect(await sponsorNames()).toContain(name);
  });

  it('lets donors take their name off, and operators hide and show one', async () => {
    const user = await donor(1000);
    const other = await newUser();
    const gift = (await give(user.token, 100, 'Changed My Mind')).body.data.Donation;
    expect((await t.call(donationCalls.removeName, { token: other.token, params: { id: gift.Id } })).body.code).toBe(ErrorCode.NotFound);
    expect(await sponsorNames()).toContain('Changed My Mind');
    expect((await t.call(donationCalls.removeName, { token: user.token, params: { id: gift.Id } })).body.data.Name).toBeNull();
    expect(await sponsorNames()).not.toContain('Changed My Mind');

    const rude = (await give(user.token, 100, 'Rude Name')).body.data.Donation;
    expect((await admin('donation', 'hide', String(rude.Id))).data).toMatchObject({ donation: { id: rude.Id, hidden: true } });
    expect(await sponsorNames()).not.toContain('Rude Name');
    expect((await admin('donation', 'list')).data.donations).toContainEqual(expect.objectContaining({ name: 'Rude Name', hidden: true }));
    await admin('donation', 'show', String(rude.Id));
    expect(await sponsorNames()).toContain('Rude Name');
    expect((await admin('donation', 'hide', '999999')).data).toEqual({ command: 'donation hide', donation: null });
  });

  it('refuses every call of a user without a valid login', async () => {
    await expectBadTokensRefused(t, donationCalls.donate, { body: { Amount: 100, Name: null } }, newUser);
    await expectBadTokensRefused(t, donationCalls.mine, {}, newUser);
    await expectBadTokensRefused(t, donationCalls.removeName, { params: { id: 1 } }, newUser);
  });
});

describe('parallel donations', () => {
  it('never take the wallet below zero: 200 gifts of ¥1 from a balance of ¥50 give exactly 50', async () => {
    const user = await donor(5000);
    const answers = await Promise.all(Array.from({ length: 200 }, () => give(user.token, 100)));
    const codes = answers.map((answer) => answer.body.code);
    expect(codes.filter((code) => code === 200)).toHaveLength(50);
    expect(codes.filter((code) => code === ErrorCode.InsufficientBalance)).toHaveLength(150);
    expect(await balanceOf(t.app.db, user.userId)).toBe(0);
    expect(await t.app.db.select().from(donations).where(eq(donations.userId, user.userId))).toHaveLength(50);
    const ledger = await t.app.db.select().from(walletLedger).where(eq(walletLedger.userId, user.userId));
    expect(ledger.filter((row) => row.reason === 'donation')).toHaveLength(50);
    expect(Math.min(...ledger.map((row) => row.balanceAfter))).toBe(0);
  });
});
