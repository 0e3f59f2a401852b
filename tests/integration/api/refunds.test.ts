/**
 * Refunds (server/modules/commerce/refunds.ts), through the operators'
 * command as the console and the CLI run it, against the payment sandbox
 * speaking WeChat Pay's refund API: whole and partial refunds, to the wallet
 * and to the original payment, settled by the provider's notification (a
 * replay changes nothing), by its answer, or by the check that asks about
 * refunds left pending; a refusal frees the amount again; refunds racing each
 * other never give back more than the price (also on PostgreSQL: this file is
 * in the scale-out run); and every refund is audited and leaves its ledger row
 * and timeline event.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandResult } from '#contract/admin.ts';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { paymentSandbox } from '#contract/dev.ts';
import { commandContext, parseCommand } from '../../../server/admin-command.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { orderEvents, orders, products, refunds, walletLedger } from '../../../server/db/schema.ts';
import { demoProducts } from '../../../server/modules/commerce/catalogue.ts';
import { checkPendingRefunds } from '../../../server/modules/commerce/refunds.ts';
import { changeBalance } from '../../../server/modules/commerce/wallet.ts';
import { ProviderError, type PaymentProvider } from '../../../server/services/wechatpay-adapter.ts';
import { loginBySms } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';
import { deliverNotification, notification } from './wechatpay-notifications.ts';

let t: TestApp;
let phoneSeq = 0;

beforeAll(async () => {
  t = await startApp({ SITE_URL: 'https://beacon.test' });
  await t.app.db.insert(products).values(demoProducts);
  // The sandbox calls back (notifications): the app must be listening.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** A command as the console or the CLI runs it inside the server. */
const admin = (...words: string[]) =>
  parseCommand(t.app.adminCommands.all, words)(commandContext(t.app, shellActor('ops@shop', null))) as Promise<CommandResult & { command: 'order refund' }>;

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

/** A ¥50 Steam recharge paid from the wallet. */
async function paidFromWallet(): Promise<{ order: Order; userId: number }> {
  const { token, userId } = await buyer();
  await t.app.db.transaction((tx) => changeBalance(tx, userId, 5000, 'credit', null));
  const order = (await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: 5000, Target: '12345678' } })).body.data;
  await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wallet' } });
  return { order, userId };
}

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

  it('frees the amount again when the refund ends abnormal, and refunds it on the next try', async () => {
    const { order, prepay } = await paidByWechat();
    await t.call(paymentSandbox.act, { params: { id: prepay }, body: { Action: 'failRefunds' } });
    await admin('order', 'refund', order.Key);
    await expect.poll(async () => (await refundsOf(order.Key)).map((r) => r.state)).toEqual(['failed']);
    expect(await stateOf(order.Key)).toBe('paid');
    expect((await notesOf(order.Key)).slice(-2)).toEqual(['refundRequested', 'refundFailed']);
    await admin('order', 'refund', order.Key, '--to', 'wallet');
    expect(await stateOf(order.Key)).toBe('refunded');
  });

  it('applies a refund notification once: a replay is refused, and a fresh one for a settled refund changes nothing', async () => {
    const { order } = await paidByWechat();
    // No notification address the sandbox can reach: the test delivers the notifications itself.
    const lost = { ...t.app.payments, notifyUrl: () => 'http://127.0.0.1:9/nowhere' };
    const context = commandContext(t.app, shellActor('ops@shop', null));
    const result = await parseCommand(t.app.adminCommands.all, ['order', 'refund', order.Key, '--amount', '2000'])({
      ...context,
      paymentNotifyUrl: lost.notifyUrl,
    });
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
    const real = t.app.payments.provider()!;
    // The provider takes the refund but its answer never arrives, and neither does its notification.
    const answerLost: PaymentProvider = {
      ...real,
      refund: async (request) => {
        await real.refund({ ...request, notifyUrl: 'http://127.0.0.1:9/nowhere' });
        throw new ProviderError('WeChat Pay did not answer');
      },
    };
    const context = commandContext(t.app, shellActor('ops@shop', null));
    await parseCommand(t.app.adminCommands.all, ['order', 'refund', order.Key, '--amount', '1000'])({ ...context, paymentProvider: () => answerLost });
    // The provider never hears of this one (no provider could be asked).
    await parseCommand(t.app.adminCommands.all, ['order', 'refund', order.Key, '--amount', '500'])({ ...context, paymentProvider: () => null });
    expect((await refundsOf(order.Key)).map((r) => r.state)).toEqual(['pending', 'pending']);

    // Not yet a minute old: the check leaves them.
    expect(await checkPendingRefunds({ db: t.app.db, provider: t.app.payments.provider, settled: () => {} })).toEqual([]);
    await t.app.db.execute(sql`update refunds set created_at = now() - interval '2 minutes' where refund_no like ${`${order.Key}R%`}`);
    // The one it never received fails at once; the one it took settles once the provider is done with it (a moment, in the sandbox).
    const settled: string[] = [];
    await expect
      .poll(async () => {
        for (const done of await checkPendingRefunds({ db: t.app.db, provider: t.app.payments.provider, settled: () => {} }))
          settled.push(`${done.refund.refundNo} ${done.refund.state}`);
        return settled;
      })
      .toEqual([`${order.Key}R2 failed`, `${order.Key}R1 succeeded`]);
    expect((await notesOf(order.Key)).slice(-4)).toEqual(['refundRequested', 'refundRequested', 'refundFailed', 'partlyRefunded']);
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
    const audit = await parseCommand(t.app.adminCommands.all, ['audit', 'list', '--action', 'order refund', '--limit', '1000'])(
      commandContext(t.app, shellActor('ops@shop', null)),
    );
    if (audit.command !== 'audit list') throw new Error('not an audit list');
    expect(audit.entries.filter((line) => line.target === `order ${order.Key}`).map((line) => line.after)).toEqual([
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
