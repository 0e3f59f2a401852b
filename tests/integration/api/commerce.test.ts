/**
 * Buying end to end against the real server and its payment sandbox (which
 * speaks WeChat Pay APIv3 over the server's own loopback address): orders,
 * scan-to-pay outcomes, the wallet, notifications that are forged, stale or
 * replayed, and the races that must never charge or credit twice.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementCalls } from '#contract/agreements.ts';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { paymentSandbox } from '#contract/dev.ts';
import { ErrorCode } from '#contract/errors.ts';
import { orders, payments, products, walletLedger, wallets } from '../../../server/db/schema.ts';
import { demoProducts } from '../../../server/modules/commerce/catalogue.ts';
import { payContextOf } from '../../../server/modules/commerce/pay-context.ts';
import { expiredOrderKeys, orderSweepJob } from '../../../server/modules/commerce/expiry.ts';
import { closeExpiredOrder, setMaintenance } from '../../../server/modules/commerce/payments.ts';
import { refund } from '../../../server/modules/commerce/refunds.ts';
import { changeBalance } from '../../../server/modules/commerce/wallet.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { loginBySms } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';
import { deliverNotification, notification } from './wechatpay-notifications.ts';

let t: TestApp;
let phoneSeq = 0;
const newUser = async () => {
  const login = await loginBySms(t, `1390000${String(++phoneSeq).padStart(4, '0')}`, `device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id };
};

beforeAll(async () => {
  t = await startApp({ SITE_URL: 'https://beacon.test' });
  await t.app.db.insert(products).values(demoProducts);
  await t.app.db.insert(products).values({
    code: 'steam-us',
    kind: 'steamRecharge',
    currency: 'USD',
    region: 'US',
    ratePpm: 7_300_000,
    presets: [500, 1000],
    minAmount: 500,
    maxAmount: 20000,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const friendCode = '12345678';

async function newOrder(token: string, body: Record<string, unknown> = { Product: 'steam-cn', Amount: 5000, Target: friendCode }): Promise<Order> {
  const response = await t.call(commerceCalls.createOrder, { token, body });
  expect(response.body.code).toBe(200);
  return response.body.data;
}

const detail = async (token: string, key: string) => (await t.call(commerceCalls.order, { token, params: { key } })).body.data;
const prepayOf = (codeUrl: string) => new URL(codeUrl).searchParams.get('pr')!;

async function scan(token: string, key: string): Promise<string> {
  const response = await t.call(commerceCalls.pay, { token, params: { key }, body: { Method: 'wechatpay' } });
  expect(response.body.code).toBe(200);
  expect(response.body.data.QrSvg).toContain('<svg');
  return prepayOf(response.body.data.CodeUrl!);
}

const act = (id: string, Action: string) => t.call(paymentSandbox.act, { params: { id }, body: { Action } });

const success = (order: Order, transactionId: string) => ({
  out_trade_no: order.Key,
  transaction_id: transactionId,
  trade_state: 'SUCCESS',
  amount: { total: order.Price },
});

const deliver = (note: { body: string; headers: Record<string, string> }) => deliverNotification(t, note);

async function credit(userId: number, fen: number) {
  await t.app.db.transaction((tx) => changeBalance(tx, userId, fen, 'credit', null));
}

describe('scan to pay through the sandbox', () => {
  it('prices a recharge by the rate, pays it by scanning, and keeps the timeline', async () => {
    const { token } = await newUser();
    const usd = await newOrder(token, {
      Product: 'steam-us',
      Amount: 1999,
      Target: `https://steamcommunity.com/tradeoffer/new/?partner=${friendCode}&token=AbCdEf12`,
    });
    expect(usd.Price).toBe(14593); // 19.99 USD at 7.3, rounded up to the fen
    expect(usd.Item.SteamId).toBe('76561197972611406');

    const order = await newOrder(token);
    const prepay = await scan(token, order.Key);
    expect((await t.call(paymentSandbox.transaction, { params: { id: prepay } })).body.data).toMatchObject({
      OrderKey: order.Key,
      Total: 5000,
      State: 'NOTPAY',
    });
    expect((await act(prepay, 'approve')).body.data.State).toBe('SUCCESS');

    const paid = await detail(token, order.Key);
    expect(paid).toMatchObject({ State: 'paid', Outcome: 'successful', Method: 'wechatpay' });
    expect(paid.Timeline.map((event) => [event.State, event.Source, event.Note])).toEqual([
      ['created', 'customer', 'created'],
      ['paying', 'customer', 'paymentStarted'],
      ['paid', 'provider', 'paid'],
    ]);
  });

  it('shows a decline as failed and an expiry as a timeout', async () => {
    const { token } = await newUser();
    const declined = await newOrder(token);
    await act(await scan(token, declined.Key), 'decline');
    expect(await detail(token, declined.Key)).toMatchObject({ State: 'failed', Outcome: 'failed' });

    const expired = await newOrder(token);
    await act(await scan(token, expired.Key), 'expire');
    expect(await detail(token, expired.Key)).toMatchObject({ State: 'closed', Outcome: 'timeout' });
    const again = await t.call(commerceCalls.pay, { token, params: { key: expired.Key }, body: { Method: 'wechatpay' } });
    expect(again.body.code).toBe(ErrorCode.OrderClosed);
  });

  it('sends a second payment of a paid order to the wallet, once, with "paid by another method"', async () => {
    const { token, userId } = await newUser();
    const order = await newOrder(token);
    await act(await scan(token, order.Key), 'payTwice');
    expect(await detail(token, order.Key)).toMatchObject({ State: 'paid', Outcome: 'paidByOther' });
    const wallet = (await t.call(commerceCalls.wallet, { token, params: { page: 1 } })).body.data;
    expect(wallet.Balance).toBe(order.Price);
    expect(wallet.Items.map((entry) => [entry.Reason, entry.Delta, entry.Order])).toEqual([['duplicatePayment', order.Price, order.Key]]);
    const rows = await t.app.db.select().from(walletLedger).where(eq(walletLedger.userId, userId));
    expect(rows).toHaveLength(1);
  });

  it('applies a membership at once, and pays from the wallet only what it holds', async () => {
    const { token, userId } = await newUser();
    const plan = await newOrder(token, { Product: 'cloud-idle-monthly' });
    const short = await t.call(commerceCalls.pay, { token, params: { key: plan.Key }, body: { Method: 'wallet' } });
    expect(short.body).toMatchObject({
      code: ErrorCode.InsufficientBalance,
      message: 'Your wallet balance is not enough for this order. Choose another payment method.',
    });

    await credit(userId, 1000);
    const paid = await t.call(commerceCalls.pay, { token, params: { key: plan.Key }, body: { Method: 'wallet' } });
    expect(paid.body.data.Order).toMatchObject({ State: 'fulfilled', Method: 'wallet', Outcome: 'successful' });
    const summary = (await t.call(commerceCalls.summary, { token })).body.data;
    expect(summary.Balance).toBe(1000 - plan.Price);
    expect(Date.parse(summary.MembershipUntil!)).toBeGreaterThan(Date.now() + 27 * 86_400_000);
  });

  it('answers maintenance and unsupported payment types with their own codes', async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    const unsupported = await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'unionpay' } });
    expect(unsupported.body.code).toBe(ErrorCode.PayMethodUnsupported);
    await setMaintenance(t.app.db, shellActor('test', null), true);
    try {
      const paused = await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wechatpay' } });
      expect(paused.status).toBe(503);
      expect(paused.body.code).toBe(ErrorCode.Maintenance);
      expect(paused.body.message).toMatch(
        /^Payments are paused for maintenance\. Nothing was charged; please try again later\. If you contact us about it, quote reference [0-9a-f]{16}\.$/,
      );
    } finally {
      await setMaintenance(t.app.db, shellActor('test', null), false);
    }
  });

  it('follows a maintenance switch made by another instance within a second', async () => {
    const { token } = await newUser();
    const order = () => t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: 5000, Target: friendCode } });
    expect((await order()).body.code).toBe(200);
    // Another instance's switch is a row in the shared database that this instance did not write.
    const switched = Date.now();
    await t.app.db.execute(sql`insert into settings (key, value) values ('maintenance', 'true'::jsonb) on conflict (key) do update set value = 'true'::jsonb`);
    try {
      let refused = false;
      while (!refused && Date.now() - switched < 3000) {
        refused = (await order()).body.code === ErrorCode.Maintenance;
        if (!refused) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(refused).toBe(true);
      expect(Date.now() - switched).toBeLessThan(1500);
    } finally {
      await setMaintenance(t.app.db, shellActor('test', null), false);
    }
  });

  it("refuses bad amounts and Steam accounts in the user's language", async () => {
    const { token } = await newUser();
    const tooSmall = await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: 999, Target: friendCode } });
    expect(tooSmall.body.code).toBe(ErrorCode.AmountInvalid);
    const badTarget = await t.call(commerceCalls.createOrder, {
      token,
      locale: 'ja',
      body: { Product: 'steam-cn', Amount: 5000, Target: 'https://evil.test/tradeoffer/new/?partner=1&token=abcdef' },
    });
    expect(badTarget.body.code).toBe(ErrorCode.SteamTargetInvalid);
    expect(badTarget.body.message).toMatch(/[\u3040-\u30ff]/);
    const noSteam = await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: 5000 } });
    expect(noSteam.body.code).toBe(ErrorCode.SteamNotLinked);
  });
});

describe('paying in WeChat on the phone (H5) through the sandbox', () => {
  const startOnPhone = async (token: string, key: string) => {
    const response = await t.call(commerceCalls.payOnPhone, { token, params: { key }, body: { Method: 'wechatpay' } });
    expect(response.body.code).toBe(200);
    return response.body.data;
  };
  const prepayOfPage = (h5Url: string) => new URL(h5Url).searchParams.get('prepay_id')!;
  /** The phone's browser on the sandbox's H5 page: pays ("allow") or declines ("deny"), with the shop's page to return to. */
  const decide = (h5Url: string, decision: 'allow' | 'deny', redirectUrl: string) =>
    t.app.inject({
      method: 'POST',
      url: new URL(h5Url).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ prepay_id: prepayOfPage(h5Url), decision, redirect_url: redirectUrl }).toString(),
    });

  it("starts an H5 payment with its own trade number, pays it on the sandbox's page, and returns to the shop's page", async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    const started = await startOnPhone(token, order.Key);
    expect(started.Order).toMatchObject({ State: 'paying', Method: 'wechatpay' });
    const h5Url = new URL(started.PayUrl);
    expect(`${h5Url.origin}${h5Url.pathname}`).toBe('https://beacon.test/api/dev/wechatpay/checkmweb');
    expect((await t.call(paymentSandbox.transaction, { params: { id: prepayOfPage(started.PayUrl) } })).body.data).toMatchObject({
      OrderKey: `${order.Key}H`,
      Total: order.Price,
      State: 'NOTPAY',
    });

    const page = await t.app.inject({ method: 'GET', url: `${h5Url.pathname}${h5Url.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-sandbox-state="NOTPAY"');

    const back = `https://beacon.test/en/payment?key=${order.Key}&from=wechatpay`;
    const paid = await decide(started.PayUrl, 'allow', back);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(back);
    const detailed = await detail(token, order.Key);
    expect(detailed).toMatchObject({ State: 'paid', Outcome: 'successful', Method: 'wechatpay' });
    expect(detailed.Timeline.map((event) => [event.State, event.Source, event.Note])).toEqual([
      ['created', 'customer', 'created'],
      ['paying', 'customer', 'paymentStartedInApp'],
      ['paid', 'provider', 'paid'],
    ]);

    // A refund goes back through the transaction that paid, whichever trade number it had.
    await refund(
      payContextOf(t.app, () => {}),
      (method) => t.app.payments.channel(method).notifyUrl(),
      shellActor('test', null),
      null,
      { key: order.Key, amount: null, to: 'original' },
    );
    // The provider takes the refund, then notifies its success.
    await expect.poll(async () => (await detail(token, order.Key)).State).toBe('refunded');
    expect((await t.call(paymentSandbox.transaction, { params: { id: prepayOfPage(started.PayUrl) } })).body.data.State).toBe('REFUND');
  });

  it("returns only to the site's own pages, and shows a decline as failed", async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    const started = await startOnPhone(token, order.Key);
    const declined = await decide(started.PayUrl, 'deny', 'https://evil.test/steal');
    expect(declined.statusCode).toBe(200);
    expect(declined.headers.location).toBeUndefined();
    expect(await detail(token, order.Key)).toMatchObject({ State: 'failed', Outcome: 'failed' });
  });

  it('lets an order shown as a code be paid on the phone too; the second payment goes to the wallet', async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    const prepay = await scan(token, order.Key);
    const started = await startOnPhone(token, order.Key);
    await decide(started.PayUrl, 'allow', `https://beacon.test/payment?key=${order.Key}`);
    expect(await detail(token, order.Key)).toMatchObject({ State: 'paid', Outcome: 'successful' });
    await act(prepay, 'approve');
    expect(await detail(token, order.Key)).toMatchObject({ State: 'paid', Outcome: 'paidByOther' });
    expect((await t.call(commerceCalls.wallet, { token, params: { page: 1 } })).body.data.Balance).toBe(order.Price);
  });

  it("closes the phone's transaction too when the order is cancelled", async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    const started = await startOnPhone(token, order.Key);
    expect((await t.call(commerceCalls.cancel, { token, params: { key: order.Key } })).body.data).toMatchObject({ State: 'closed', Outcome: 'canceled' });
    expect((await t.call(paymentSandbox.transaction, { params: { id: prepayOfPage(started.PayUrl) } })).body.data.State).toBe('CLOSED');
    await decide(started.PayUrl, 'allow', `https://beacon.test/payment?key=${order.Key}`);
    expect((await detail(token, order.Key)).State).toBe('closed');
  });

  it('refuses an auto-renewal (signed by scanning) and pauses for maintenance', async () => {
    const { token } = await newUser();
    const renewal = (await t.call(agreementCalls.create, { token, body: { Product: 'cloud-idle-monthly' } })).body.data.Order;
    expect((await t.call(commerceCalls.payOnPhone, { token, params: { key: renewal.Key }, body: { Method: 'wechatpay' } })).body.code).toBe(
      ErrorCode.PayMethodUnsupported,
    );
    const order = await newOrder(token);
    await setMaintenance(t.app.db, shellActor('test', null), true);
    try {
      expect((await t.call(commerceCalls.payOnPhone, { token, params: { key: order.Key }, body: { Method: 'wechatpay' } })).body.code).toBe(
        ErrorCode.Maintenance,
      );
    } finally {
      await setMaintenance(t.app.db, shellActor('test', null), false);
    }
    expect((await detail(token, order.Key)).State).toBe('created');
  });
});

describe('notifications', () => {
  it('refuses a bad signature, a stale timestamp and a replayed nonce, and changes nothing', async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    await scan(token, order.Key);

    const forged = notification(success(order, 'forged-1'));
    expect((await deliver({ ...forged, body: forged.body.replace('"id":"', '"id":"x') })).statusCode).toBe(400);
    expect((await deliver(notification(success(order, 'stale-1'), { timestamp: Math.floor(Date.now() / 1000) - 301 }))).statusCode).toBe(400);
    const other = notification(success(order, 'wrong-key'));
    expect((await deliver({ ...other, headers: { ...other.headers, 'wechatpay-serial': 'NOT-THE-PLATFORM' } })).statusCode).toBe(400);
    expect((await detail(token, order.Key)).State).toBe('paying');

    const real = notification(success(order, 'real-1'), { nonce: 'nonce-once' });
    expect((await deliver(real)).statusCode).toBe(200);
    const replay = notification(success(order, 'real-2'), { nonce: 'nonce-once' });
    expect((await deliver(replay)).statusCode).toBe(400);
    expect(await t.app.db.select().from(payments).where(eq(payments.reference, 'real-2'))).toHaveLength(0);
    expect((await detail(token, order.Key)).State).toBe('paid');
  });

  it('starts paying once when 20 pay calls for one order race: every answer shows the one code, the timeline one start', async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wechatpay' } })),
    );
    expect(answers.map((answer) => answer.body.code)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.body.data.CodeUrl)).size).toBe(1);
    const paying = await detail(token, order.Key);
    expect(paying.State).toBe('paying');
    expect(paying.Timeline.map((event) => event.Note)).toEqual(['created', 'paymentStarted']);
  });

  it('changes an order once when its notification is replayed 100 times in parallel', async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    await scan(token, order.Key);
    const note = notification(success(order, `tx-${order.Key}`));
    const answers = await Promise.all(Array.from({ length: 100 }, () => deliver(note)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 400)).toHaveLength(99);
    const paid = await detail(token, order.Key);
    expect(paid.Timeline.filter((event) => event.State === 'paid')).toHaveLength(1);
    const recorded = await t.app.db.select().from(payments).innerJoin(orders, eq(payments.orderId, orders.id)).where(eq(orders.key, order.Key));
    expect(recorded).toHaveLength(1);
    console.log(`notification replay: 100 deliveries, 1 accepted, 99 refused, ${recorded.length} payment row, 1 paid event`);
  });

  it('credits a second payment once when its retries (fresh nonces) race 100 times', async () => {
    const { token, userId } = await newUser();
    await credit(userId, 5000);
    const order = await newOrder(token);
    await scan(token, order.Key);
    expect((await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wallet' } })).body.code).toBe(200);
    const answers = await Promise.all(Array.from({ length: 100 }, () => deliver(notification(success(order, `second-${order.Key}`)))));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    const ledger = await t.app.db.select().from(walletLedger).where(eq(walletLedger.userId, userId));
    expect(ledger.map((row) => row.reason).sort()).toEqual(['credit', 'duplicatePayment', 'payment']);
    expect((await detail(token, order.Key)).Outcome).toBe('paidByOther');
    console.log(`second payment retried 100 times: 100 accepted, 1 ledger row for it (${ledger.length} rows with the credit and the first payment)`);
  });
});

describe('races', () => {
  it('never takes a wallet below zero: 200 parallel payments of orders worth more than the balance', async () => {
    const { token, userId } = await newUser();
    await credit(userId, 600 * 50 + 599);
    const planOrders = await Promise.all(Array.from({ length: 200 }, () => newOrder(token, { Product: 'cloud-idle-monthly' })));
    const answers = await Promise.all(planOrders.map((order) => t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wallet' } })));
    const paid = answers.filter((answer) => answer.body.code === 200);
    expect(paid).toHaveLength(50);
    expect(answers.filter((answer) => answer.body.code === ErrorCode.InsufficientBalance)).toHaveLength(150);
    const [wallet] = await t.app.db.select().from(wallets).where(eq(wallets.userId, userId));
    expect(wallet.balance).toBe(599);
    const [{ sum }] = await t.app.db
      .select({ sum: sql<number>`sum(${walletLedger.delta})::int` })
      .from(walletLedger)
      .where(eq(walletLedger.userId, userId));
    expect(sum).toBe(599);
    console.log(`wallet race: 200 parallel payments, ${paid.length} paid, balance ${wallet.balance} fen`);
  });

  it('ends paying, cancelling and expiry racing for one order in exactly one final state', async () => {
    const { token, userId } = await newUser();
    await credit(userId, 100_000);
    const finals: string[] = [];
    for (let round = 0; round < 10; round++) {
      const order = await newOrder(token);
      await scan(token, order.Key);
      await t.app.db
        .update(orders)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(orders.key, order.Key));
      await Promise.allSettled([
        t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wallet' } }),
        t.call(commerceCalls.cancel, { token, params: { key: order.Key } }),
        closeExpiredOrder(payContextOf(t.app), order.Key),
      ]);
      const final = await detail(token, order.Key);
      const finalEvents = final.Timeline.filter((event) => ['paid', 'closed'].includes(event.State) && event.Note !== 'duplicatePayment');
      expect(finalEvents).toHaveLength(1);
      finals.push(final.State);
    }
    const [wallet] = await t.app.db.select().from(wallets).where(eq(wallets.userId, userId));
    expect(wallet.balance).toBe(100_000 - finals.filter((state) => state === 'paid').length * 5000);
    console.log(`close race: 10 rounds, final states ${finals.join(', ')}`);
  });
});

describe('orders past their pay window', () => {
  it('are closed by the minute sweep when no timer closed them (a restart, another instance), and their pages hear of it', async () => {
    const { token } = await newUser();
    const [left, paid] = [await newOrder(token), await newOrder(token)];
    await scan(token, left.Key);
    // Made before a restart, say: this instance holds no timer for them. Their windows have passed.
    await t.app.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(inArray(orders.key, [left.Key, paid.Key]));
    await t.app.db.update(orders).set({ state: 'paid' }).where(eq(orders.key, paid.Key));
    expect(await expiredOrderKeys(t.app.db)).toEqual([left.Key]);
    await t.app.jobs.send(orderSweepJob, {});
    const deadline = Date.now() + 15_000;
    while ((await detail(token, left.Key)).State !== 'closed' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await detail(token, left.Key)).toMatchObject({ State: 'closed', Outcome: 'timeout' });
    expect((await detail(token, paid.Key)).State).toBe('paid');
    expect(await expiredOrderKeys(t.app.db)).toEqual([]);
  });
});

describe('who may see and pay an order', () => {
  it('refuses missing, made-up, expired and revoked tokens on every commerce call', async () => {
    const { token } = await newUser();
    const order = await newOrder(token);
    const calls = [
      [commerceCalls.createOrder, { body: { Product: 'steam-cn', Amount: 5000, Target: friendCode } }],
      [commerceCalls.orders, { params: { page: 1 } }],
      [commerceCalls.order, { params: { key: order.Key } }],
      [commerceCalls.pay, { params: { key: order.Key }, body: { Method: 'wallet' } }],
      [commerceCalls.payOnPhone, { params: { key: order.Key }, body: { Method: 'wechatpay' } }],
      [commerceCalls.cancel, { params: { key: order.Key } }],
      [commerceCalls.wallet, { params: { page: 1 } }],
      [commerceCalls.summary, {}],
    ] as const;
    for (const [route, options] of calls) await expectBadTokensRefused(t, route, options, newUser);
  });

  it("treats another user's order as unknown", async () => {
    const owner = await newUser();
    const other = await newUser();
    const order = await newOrder(owner.token);
    for (const route of [commerceCalls.order, commerceCalls.cancel] as const) {
      const response = await t.call(route, { token: other.token, params: { key: order.Key } });
      expect(response.body.code).toBe(ErrorCode.NotFound);
    }
    for (const Method of ['wechatpay', 'alipay']) {
      for (const route of [commerceCalls.pay, commerceCalls.payOnPhone] as const) {
        const response = await t.call(route, { token: other.token, params: { key: order.Key }, body: { Method } });
        expect(response.body.code).toBe(ErrorCode.NotFound);
      }
    }
    await credit(other.userId, 10_000);
    const pay = await t.call(commerceCalls.pay, { token: other.token, params: { key: order.Key }, body: { Method: 'wallet' } });
    expect(pay.body.code).toBe(ErrorCode.NotFound);
    expect((await t.call(commerceCalls.orders, { token: other.token, params: { page: 1 } })).body.data.Total).toBe(0);
    expect((await detail(owner.token, order.Key)).State).toBe('created');
  });
});
