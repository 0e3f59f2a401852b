/**
 * Refunds (server/modules/commerce/refunds.ts), through the operators'
 * command as the console and the CLI run it, against the payment sandbox
 * speaking WeChat Pay's refund API: whole and partial refunds, to the wallet
 * and to the original payment, settled by the provider's notification (a
 * replay changes nothing), by its answer, or by the check that asks about
 * refunds left pending; a refusal frees the amount again; refunds racing each
 * other never give back more than the price (also on PostgreSQL: this file is
 * in the scale-out run); and every refund is audited and leaves its ledger row
 * and timeline event. A support user's limits per order and per day hold
 * across split and racing refunds; a plan's months go back with the share
 * refunded; a refund WeChat Pay reports ABNORMAL stays reserved until an
 * operator resolves it, once.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OperatorRole } from '#contract/admin.ts';
import { parseWords, type Command, type ResultOf } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import { commerceCommands } from '#contract/commands/commerce.ts';
import type { roleAndAuditCommands } from '#contract/commands/operators.ts';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { paymentSandbox } from '#contract/dev.ts';
import { runCommand } from '../../../server/admin-command.ts';
import { consoleActor, shellActor, type Actor } from '../../../server/db/audit.ts';
import { rowsOf } from '../../../server/db/database.ts';
import { memberships, orderEvents, orders, products, refunds, walletLedger } from '../../../server/db/schema.ts';
import { demoProducts } from '../../../server/modules/commerce/catalogue.ts';
import { checkPendingRefunds } from '../../../server/modules/commerce/refunds.ts';
import { changeBalance } from '../../../server/modules/commerce/wallet.ts';
import { payContextOf } from '../../../server/modules/commerce/pay-context.ts';
import { ProviderError, RefundRefused, type PaymentProvider } from '../../../server/services/payment-provider.ts';
import { loginBySms } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';
import { deliverNotification, notification } from './wechatpay-notifications.ts';

let t: TestApp;
let phoneSeq = 0;

beforeAll(async () => {
  // A support user may refund ¥100 of one order and ¥250 a day.
  t = await startApp({ SITE_URL: 'https://beacon.test', SUPPORT_REFUND_LIMIT_FEN: '10000', SUPPORT_REFUND_DAILY_LIMIT_FEN: '25000' });
  await t.app.db.insert(products).values(demoProducts);
  // The sandbox calls back (notifications): the app must be listening.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** A command's words as the CLI parses them, run inside the server by `actor`, with their role as the console's (none at the shell). */
async function runAs<C extends Command>(actor: Actor, words: string[]): Promise<ResultOf<C>> {
  const { command, args } = parseWords(operatorCommands, words);
  return (await runCommand(t.app, command.name, args, { actor, locale: 'en', attachment: null }, actor.role)) as ResultOf<C>;
}

/** A command (`order refund` unless told) as the CLI runs it inside the server. */
const admin = <C extends Command = typeof commerceCommands.refund>(...words: string[]) => runAs<C>(shellActor('ops@shop', null), words);

/** A notification address the sandbox cannot reach, for the next refund to WeChat Pay: the test delivers the notifications itself. */
const notifyNowhereOnce = () => vi.spyOn(t.app.payments.channel('wechatpay'), 'notifyUrl').mockReturnValueOnce('http://127.0.0.1:9/nowhere');

async function buyer() {
  const login = await loginBySms(t, `1360000${String(++phoneSeq).padStart(4, '0')}`, `device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id };
}

const stateOf = async (key: string) => (await t.app.db.select({ state: orders.state }).from(orders).where(eq(orders.key, key)))[0].state;
const notesOf = async (key: string) =>
  (
    await t.app.db
      .select({ note: orderEvents.note })
      .from(orderEvents)
      .innerJoin(orders, eq(orders.id, orderEvents.orderId))
      .where(eq(orders.key, key))
      .orderBy(orderEvents.id)
  ).map((row) => row.note);
const refundsOf = async (key: string) =>
  t.app.db
    .select({ refundNo: refunds.refundNo, amount: refunds.amount, destination: refunds.destination, state: refunds.state })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(eq(orders.key, key))
    .orderBy(refunds.id);
const refundLedger = async (userId: number) =>
  (await t.app.db.select().from(walletLedger).where(eq(walletLedger.userId, userId))).filter((row) => row.reason === 'refund').map((row) => row.delta);

/** A ¥50 Steam recharge paid through the sandbox (scanned and approved), with the sandbox's transaction id. */
async function paidByWechat(): Promise<{ order: Order; userId: number; prepay: string }> {
  const { token, userId } = await buyer();
  const order = (await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: 5000, Target: '12345678' } })).body.data;
  const paying = await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wechatpay' } });
  const prepay = new URL(paying.body.data.CodeUrl!).searchParams.get('pr')!;
  await t.call(paymentSandbox.act, { params: { id: prepay }, body: { Action: 'approve' } });
  await expect.poll(() => stateOf(order.Key)).toBe('paid');
  return { order, userId, prepay };
}

/** A Steam recharge (¥50 unless told) paid from the wallet. */
async function paidFromWallet(price = 5000): Promise<{ order: Order; userId: number }> {
  const { token, userId } = await buyer();
  await t.app.db.transaction((tx) => changeBalance(tx, userId, price, 'credit', null));
  const order = (await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: price, Target: '12345678' } })).body.data;
  await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wallet' } });
  expect(await stateOf(order.Key)).toBe('paid');
  return { order, userId };
}

/** A console user of the role (a fresh account), and their commands as the console runs them. */
async function consoleUser(role: OperatorRole) {
  const { userId } = await buyer();
  const actor = consoleActor({ userId, nickname: `${role} ${userId}`, role }, '10.0.0.1');
  return { userId, run: <C extends Command = typeof commerceCommands.refund>(...words: string[]) => runAs<C>(actor, words) };
}

/** What the order's refunds that did not fail add up to. */
const reservedOf = async (key: string) => (await refundsOf(key)).filter((r) => r.state !== 'failed').reduce((total, r) => total + r.amount, 0);

describe('refunds to the original payment', () => {
  it('asks WeChat Pay, and settles when its notification says the refund succeeded', async () => {
    const { order, prepay } = await paidByWechat();
    const asked = await admin('order', 'refund', order.Key);
    expect(asked).toMatchObject({ refused: null, refund: { refundNo: `${order.Key}R1`, amount: 5000, to: 'original', state: 'pending' } });
    await expect.poll(() => stateOf(order.Key)).toBe('refunded');
    expect(await refundsOf(order.Key)).toEqual([{ refundNo: `${order.Key}R1`, amount: 5000, destination: 'original', state: 'succeeded' }]);
    expect((await notesOf(order.Key)).slice(-2)).toEqual(['refundRequested', 'refunded']);
    expect((await t.call(paymentSandbox.transaction, { params: { id: prepay } })).body.data.State).toBe('REFUND');
  });

  it('refunds in parts, to the payment and to the wallet, and is refunded once all of it is back', async () => {
    const { order, userId } = await paidByWechat();
    expect(await admin('order', 'refund', order.Key, '--amount', '1000', '--to', 'wallet')).toMatchObject({
      refund: { amount: 1000, to: 'wallet', state: 'succeeded' },
    });
    expect(await refundLedger(userId)).toEqual([1000]);
    expect(await stateOf(order.Key)).toBe('paid');
    await admin('order', 'refund', order.Key, '--amount', '1500');
    await expect.poll(async () => (await refundsOf(order.Key)).map((r) => r.state)).toEqual(['succeeded', 'succeeded']);
    expect(await stateOf(order.Key)).toBe('paid');

    // More than is left is refused in the operator's language, naming what is left.
    const tooMuch = await admin('order', 'refund', order.Key, '--amount', '2600');
    expect(tooMuch).toMatchObject({ order: null, refund: null, refused: 'Enter an amount from 0.01 up to what is left to refund of this order: CN¥25.' });

    await admin('order', 'refund', order.Key);
    await expect.poll(() => stateOf(order.Key)).toBe('refunded');
    expect((await refundsOf(order.Key)).map((r) => [r.amount, r.destination, r.state])).toEqual([
      [1000, 'wallet', 'succeeded'],
      [1500, 'original', 'succeeded'],
      [2500, 'original', 'succeeded'],
    ]);
    expect(await notesOf(order.Key)).toEqual(expect.arrayContaining(['partlyRefundedToWallet', 'refundRequested', 'partlyRefunded', 'refunded']));
    expect((await admin('order', 'refund', order.Key)).refused).toBe('Only a paid order can be refunded.');
  });

  it('frees the amount again when WeChat Pay refuses the refund, and refunds it on the next try', async () => {
    const { order } = await paidByWechat();
    const real = t.app.payments.provider('wechatpay')!;
    const refusing: PaymentProvider = {
      ...real,
      refund: async () => {
        throw new RefundRefused('NOT_ENOUGH: the merchant account lacks the funds');
      },
    };
    const provider = vi.spyOn(t.app.payments, 'provider').mockReturnValueOnce(refusing);
    await admin('order', 'refund', order.Key);
    provider.mockRestore();
    expect((await refundsOf(order.Key)).map((r) => r.state)).toEqual(['failed']);
    expect(await stateOf(order.Key)).toBe('paid');
    expect((await notesOf(order.Key)).slice(-2)).toEqual(['refundRequested', 'refundFailed']);
    await admin('order', 'refund', order.Key, '--to', 'wallet');
    expect(await stateOf(order.Key)).toBe('refunded');
  });

  it('applies a refund notification once: a replay is refused, and a fresh one for a settled refund changes nothing', async () => {
    const { order } = await paidByWechat();
    notifyNowhereOnce();
    const result = await admin('order', 'refund', order.Key, '--amount', '2000');
    expect(result).toMatchObject({ refund: { state: 'pending' } });
    const refundNo = `${order.Key}R1`;
    const success = notification({ out_refund_no: refundNo, refund_status: 'SUCCESS' }, { event: 'REFUND.SUCCESS' });
    expect((await deliverNotification(t, success)).statusCode).toBe(200);
    expect((await deliverNotification(t, success)).statusCode).toBe(400);
    const again = notification({ out_refund_no: refundNo, refund_status: 'ABNORMAL' }, { event: 'REFUND.ABNORMAL' });
    expect((await deliverNotification(t, again)).statusCode).toBe(200);
    expect(await refundsOf(order.Key)).toMatchObject([{ amount: 2000, state: 'succeeded' }]);
    expect((await notesOf(order.Key)).filter((n) => n === 'partlyRefunded')).toHaveLength(1);
  });

  it('settles a refund whose answer and notification were lost by asking WeChat Pay, and fails one it never received', async () => {
    const { order } = await paidByWechat();
    const real = t.app.payments.provider('wechatpay')!;
    // The provider takes the refund but its answer never arrives, and neither does its notification.
    const answerLost: PaymentProvider = {
      ...real,
      refund: async (request) => {
        await real.refund({ ...request, notifyUrl: 'http://127.0.0.1:9/nowhere' });
        throw new ProviderError('WeChat Pay did not answer');
      },
    };
    const provider = vi.spyOn(t.app.payments, 'provider').mockReturnValueOnce(answerLost);
    await admin('order', 'refund', order.Key, '--amount', '1000');
    // The provider never hears of this one (no provider could be asked).
    provider.mockReturnValueOnce(null);
    await admin('order', 'refund', order.Key, '--amount', '500');
    provider.mockRestore();
    expect((await refundsOf(order.Key)).map((r) => r.state)).toEqual(['pending', 'pending']);

    // Not yet a minute old: the check leaves them.
    expect(await checkPendingRefunds(payContextOf(t.app, () => {}))).toEqual([]);
    await t.app.db.execute(sql`update refunds set created_at = now() - interval '2 minutes' where refund_no like ${`${order.Key}R%`}`);
    // The one it never received fails at once; the one it took settles once the provider is done with it (a moment, in the
    // sandbox: on a slower database it may be done by the first check already, so the order of the two is not asserted).
    const settled: string[] = [];
    await expect
      .poll(async () => {
        for (const done of await checkPendingRefunds(payContextOf(t.app, () => {}))) settled.push(`${done.refund.refundNo} ${done.refund.state}`);
        return settled.toSorted();
      })
      .toEqual([`${order.Key}R1 succeeded`, `${order.Key}R2 failed`]);
    expect((await notesOf(order.Key)).slice(-4).toSorted()).toEqual(['partlyRefunded', 'refundFailed', 'refundRequested', 'refundRequested']);
  });
});

describe('refunds racing', () => {
  it('never gives back more than the price when refunds of one order race (eight of ¥30 for a ¥50 order: one)', async () => {
    const { order, userId } = await paidFromWallet();
    const answers = await Promise.all(Array.from({ length: 8 }, () => admin('order', 'refund', order.Key, '--amount', '3000')));
    expect(answers.filter((answer) => answer.refund)).toHaveLength(1);
    expect(await refundLedger(userId)).toEqual([3000]);
    const rest = await Promise.all(Array.from({ length: 8 }, () => admin('order', 'refund', order.Key)));
    expect(rest.filter((answer) => answer.refund).map((answer) => answer.refund!.amount)).toEqual([2000]);
    expect(await refundLedger(userId)).toEqual([3000, 2000]);
    expect(await stateOf(order.Key)).toBe('refunded');
    const audit = await admin<typeof roleAndAuditCommands.auditList>('audit', 'list', '--action', 'order refund', '--size', '200');
    expect(audit.rows.filter((line) => line.target === `order ${order.Key}`).map((line) => line.after)).toEqual([
      { refund: `${order.Key}R2`, amount: 2000, to: 'wallet' },
      { refund: `${order.Key}R1`, amount: 3000, to: 'wallet' },
    ]);
  });

  it('never refunds twice to the original payment when two full refunds race', async () => {
    const { order } = await paidByWechat();
    const answers = await Promise.all(Array.from({ length: 6 }, () => admin('order', 'refund', order.Key)));
    expect(answers.filter((answer) => answer.refund)).toHaveLength(1);
    await expect.poll(() => stateOf(order.Key)).toBe('refunded');
    expect(await refundsOf(order.Key)).toMatchObject([{ amount: 5000, state: 'succeeded' }]);
  });
});

describe('a support user’s refund limits', () => {
  it('stop split refunds of one order at the limit per order, counting everyone’s refunds of it; an operator has none', async () => {
    const support = await consoleUser('support');
    const { order, userId } = await paidFromWallet(30000);
    expect(await support.run('order', 'refund', order.Key, '--amount', '10000')).toMatchObject({ refused: null, refund: { amount: 10000 } });
    // Three refunds of ¥100 would give back the ¥300 order: the second is refused, naming the limit and what is left of it.
    expect(await support.run('order', 'refund', order.Key, '--amount', '10000')).toMatchObject({
      refund: null,
      refused:
        'Your role may refund at most CN¥100 of one order, counting every refund of it; CN¥0 of that is left for this order. Ask an operator to make this refund.',
    });
    // Another support user is refused too: the order's refunds count, whoever made them.
    expect((await (await consoleUser('support')).run('order', 'refund', order.Key, '--amount', '1')).refused).toMatch(
      /^Your role may refund at most CN¥100 of one order/,
    );
    expect(await reservedOf(order.Key)).toBe(10000);

    // An operator is not limited.
    const operator = await consoleUser('operator');
    expect(await operator.run('order', 'refund', order.Key)).toMatchObject({ refused: null, refund: { amount: 20000 }, order: { State: 'refunded' } });
    expect(await refundLedger(userId)).toEqual([10000, 20000]);

    // What an operator refunded first counts against a support user's refund of the same order.
    const next = await paidFromWallet(30000);
    await operator.run('order', 'refund', next.order.Key, '--amount', '9000');
    expect((await support.run('order', 'refund', next.order.Key, '--amount', '2000')).refused).toContain('CN¥10 of that is left for this order');
    expect(await support.run('order', 'refund', next.order.Key, '--amount', '1000')).toMatchObject({ refused: null, refund: { amount: 1000 } });
    // Every refund names the console user who made it.
    expect(
      (
        await t.app.db.select({ by: refunds.actorUserId }).from(refunds).innerJoin(orders, eq(orders.id, refunds.orderId)).where(eq(orders.key, next.order.Key))
      ).map((row) => row.by),
    ).toEqual([operator.userId, support.userId]);
  });

  it('stop one support user’s refunds across orders at the daily limit, counting their own refunds of the last 24 hours', async () => {
    const support = await consoleUser('support');
    const [a, b, c] = await Promise.all([paidFromWallet(30000), paidFromWallet(30000), paidFromWallet(30000)]);
    expect((await support.run('order', 'refund', a.order.Key, '--amount', '10000')).refused).toBeNull();
    expect((await support.run('order', 'refund', b.order.Key, '--amount', '10000')).refused).toBeNull();
    expect(await support.run('order', 'refund', c.order.Key, '--amount', '10000')).toMatchObject({
      refund: null,
      refused: 'Your role may refund at most CN¥250 in 24 hours; CN¥50 of that is left for you now. Ask an operator to make this refund.',
    });
    expect((await support.run('order', 'refund', c.order.Key, '--amount', '5000')).refused).toBeNull();
    expect((await support.run('order', 'refund', c.order.Key, '--amount', '1')).refused).toContain('CN¥0 of that is left for you now');
    // Another support user has a day of their own.
    expect((await (await consoleUser('support')).run('order', 'refund', c.order.Key, '--amount', '5000')).refused).toBeNull();

    // A day later the refunds no longer count against the day.
    await t.app.db.execute(sql`update refunds set created_at = now() - interval '25 hours' where actor_user_id = ${support.userId}`);
    expect((await support.run('order', 'refund', c.order.Key, '--amount', '1')).refused).toMatch(/of one order/);
    expect((await support.run('order', 'refund', (await paidFromWallet(30000)).order.Key, '--amount', '10000')).refused).toBeNull();
  });

  it('hold when one support user’s refunds race: ten at once on ten orders, then ten at once on five, never pass either limit', async () => {
    const support = await consoleUser('support');
    const ten = await Promise.all(Array.from({ length: 10 }, () => paidFromWallet(30000)));
    // One refund of ¥60 for each order: each fits ¥100 of its order, but only four fit the day's ¥250.
    const answers = await Promise.all(ten.map(({ order }) => support.run('order', 'refund', order.Key, '--amount', '6000')));
    expect(answers.filter((answer) => answer.refund)).toHaveLength(4);
    expect((await Promise.all(ten.map(({ order }) => reservedOf(order.Key)))).reduce((total, fen) => total + fen, 0)).toBe(24000);

    // Another support user, two refunds of ¥60 for each of five orders: one per order fits ¥100, four in all fit ¥250.
    const next = await consoleUser('support');
    const five = await Promise.all(Array.from({ length: 5 }, () => paidFromWallet(30000)));
    const twice = await Promise.all(five.flatMap(({ order }) => [order.Key, order.Key]).map((key) => next.run('order', 'refund', key, '--amount', '6000')));
    expect(twice.filter((answer) => answer.refund)).toHaveLength(4);
    const perOrder = await Promise.all(five.map(({ order }) => reservedOf(order.Key)));
    expect(Math.max(...perOrder)).toBeLessThanOrEqual(10000);
    expect(perOrder.reduce((total, fen) => total + fen, 0)).toBe(24000);

    // Eight at once of one order by a fresh support user: one fits.
    const other = await consoleUser('support');
    const { order } = await paidFromWallet(30000);
    const same = await Promise.all(Array.from({ length: 8 }, () => other.run('order', 'refund', order.Key, '--amount', '6000')));
    expect(same.filter((answer) => answer.refund)).toHaveLength(1);
    expect(await reservedOf(order.Key)).toBe(6000);
  });
});

describe('a plan refunded', () => {
  /** A yearly plan (12 months for ¥50) paid from the wallet, and until when the customer's plan runs now. */
  async function planPaid(): Promise<{ order: Order; userId: number; until: Date }> {
    const { token, userId } = await buyer();
    await t.app.db.transaction((tx) => changeBalance(tx, userId, 5000, 'credit', null));
    const order = (await t.call(commerceCalls.createOrder, { token, body: { Product: 'cloud-idle-yearly' } })).body.data;
    await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wallet' } });
    expect(await stateOf(order.Key)).toBe('fulfilled');
    return { order, userId, until: await planUntil(userId) };
  }
  const planUntil = async (userId: number) =>
    (await t.app.db.select({ until: memberships.until }).from(memberships).where(eq(memberships.userId, userId)))[0].until;
  /** The time from the order's day to the same day months later, in seconds (a year: 365 or 366 days). */
  const monthsFrom = async (key: string, months: number) =>
    Number(
      rowsOf<{ seconds: string }>(
        await t.app.db.execute(
          sql`select extract(epoch from ((created_at at time zone 'UTC') + make_interval(months => ${months})) - (created_at at time zone 'UTC')) as seconds from orders where key = ${key}`,
        ),
      )[0].seconds,
    );
  const day = 86_400_000;

  it('loses the share of its months that was refunded: half of the price, half of them; all of it, all of them', async () => {
    const { order, userId, until } = await planPaid();
    const year = await monthsFrom(order.Key, 12);
    const taken = async () => (until.getTime() - (await planUntil(userId)).getTime()) / 1000;
    await admin('order', 'refund', order.Key, '--amount', '2500');
    expect(await taken()).toBe(Math.round(year / 2));
    await admin('order', 'refund', order.Key, '--amount', '1250');
    expect(await taken()).toBe(Math.round((year * 3) / 4));
    await admin('order', 'refund', order.Key);
    expect(await stateOf(order.Key)).toBe('refunded');
    // All of it: the plan ends now (it never ends before now).
    expect(Math.abs((await planUntil(userId)).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('loses (nearly) all its months for a refund of the price less one fen, and keeps the customer’s other plan time', async () => {
    const { order, userId, until } = await planPaid();
    // Ten more days of the customer's own (a cdkey's, say): a refund takes back only this order's months.
    await t.app.db.execute(sql`update memberships set until = until + interval '240 hours' where user_id = ${userId}`);
    const year = await monthsFrom(order.Key, 12);
    const taken = async () => (until.getTime() + 10 * day - (await planUntil(userId)).getTime()) / 1000;
    await admin('order', 'refund', order.Key, '--amount', '4999');
    expect(await taken()).toBe(Math.round((year * 4999) / 5000));
    // What is left of the plan: the ten days and about two hours (a year's 1/5000).
    expect((await planUntil(userId)).getTime() - Date.now()).toBeLessThan(10 * day + 2 * 3_600_000);
    await admin('order', 'refund', order.Key, '--amount', '1');
    expect(await taken()).toBe(year);
  });
});

describe('a refund WeChat Pay reports abnormal', () => {
  /** A refund to the original payment that WeChat Pay ends ABNORMAL (the payer's account could not take it). */
  async function abnormalRefund(amount = '5000') {
    const { order, prepay, userId } = await paidByWechat();
    await t.call(paymentSandbox.act, { params: { id: prepay }, body: { Action: 'failRefunds' } });
    await admin('order', 'refund', order.Key, '--amount', amount);
    await expect.poll(async () => (await refundsOf(order.Key)).map((r) => r.state)).toEqual(['abnormal']);
    return { order, userId, refundNo: `${order.Key}R1` };
  }

  it('stays reserved, shows as needing attention, and an operator resolves it once as refunded another way, audited', async () => {
    const { order, refundNo } = await abnormalRefund();
    expect(await stateOf(order.Key)).toBe('paid');
    expect((await notesOf(order.Key)).slice(-2)).toEqual(['refundRequested', 'refundAbnormal']);
    // Its amount is still reserved: a second refund of it is refused as more than is left.
    expect((await admin('order', 'refund', order.Key, '--to', 'wallet', '--amount', '5000')).refused).toBe(
      'Enter an amount from 0.01 up to what is left to refund of this order: CN¥0.',
    );

    const support = await consoleUser('support');
    const shown = await support.run<typeof commerceCommands.orderShow>('order', 'show', order.Key);
    expect(shown).toMatchObject({ order: { Refunds: [{ refundNo, state: 'abnormal' }] } });
    const attention = await support.run<typeof commerceCommands.refundAttention>('refund', 'attention');
    expect(attention.refunds).toContainEqual(expect.objectContaining({ refundNo, orderKey: order.Key, amount: 5000, state: 'abnormal' }));
    // Only an operator may resolve it.
    expect(commerceCommands.refundResolve.role).toBe('operator');

    const operator = await consoleUser('operator');
    const resolved = await operator.run<typeof commerceCommands.refundResolve>('refund', 'resolve', refundNo, 'succeeded');
    expect(resolved).toMatchObject({ command: 'refund resolve', key: refundNo, refused: null, refund: { state: 'succeeded' }, order: { State: 'refunded' } });
    expect(await stateOf(order.Key)).toBe('refunded');
    expect((await notesOf(order.Key)).at(-1)).toBe('refunded');
    const again = await operator.run<typeof commerceCommands.refundResolve>('refund', 'resolve', refundNo, 'failed');
    expect(again).toMatchObject({ order: null, refused: 'This refund does not need resolving: only a refund WeChat Pay reported abnormal does.' });
    expect((await refundsOf(order.Key)).map((r) => r.state)).toEqual(['succeeded']);
    const listed = await support.run<typeof commerceCommands.refundAttention>('refund', 'attention');
    expect(listed.refunds.map((r) => r.refundNo)).not.toContain(refundNo);

    const audit = await admin<typeof roleAndAuditCommands.auditList>('audit', 'list', '--action', 'refund resolve', '--target', `order ${order.Key}`);
    expect(audit).toMatchObject({
      rows: [{ actorUserId: operator.userId, before: { refund: refundNo, state: 'abnormal' }, after: { refund: refundNo, state: 'succeeded' } }],
    });
  });

  it('frees its amount when an operator resolves it as not refunded, once', async () => {
    const { order, userId, refundNo } = await abnormalRefund('2000');
    const operator = await consoleUser('operator');
    expect(await operator.run<typeof commerceCommands.refundResolve>('refund', 'resolve', refundNo, 'failed')).toMatchObject({
      refused: null,
      refund: { state: 'failed' },
    });
    expect((await notesOf(order.Key)).at(-1)).toBe('refundFailed');
    expect(await admin('order', 'refund', order.Key, '--to', 'wallet')).toMatchObject({ refund: { amount: 5000 }, order: { State: 'refunded' } });
    expect(await refundLedger(userId)).toEqual([5000]);
    expect((await operator.run<typeof commerceCommands.refundResolve>('refund', 'resolve', refundNo, 'succeeded')).refused).toMatch(/does not need resolving/);
    expect((await operator.run<typeof commerceCommands.refundResolve>('refund', 'resolve', `${order.Key}R9`, 'succeeded')).refused).toBe(
      `There is no refund ${order.Key}R9.`,
    );
  });

  it('comes through the adapter from WeChat Pay’s refund query too, when the notification is lost', async () => {
    const { order, prepay } = await paidByWechat();
    await t.call(paymentSandbox.act, { params: { id: prepay }, body: { Action: 'failRefunds' } });
    notifyNowhereOnce();
    await admin('order', 'refund', order.Key);
    const refundNo = `${order.Key}R1`;
    await expect.poll(() => t.app.payments.provider('wechatpay')!.queryRefund({ outRefundNo: refundNo, transactionId: '' })).toBe('ABNORMAL');
    expect((await refundsOf(order.Key)).map((r) => r.state)).toEqual(['pending']);
    await t.app.db.execute(sql`update refunds set created_at = now() - interval '2 minutes' where refund_no = ${refundNo}`);
    const settled = await checkPendingRefunds(payContextOf(t.app, () => {}));
    expect(settled.map((done) => `${done.refund.refundNo} ${done.refund.state}`)).toContain(`${refundNo} abnormal`);
    // A later word from WeChat Pay changes nothing: the operator who handled it says how it ended.
    const later = notification({ out_refund_no: refundNo, refund_status: 'SUCCESS' }, { event: 'REFUND.SUCCESS' });
    expect((await deliverNotification(t, later)).statusCode).toBe(200);
    expect((await refundsOf(order.Key)).map((r) => r.state)).toEqual(['abnormal']);
  });
});
