/**
 * Auto-renewal agreements end to end against the real server and its payment
 * sandbox: signing by scanning, the first period charged under the contract,
 * renewals with their reminders, retries and lapse, cancelling, signing twice,
 * and the races and replays that must never sign or charge twice.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountCalls } from '#contract/account.ts';
import { agreementCalls, type Agreement } from '#contract/agreements.ts';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { paymentSandbox } from '#contract/dev.ts';
import { ErrorCode } from '#contract/errors.ts';
import { facts } from '#contract/facts.ts';
import { agreements, memberships, orders, payments, products, users } from '../../../server/db/schema.ts';
import { chargeDueAgreements, remindOfCharges } from '../../../server/modules/commerce/agreements.ts';
import { demoProducts, membershipItem } from '../../../server/modules/commerce/catalogue.ts';
import { insertOrder, payable } from '../../../server/modules/commerce/orders.ts';
import { changeBalance } from '../../../server/modules/commerce/wallet.ts';
import { payContextOf } from '../../../server/modules/commerce/pay-context.ts';
import { closeExpiredOrder } from '../../../server/modules/commerce/payments.ts';
import { ProviderError } from '../../../server/services/payment-provider.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { ageCodes, lastCode, loginBySms } from './codes.ts';
import { eventually, startApp, type TestApp } from './harness.ts';
import { deliverNotification, notification } from './wechatpay-notifications.ts';

let t: TestApp;
let phoneSeq = 0;
const newUser = async () => {
  const phone = `1391000${String(++phoneSeq).padStart(4, '0')}`;
  const login = await loginBySms(t, phone, `device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id, phone };
};

beforeAll(async () => {
  t = await startApp({ SITE_URL: 'https://beacon.test' });
  await t.app.db.insert(products).values(demoProducts);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const act = (id: string, Action: string) => t.call(paymentSandbox.act, { params: { id }, body: { Action } });

const start = (token: string, Product = 'cloud-idle-monthly') => t.call(agreementCalls.create, { token, body: { Product } });
const orderOf = async (token: string, key: string) => (await t.call(commerceCalls.order, { token, params: { key } })).body.data;
const agreementsOf = async (token: string): Promise<Agreement[]> => (await t.call(agreementCalls.list, { token })).body.data;
const membershipOf = async (userId: number) => (await t.app.db.select().from(memberships).where(eq(memberships.userId, userId)))[0]?.until;
const outbox = (phone: string) => t.app.sms.outbox!.filter((message) => message.to === phone).map((message) => message.text);

/** Starts an agreement and signs it by scanning: answers it active, with its first period paid. */
async function signed(user: { token: string; userId: number }): Promise<{ agreement: Agreement; first: Order }> {
  const started = await start(user.token);
  expect(started.body.code).toBe(200);
  const { Agreement: pending, Order: first } = started.body.data;
  expect(pending.State).toBe('pending');
  expect(first.Agreement).toBe(pending.Key);
  const paying = await t.call(commerceCalls.pay, { token: user.token, params: { key: first.Key }, body: { Method: 'wechatpay' } });
  expect(paying.body.code).toBe(200);
  const session = new URL(paying.body.data.CodeUrl!).searchParams.get('pr')!;
  expect((await t.call(paymentSandbox.transaction, { params: { id: session } })).body.data).toMatchObject({ Kind: 'contract', OrderKey: pending.Key });
  expect((await act(session, 'approve')).body.data.State).toBe('SIGNED');
  const paid = await eventually(
    () => orderOf(user.token, first.Key),
    (order) => order.State === 'fulfilled',
    'the first period paid',
  );
  expect(paid.Timeline.map((event) => event.Note)).toEqual(['created', 'paymentStarted', 'agreementSigned', 'paid', 'membershipApplied']);
  const [agreement] = await agreementsOf(user.token);
  return { agreement, first: paid };
}

/** Makes the agreement's next charge due now, and runs the renewal job's charging step. */
async function renewNow(key: string): Promise<Order[]> {
  await t.app.db
    .update(agreements)
    .set({ nextChargeAt: sql`now() - interval '1 second'` })
    .where(eq(agreements.key, key));
  const wechatPay = t.app.payments.channel('wechatpay');
  return chargeDueAgreements(payContextOf(t.app), wechatPay.provider()!, wechatPay.notifyUrl(), () => {});
}

describe('signing an auto-renewal agreement', () => {
  it('offers auto-renewal on the plans that have a renewal template', async () => {
    const listed = (await t.call(commerceCalls.products, {})).body.data;
    expect(listed.filter((product) => product.AutoRenew).map((product) => product.Code)).toEqual([
      'cloud-idle-monthly',
      'cloud-idle-quarterly',
      'cloud-idle-yearly',
    ]);
    const { token } = await newUser();
    expect((await start(token, 'steam-cn')).body.code).toBe(ErrorCode.ProductUnavailable);
  });

  it('signs by scanning, charges the first period under the contract, and schedules the next at the period end', async () => {
    const user = await newUser();
    const { agreement } = await signed(user);
    const until = await membershipOf(user.userId);
    expect(agreement).toMatchObject({ State: 'active', FailedCharges: 0, NextChargeAt: until.toISOString() });
    expect(until.getTime()).toBeGreaterThan(Date.now() + 27 * 24 * 3600 * 1000);
  });

  it('will not take the first period from the wallet', async () => {
    const { token } = await newUser();
    const { Order: first } = (await start(token)).body.data;
    const answer = await t.call(commerceCalls.pay, { token, params: { key: first.Key }, body: { Method: 'wallet' } });
    expect(answer.body.code).toBe(ErrorCode.PayMethodUnsupported);
  });

  it('says "user already signed" for a second agreement and "agreement already signed" for signing one again', async () => {
    const user = await newUser();
    const { first } = await signed(user);
    expect((await start(user.token, 'cloud-idle-yearly')).body.code).toBe(ErrorCode.UserSigned);
    // A pending first period of an agreement signed meanwhile (the customer had two pages open).
    await t.app.db.update(orders).set({ state: 'created' }).where(eq(orders.key, first.Key));
    const again = await t.call(commerceCalls.pay, { token: user.token, params: { key: first.Key }, body: { Method: 'wechatpay' } });
    expect(again.body.code).toBe(ErrorCode.AgreementSigned);
  });

  it('replaces an agreement still pending, and lets only one through when they are started at once', async () => {
    const { token, userId } = await newUser();
    const first = (await start(token)).body.data.Agreement;
    const second = (await start(token)).body.data.Agreement;
    const states = Object.fromEntries((await agreementsOf(token)).map((agreement) => [agreement.Key, agreement.State]));
    expect(states).toEqual({ [first.Key]: 'canceled', [second.Key]: 'pending' });

    const answers = await Promise.all(Array.from({ length: 20 }, () => start(token)));
    expect(answers.every((answer) => answer.body.code === 200 || answer.body.code === ErrorCode.UserSigned)).toBe(true);
    const live = await t.app.db
      .select()
      .from(agreements)
      .where(and(eq(agreements.userId, userId), inArray(agreements.state, ['pending', 'active'])));
    expect(live).toHaveLength(1);
  });

  it('signs once and charges once when the signing notification is replayed and retried in parallel', async () => {
    const user = await newUser();
    const { Agreement: pending, Order: first } = (await start(user.token)).body.data;
    const paying = await t.call(commerceCalls.pay, { token: user.token, params: { key: first.Key }, body: { Method: 'wechatpay' } });
    expect(paying.body.code).toBe(200);
    const session = new URL(paying.body.data.CodeUrl!).searchParams.get('pr')!;
    await act(session, 'approve');
    await eventually(
      () => orderOf(user.token, first.Key),
      (order) => order.State === 'fulfilled',
      'the first period paid',
    );
    const [row] = await t.app.db.select().from(agreements).where(eq(agreements.key, pending.Key));
    const contract = { plan_id: row.plan, out_contract_code: row.key, contract_id: row.contractId, contract_state: 'SIGNED' };
    const replayed = notification(contract, { event: 'PAPAY.SIGN' });
    const answers = await Promise.all([
      ...Array.from({ length: 50 }, () => deliverNotification(t, replayed)),
      ...Array.from({ length: 50 }, () => deliverNotification(t, notification(contract, { event: 'PAPAY.SIGN' }))),
    ]);
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(51);
    // A notification is answered once applied, with any charge it starts already asked of the provider
    // (notify-route.ts); only the charge's outcome comes later, as the provider's own notification. Once no
    // order of the agreement is payable, every charge made under it has its outcome, and its payment with it.
    const charged = await eventually(
      () => t.app.db.select().from(orders).where(eq(orders.agreement, pending.Key)),
      (rows) => rows.every((row) => !payable.includes(row.state)),
      'every charge under the agreement settled',
    );
    expect(charged).toHaveLength(1);
    const money = await t.app.db.select().from(payments).where(eq(payments.orderId, charged[0].id));
    expect(money).toHaveLength(1);
    console.log(
      `signing replay: 100 notifications, ${answers.filter((answer) => answer.statusCode === 200).length} accepted, ${charged.length} order, ${money.length} payment`,
    );
  });
});

describe('renewing', () => {
  it('reminds once before a charge, then charges the next period when it is due', async () => {
    const user = await newUser();
    const { agreement } = await signed(user);
    const before = await membershipOf(user.userId);
    await t.app.db
      .update(agreements)
      .set({ nextChargeAt: sql`now() + interval '2 days'` })
      .where(eq(agreements.key, agreement.Key));
    expect(await remindOfCharges(t.app.db, t.app.jobs)).toBeGreaterThanOrEqual(1);
    expect(await remindOfCharges(t.app.db, t.app.jobs)).toBe(0);
    const reminders = await eventually(
      async () => outbox(user.phone).filter((text) => text.includes('renews automatically')),
      (texts) => texts.length > 0,
      'the reminder',
    );
    expect(reminders).toHaveLength(1);

    const [renewal] = await renewNow(agreement.Key);
    expect(renewal).toMatchObject({ State: 'paying', Agreement: agreement.Key });
    await eventually(
      () => orderOf(user.token, renewal.Key),
      (order) => order.State === 'fulfilled',
      'the renewal paid',
    );
    const after = await membershipOf(user.userId);
    expect(after.getTime()).toBeGreaterThan(before.getTime() + 27 * 24 * 3600 * 1000);
    const [renewed] = await agreementsOf(user.token);
    expect(renewed).toMatchObject({ State: 'active', FailedCharges: 0, NextChargeAt: after.toISOString() });
  });

  it('charges no period twice: a due agreement whose last charge is still open waits until that order is closed', async () => {
    const user = await newUser();
    const { agreement } = await signed(user);
    // The last charge's order, its window passed with no answer heard: open until a timer or the sweep closes it.
    const charge = await insertOrder(t.app.db, {
      userId: user.userId,
      product: 'cloud-idle-monthly',
      item: membershipItem('cloud-idle-monthly', 1),
      price: 100,
      agreement: agreement.Key,
      source: 'system',
    });
    await t.app.db
      .update(orders)
      .set({ state: 'paying', method: 'wechatpay', expiresAt: sql`now() - interval '1 second'` })
      .where(eq(orders.key, charge.key));
    expect(await renewNow(agreement.Key)).toEqual([]);
    await closeExpiredOrder(payContextOf(t.app), charge.key);
    const [current] = await agreementsOf(user.token);
    expect(current).toMatchObject({ State: 'active', FailedCharges: 1 });
    expect((await t.app.db.select().from(orders).where(eq(orders.agreement, agreement.Key))).map((order) => order.state).sort()).toEqual([
      'closed',
      'fulfilled',
    ]);
  });

  it(`tries a failed charge ${facts.autoRenew.retryAttempts} more times, telling the customer each time, then lapses`, async () => {
    const user = await newUser();
    const { agreement } = await signed(user);
    await act(agreement.Key, 'failCharges');
    for (let attempt = 1; attempt <= facts.autoRenew.retryAttempts + 1; attempt++) {
      const [charge] = await renewNow(agreement.Key);
      await eventually(
        () => orderOf(user.token, charge.Key),
        (order) => order.State === 'failed',
        'the charge failing',
      );
      const [current] = await agreementsOf(user.token);
      if (attempt <= facts.autoRenew.retryAttempts) {
        expect(current).toMatchObject({ State: 'active', FailedCharges: attempt });
        expect(new Date(current.NextChargeAt!).getTime()).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
      } else {
        expect(current).toMatchObject({ State: 'lapsed', NextChargeAt: null });
      }
    }
    await eventually(
      async () => outbox(user.phone),
      (texts) => texts.some((text) => text.includes('has ended')),
      'the lapse notice',
    );
    expect(outbox(user.phone).filter((text) => text.includes('could not charge'))).toHaveLength(facts.autoRenew.retryAttempts);
    const sandbox = await eventually(
      async () => (await t.call(paymentSandbox.transaction, { params: { id: agreement.Key } })).body.data,
      (contract) => contract.State === 'TERMINATED',
      'the contract ended at the provider',
    );
    expect(sandbox.Kind).toBe('contract');
  });
});

describe('deleting the account', () => {
  /** Deletes the user's account with a code sent to their phone, as the account centre does. */
  async function deleteWithCode(user: { token: string; phone: string }, code?: string) {
    if (!code) {
      await ageCodes(t, user.phone);
      await t.call(accountCalls.sendOwnCode, { body: { Channel: 'sms' }, token: user.token });
      code = await lastCode(t, user.phone);
    }
    return { code, answer: await t.call(accountCalls.deleteAccount, { body: { Code: code }, token: user.token }) };
  }

  it('states what it loses with the figures, ends the auto-renewal at the provider first, and keeps the orders without the person', async () => {
    const user = await newUser();
    const { agreement, first } = await signed(user);
    await t.app.db.transaction((tx) => changeBalance(tx, user.userId, 1234, 'cdkey', null));
    const until = await membershipOf(user.userId);
    const losses = await t.call(accountCalls.deletionLosses, { token: user.token });
    expect(losses.body.data).toEqual({ Wallet: 1234, PlanUntil: until!.toISOString(), Agreements: 1, UnclaimedPrizes: 0 });

    const { answer } = await deleteWithCode(user);
    expect(answer.body).toMatchObject({ code: 200, message: 'Your account has been deleted.' });
    expect((await t.call(paymentSandbox.transaction, { params: { id: agreement.Key } })).body.data.State).toBe('TERMINATED');
    const [kept] = await t.app.db.select({ userId: orders.userId }).from(orders).where(eq(orders.key, first.Key));
    expect(kept).toEqual({ userId: null });
  });

  it('deletes nothing when the provider cannot end the contract, and the same code works on the next try', async () => {
    const user = await newUser();
    const { agreement } = await signed(user);
    const provider = t.app.payments.channel('wechatpay').provider()!;
    const outage = vi.spyOn(provider, 'terminateContract').mockRejectedValueOnce(new ProviderError('connect ECONNREFUSED'));
    const { code, answer } = await deleteWithCode(user);
    outage.mockRestore();
    expect(answer.status).toBe(502);
    expect(answer.body.message).toMatch(
      /^Your auto-renewal could not be ended at the payment service just now, so nothing was deleted\. Please try again in a moment\. If it keeps happening, quote reference [0-9a-f]{16} when you contact us\.$/,
    );
    expect(await t.app.db.select({ id: users.id }).from(users).where(eq(users.id, user.userId))).toEqual([{ id: user.userId }]);
    expect((await agreementsOf(user.token))[0]).toMatchObject({ Key: agreement.Key, State: 'active' });

    const retried = await deleteWithCode(user, code);
    expect(retried.answer.body.code).toBe(200);
    expect((await t.call(paymentSandbox.transaction, { params: { id: agreement.Key } })).body.data.State).toBe('TERMINATED');
  });

  it('refuses other callers: the losses need the account’s own login', async () => {
    await expectBadTokensRefused(t, accountCalls.deletionLosses, {}, newUser);
  });
});

describe('cancelling', () => {
  it('ends the contract at the provider and here; the paid period runs on', async () => {
    const user = await newUser();
    const { agreement } = await signed(user);
    const until = await membershipOf(user.userId);
    const answer = await t.call(agreementCalls.cancel, { token: user.token, params: { key: agreement.Key } });
    expect(answer.body.data).toMatchObject({ State: 'canceled', NextChargeAt: null });
    expect((await t.call(paymentSandbox.transaction, { params: { id: agreement.Key } })).body.data.State).toBe('TERMINATED');
    expect(await renewNow(agreement.Key)).toEqual([]);
    expect(await membershipOf(user.userId)).toEqual(until);
  });

  it('ends an agreement the customer ends in the payment app', async () => {
    const user = await newUser();
    const { agreement } = await signed(user);
    await act(agreement.Key, 'terminate');
    const [ended] = await agreementsOf(user.token);
    expect(ended.State).toBe('canceled');
  });

  it("cannot see or cancel another user's agreement, and refuses bad tokens", async () => {
    const owner = await newUser();
    const { Agreement: theirs } = (await start(owner.token)).body.data;
    const other = await newUser();
    expect((await t.call(agreementCalls.cancel, { token: other.token, params: { key: theirs.Key } })).body.code).toBe(ErrorCode.NotFound);
    expect(await agreementsOf(other.token)).toEqual([]);
    await expectBadTokensRefused(t, agreementCalls.list, {}, newUser);
    await expectBadTokensRefused(t, agreementCalls.create, { body: { Product: 'cloud-idle-monthly' } }, newUser);
    await expectBadTokensRefused(t, agreementCalls.cancel, { params: { key: theirs.Key } }, newUser);
  });
});
