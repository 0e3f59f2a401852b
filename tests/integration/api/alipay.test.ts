/**
 * Paying with Alipay end to end against the real server and its Alipay
 * sandbox (which speaks Alipay's gateway protocol over the server's own
 * loopback address): a code to scan, a payment in Alipay on the phone,
 * refunds, and the money invariants — a notification replayed 100 times,
 * forged ones, a notification racing the query of the same payment, refunds
 * racing each other, two methods paying one order.
 */
import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementCalls } from '#contract/agreements.ts';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { alipaySandbox, paymentSandbox } from '#contract/dev.ts';
import { ErrorCode } from '#contract/errors.ts';
import { parseWords, type ResultOf } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import type { commerceCommands } from '#contract/commands/commerce.ts';
import { runCommand } from '../../../server/admin-command.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { orderEvents, orders, payments, products, refunds, walletLedger } from '../../../server/db/schema.ts';
import { demoProducts } from '../../../server/modules/commerce/catalogue.ts';
import { payContextOf } from '../../../server/modules/commerce/pay-context.ts';
import { applyTransaction } from '../../../server/modules/commerce/payments.ts';
import { signedNotification } from '../../../server/services/alipay-gateway-signing.ts';
import { alipaySandboxCredentials } from '../../../server/services/alipay-sandbox.ts';
import { loginBySms } from './codes.ts';
import { eventually, startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;
const newUser = async () => {
  const login = await loginBySms(t, `1391100${String(++phoneSeq).padStart(4, '0')}`, `alipay-device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id };
};

beforeAll(async () => {
  t = await startApp({ SITE_URL: 'https://beacon.test' });
  await t.app.db.insert(products).values(demoProducts);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

async function newOrder(token: string): Promise<Order> {
  const response = await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: 5000, Target: '12345678' } });
  expect(response.body.code).toBe(200);
  return response.body.data;
}

const detail = async (token: string, key: string) => (await t.call(commerceCalls.order, { token, params: { key } })).body.data;
const act = (id: string, Action: string) => t.call(alipaySandbox.act, { params: { id }, body: { Action } });
const sandboxTrade = async (id: string) => (await t.call(alipaySandbox.transaction, { params: { id } })).body.data;

/** Shows the order's Alipay code; answers the code's address (the sandbox's scan page). */
async function showCode(token: string, key: string): Promise<string> {
  const response = await t.call(commerceCalls.pay, { token, params: { key }, body: { Method: 'alipay' } });
  expect(response.body.code).toBe(200);
  expect(response.body.data.QrSvg).toContain('<svg');
  return response.body.data.CodeUrl!;
}

/** Pays the order as its customer would: shows the Alipay code, scans it, pays; answers once the shop has the payment. */
async function payWithAlipay(token: string, key: string) {
  await showCode(token, key);
  await act(key, 'scan');
  await act(key, 'approve');
  return eventually(
    () => detail(token, key),
    (read) => read.State === 'paid',
    `${key} paid with Alipay`,
  );
}

/** An Alipay notification as Alipay signs it, for an order's trade; `fields` changes some before signing. */
function notificationOf(order: Pick<Order, 'Key' | 'Price'>, tradeNo: string, fields: Record<string, string> = {}): Record<string, string> {
  const { appId, sellerId, alipayPrivateKey } = alipaySandboxCredentials();
  return signedNotification(
    {
      notify_id: `notify-${randomInt(1e9)}`,
      notify_time: '2026-12-07 12:00:00',
      notify_type: 'trade_status_sync',
      charset: 'utf-8',
      version: '1.0',
      app_id: appId,
      seller_id: sellerId,
      out_trade_no: order.Key,
      trade_no: tradeNo,
      trade_status: 'TRADE_SUCCESS',
      total_amount: (order.Price / 100).toFixed(2),
      receipt_amount: (order.Price / 100).toFixed(2),
      gmt_payment: '2026-12-07 11:59:58',
      ...fields,
    },
    alipayPrivateKey,
  );
}

const deliver = (params: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: `/api${commerceCalls.notifyAlipay.path}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    payload: new URLSearchParams(params).toString(),
  });

const tradeNo = () => `2026120722001${String(randomInt(1e9)).padStart(9, '0')}`;

async function paymentsOf(key: string) {
  return t.app.db
    .select({ method: payments.method, reference: payments.reference, disposition: payments.disposition })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(orders.key, key));
}

async function paidEvents(key: string): Promise<number> {
  const rows = await t.app.db
    .select({ id: orderEvents.id })
    .from(orderEvents)
    .innerJoin(orders, eq(orders.id, orderEvents.orderId))
    .where(and(eq(orders.key, key), eq(orderEvents.state, 'paid')));
  return rows.length;
}

describe('paying with Alipay', () => {
  it('offers Alipay beside WeChat Pay and the wallet, and pays a scanned code once the sandbox approves', async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    expect((await detail(token, order.Key)).PayWith).toEqual(['wechatpay', 'alipay', 'wallet']);
    const code = await showCode(token, order.Key);
    expect(code).toMatch(/^https:\/\/beacon\.test\/api\/dev\/alipay\/scan\?code=/);
    // Showing it again shows the same code, and says nothing new on the timeline.
    expect(await showCode(token, order.Key)).toBe(code);
    expect(await sandboxTrade(order.Key)).toMatchObject({ State: 'UNSCANNED', Total: order.Price });

    await act(order.Key, 'scan');
    await act(order.Key, 'approve');
    const paid = await eventually(
      () => detail(token, order.Key),
      (read) => read.State === 'paid',
      'the order paid',
    );
    expect(paid).toMatchObject({ Outcome: 'successful', Method: 'alipay', PayWith: [] });
    expect(paid.Timeline.map((event) => event.Note)).toEqual(['created', 'paymentStartedAlipay', 'paid']);
    expect(await paymentsOf(order.Key)).toEqual([{ method: 'alipay', reference: expect.stringMatching(/^\d+$/), disposition: 'applied' }]);
  });

  it('pays in Alipay on the phone: a signed wap.pay address that returns to the pay page', async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    const started = await t.call(commerceCalls.payOnPhone, { token, params: { key: order.Key }, body: { Method: 'alipay' } });
    expect(started.body.code).toBe(200);
    const payUrl = new URL(started.body.data.PayUrl);
    expect(`${payUrl.origin}${payUrl.pathname}`).toBe('https://beacon.test/api/dev/alipay/gateway.do');
    expect(payUrl.searchParams.get('method')).toBe('alipay.trade.wap.pay');
    expect(payUrl.searchParams.get('return_url')).toBe(`https://beacon.test/en/payment?key=${order.Key}&from=alipay`);
    expect(payUrl.searchParams.get('sign')).toBeTruthy();
    const page = await t.app.inject({ method: 'GET', url: `${payUrl.pathname}${payUrl.search}` });
    expect(page.statusCode).toBe(200);

    await act(`${order.Key}H`, 'approve');
    const paid = await eventually(
      () => detail(token, order.Key),
      (read) => read.State === 'paid',
      'the order paid',
    );
    expect(paid.Timeline.map((event) => event.Note)).toEqual(['created', 'paymentStartedInAlipay', 'paid']);
  });

  it('refuses a method the server does not take, and Alipay for an auto-renewal, which only WeChat Pay can sign', async () => {
    const { token } = await newUser();
    const signed = (await t.call(agreementCalls.create, { token, body: { Product: 'cloud-idle-monthly' } })).body.data.Order;
    expect((await detail(token, signed.Key)).PayWith).toEqual(['wechatpay']);
    for (const route of [commerceCalls.pay, commerceCalls.payOnPhone] as const) {
      expect((await t.call(route, { token, params: { key: signed.Key }, body: { Method: 'alipay' } })).body.code).toBe(ErrorCode.PayMethodUnsupported);
      expect((await t.call(route, { token, params: { key: signed.Key }, body: { Method: 'unionpay' } })).body.code).toBe(ErrorCode.PayMethodUnsupported);
    }
    expect((await detail(token, signed.Key)).State).toBe('created');
  });

  it('closes the Alipay trade when the order is cancelled; money that comes after goes to the wallet', async () => {
    const { token, userId } = await newUser();
    const order = await newOrder(token);
    await showCode(token, order.Key);
    await act(order.Key, 'scan');
    expect((await t.call(commerceCalls.cancel, { token, params: { key: order.Key } })).body.data).toMatchObject({ State: 'closed', Outcome: 'canceled' });
    expect((await sandboxTrade(order.Key)).State).toBe('TRADE_CLOSED');
    // A payment Alipay reports for it all the same (the customer paid as it closed) is kept, in the wallet.
    expect((await deliver(notificationOf(order, tradeNo()))).body).toBe('success');
    expect((await detail(token, order.Key)).State).toBe('closed');
    const [ledger] = await t.app.db.select().from(walletLedger).where(eq(walletLedger.userId, userId));
    expect(ledger).toMatchObject({ delta: order.Price, reason: 'latePayment' });
  });

  it('ends as WeChat Pay does when two methods pay one order: the second payment goes to the wallet', async () => {
    const { token, userId } = await newUser();
    const order = await newOrder(token);
    const wechat = new URL(
      (await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wechatpay' } })).body.data.CodeUrl!,
    ).searchParams.get('pr')!;
    await payWithAlipay(token, order.Key);
    await t.call(paymentSandbox.act, { params: { id: wechat }, body: { Action: 'approve' } });
    const after = await eventually(
      () => detail(token, order.Key),
      (read) => read.Outcome === 'paidByOther',
      'the second payment seen',
    );
    expect(after).toMatchObject({ State: 'paid', Method: 'alipay' });
    const ledger = await t.app.db.select().from(walletLedger).where(eq(walletLedger.userId, userId));
    expect(ledger.map((row) => [row.delta, row.reason])).toEqual([[order.Price, 'duplicatePayment']]);
  });
});

describe('Alipay notifications', () => {
  it('changes an order once when its notification is replayed 100 times in parallel, and answers each `success`', async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    await showCode(token, order.Key);
    const note = notificationOf(order, tradeNo());
    const answers = await Promise.all(Array.from({ length: 100 }, () => deliver(note)));
    expect(answers.map((answer) => `${answer.statusCode} ${answer.body}`)).toEqual(Array.from({ length: 100 }, () => '200 success'));
    expect(await paymentsOf(order.Key)).toHaveLength(1);
    expect(await paidEvents(order.Key)).toBe(1);
    expect((await detail(token, order.Key)).State).toBe('paid');
  });

  it('refuses forged notifications — a bad signature, another app, another seller, another amount, an unknown trade — and changes nothing', async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    await showCode(token, order.Key);
    const genuine = notificationOf(order, tradeNo());
    const forged = {
      'a bad signature': { ...genuine, total_amount: '0.01', sign: genuine.sign },
      'a signature by another key': { ...genuine, sign: genuine.sign.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
      'no signature': Object.fromEntries(Object.entries(genuine).filter(([name]) => name !== 'sign')),
      'another app': notificationOf(order, tradeNo(), { app_id: '2021000000009999' }),
      'another seller': notificationOf(order, tradeNo(), { seller_id: '2088000000009999' }),
      'another amount': notificationOf(order, tradeNo(), { total_amount: '0.01', receipt_amount: '0.01' }),
      'an unknown trade': notificationOf({ Key: '20991231235959000000', Price: order.Price }, tradeNo()),
    };
    for (const [what, params] of Object.entries(forged)) {
      const answer = await deliver(params);
      expect(answer.statusCode, what).toBe(400);
      expect(answer.body, what).not.toBe('success');
    }
    expect(await paymentsOf(order.Key)).toEqual([]);
    expect((await detail(token, order.Key)).State).toBe('paying');
    // The genuine one still pays it.
    expect((await deliver(genuine)).body).toBe('success');
    expect((await detail(token, order.Key)).State).toBe('paid');
  });

  it('applies a payment once when its notification races the query of the same payment', async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    await showCode(token, order.Key);
    await act(order.Key, 'scan');
    // Paid at Alipay: its own notification goes out now; the test also delivers copies and queries, all at once.
    await act(order.Key, 'approve');
    const provider = t.app.payments.provider('alipay')!;
    const paidAtAlipay = await provider.query(order.Key);
    expect(paidAtAlipay).toMatchObject({ method: 'alipay', tradeState: 'SUCCESS', total: order.Price });
    const note = notificationOf(order, paidAtAlipay!.transactionId!);
    const context = payContextOf(t.app, () => {});
    await Promise.all([
      ...Array.from({ length: 20 }, () => deliver({ ...note, notify_id: `race-${randomInt(1e9)}` }).then(() => {})),
      ...Array.from({ length: 20 }, async () => {
        const reported = await provider.query(order.Key);
        await applyTransaction(context, reported!);
      }),
    ]);
    await eventually(
      () => detail(token, order.Key),
      (read) => read.State === 'paid',
      'paid',
    );
    expect(await paymentsOf(order.Key)).toEqual([{ method: 'alipay', reference: paidAtAlipay!.transactionId, disposition: 'applied' }]);
    expect(await paidEvents(order.Key)).toBe(1);
  });
});

describe('refunds to Alipay', () => {
  /** `order refund` as the CLI runs it on a free database. */
  async function admin(...words: string[]) {
    const { command, args } = parseWords(operatorCommands, words);
    const caller = { actor: shellActor('ops@shop', null), locale: 'en' as const, attachment: null };
    return (await runCommand(t.app, command.name, args, caller, null)) as ResultOf<typeof commerceCommands.refund>;
  }

  async function paidByAlipay() {
    const { token } = await newUser();
    const order = await newOrder(token);
    await payWithAlipay(token, order.Key);
    return { token, order };
  }

  it('gives money back to the Alipay payment, in parts, never more than was paid, when refunds race', async () => {
    const { token, order } = await paidByAlipay();
    // Five refunds of 40 % at once: two fit, three are refused.
    const share = String(Math.floor(order.Price * 0.4));
    const results = await Promise.all(Array.from({ length: 5 }, () => admin('order', 'refund', order.Key, '--amount', share)));
    expect(results.filter((result) => result.refused === null)).toHaveLength(2);
    const rows = await t.app.db.select().from(refunds).innerJoin(orders, eq(orders.id, refunds.orderId)).where(eq(orders.key, order.Key));
    expect(rows.map((row) => row.refunds.state)).toEqual(['succeeded', 'succeeded']);
    const back = rows.reduce((sum, row) => sum + row.refunds.amount, 0);
    expect(back).toBeLessThanOrEqual(order.Price);
    expect((await sandboxTrade(order.Key)).State).toBe('TRADE_SUCCESS');
    // The rest, then nothing is left.
    expect((await admin('order', 'refund', order.Key)).refused).toBeNull();
    expect((await detail(token, order.Key)).State).toBe('refunded');
    expect((await admin('order', 'refund', order.Key)).refused).toBe('Only a paid order can be refunded.');
  });

  it('frees the amount when Alipay refuses the refund, and settles a slow one when Alipay says it is done', async () => {
    const refused = await paidByAlipay();
    await act(refused.order.Key, 'failRefunds');
    expect(await admin('order', 'refund', refused.order.Key)).toMatchObject({ refund: { state: 'failed' } });
    expect((await detail(refused.token, refused.order.Key)).State).toBe('paid');

    const slow = await paidByAlipay();
    await act(slow.order.Key, 'slowRefunds');
    expect(await admin('order', 'refund', slow.order.Key)).toMatchObject({ refund: { state: 'pending' } });
    // Alipay's notification of the refund settles it.
    await eventually(
      () => detail(slow.token, slow.order.Key),
      (read) => read.State === 'refunded',
      'the slow refund settled',
    );
  });
});
