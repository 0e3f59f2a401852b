/**
 * A payment provider that crawls or fails, against the real WeChat Pay client:
 * the shop pays through a proxy in front of the payment sandbox (a server of
 * its own, as a provider is), and the proxy answers after 30 s, answers 500,
 * resets the connection or answers garbage. The customer hears within a few
 * seconds, in their language, that nothing was charged; the order stays as it
 * was; the provider's late notification pays it once; nothing asks for a
 * charge again by itself.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementCalls } from '#contract/agreements.ts';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { paymentSandbox } from '#contract/dev.ts';
import { ErrorCode } from '#contract/errors.ts';
import { agreements, orders, payments, products, walletLedger } from '../../../server/db/schema.ts';
import { message } from '../../../server/i18n/messages.ts';
import { chargeDueAgreements } from '../../../server/modules/commerce/agreements.ts';
import { demoProducts } from '../../../server/modules/commerce/catalogue.ts';
import { payContextOf } from '../../../server/modules/commerce/pay-context.ts';
import { closeExpiredOrder } from '../../../server/modules/commerce/payments.ts';
import { sandboxMerchantSettings } from '../../../server/services/wechatpay-sandbox.ts';
import { faultyProxy, type FaultyProxy } from '../../faulty-proxy.ts';
import { loginBySms } from './codes.ts';
import { eventually, startApp, type TestApp } from './harness.ts';
import { deliverNotification, notification } from './wechatpay-notifications.ts';

/** The shop, paying through `proxy`; the provider, a development server whose payment sandbox plays WeChat Pay. */
let shop: TestApp;
let provider: TestApp;
let proxy: FaultyProxy;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** The deadline of the calls to the provider here. */
const providerTimeoutMs = 2_500;

beforeAll(async () => {
  provider = await startApp();
  await provider.app.listen({ port: 0, host: '127.0.0.1' });
  proxy = await faultyProxy(`http://127.0.0.1:${(provider.app.server.address() as { port: number }).port}`);
  const port = await freePort();
  shop = await startApp({
    SITE_URL: 'https://beacon.test',
    ...sandboxMerchantSettings(mkdtempSync(path.join(tmpdir(), 'beacon-merchant-')), proxy.origin),
    WECHATPAY_NOTIFY_URL: `http://127.0.0.1:${port}/api${commerceCalls.notify.path}`,
    // Production's is 5 s (the deployment test waits it out); a shorter one proves the same here sooner.
    PROVIDER_TIMEOUT_MS: String(providerTimeoutMs),
  });
  await shop.app.db.insert(products).values(demoProducts);
  await shop.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await shop.close();
  await proxy.close();
  await provider.close();
});

let phoneSeq = 0;
async function customer() {
  const login = await loginBySms(shop, `1392000${String(++phoneSeq).padStart(4, '0')}`, `device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id };
}

async function newOrder(token: string): Promise<Order> {
  const response = await shop.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: 5000, Target: '12345678' } });
  expect(response.body.code).toBe(200);
  return response.body.data;
}

const stateOf = async (key: string) => (await shop.app.db.select({ state: orders.state }).from(orders).where(eq(orders.key, key)))[0].state;

/** Pays `key` by scanning, in `locale`, with the provider's link in `fault`; answers the reply and how long it took. */
async function payWith(fault: FaultyProxy['fault'], token: string, key: string, locale = 'en') {
  proxy.fault = fault;
  const began = Date.now();
  try {
    const reply = await shop.call(commerceCalls.pay, { token, params: { key }, body: { Method: 'wechatpay' }, locale });
    return { ...reply, tookMs: Date.now() - began };
  } finally {
    proxy.fault = null;
  }
}

type Said = 'paymentProviderFailed' | 'paymentProviderError';
const [notResponding, answeredError]: Said[] = ['paymentProviderFailed', 'paymentProviderError'];

/** Whether `text` is the message `key` in `locale`, with whatever request id it names. */
function expectSaid(text: string, locale: 'en' | 'ja' | 'ru', key: Said, what: string = key) {
  const [before, after] = message(locale, key, { id: '\u0000' }).split('\u0000');
  expect(text.startsWith(before) && text.endsWith(after), `${what}: ${text}`).toBe(true);
}

const idOf = async (key: string) => (await shop.app.db.select({ id: orders.id }).from(orders).where(eq(orders.key, key)))[0].id;
const paymentsOf = async (key: string) =>
  shop.app.db
    .select()
    .from(payments)
    .where(eq(payments.orderId, await idOf(key)));

describe('a payment provider that answers after 30 s', () => {
  it('tells the customer within a few seconds, in their language, that nothing was charged; the order stays created', async () => {
    const { token } = await customer();
    const order = await newOrder(token);
    const passedBefore = proxy.passed.length;
    const reply = await payWith('slow', token, order.Key, 'ja');
    expect(reply.status).toBe(502);
    expect(reply.body.code).toBe(ErrorCode.PaymentProviderFailed);
    expectSaid(reply.body.message, 'ja', notResponding);
    expect(reply.body.message).toContain('料金は請求されていません');
    // PROVIDER_TIMEOUT_MS, not OUTBOUND_TIMEOUT_MS (10 s), and far from the provider's 30 s.
    expect(reply.tookMs).toBeGreaterThanOrEqual(providerTimeoutMs - 100);
    expect(reply.tookMs).toBeLessThan(providerTimeoutMs + 2_000);
    expect(await stateOf(order.Key)).toBe('created');
    // The one call reached the provider; nothing asked again by itself.
    expect(proxy.passed.slice(passedBefore)).toEqual(['POST /api/dev/wechatpay/v3/pay/transactions/native']);
  });

  it('pays the order once when the provider notifies it later, and again when the notification comes twice', async () => {
    const { token, userId } = await customer();
    const order = await newOrder(token);
    expect((await payWith('slow', token, order.Key, 'ru')).body.message).toContain('Деньги не списаны');
    // The provider made the transaction all the same; the customer pays it (with the code of a later try, or as the provider retries).
    const approved = await provider.call(paymentSandbox.act, { params: { id: order.Key }, body: { Action: 'approve' } });
    expect(approved.body.data.State).toBe('SUCCESS');
    await eventually(
      () => stateOf(order.Key),
      (state) => state === 'paid',
      'the late notification applied',
    );
    const [paid] = await paymentsOf(order.Key);
    await deliverNotification(
      shop,
      notification({ out_trade_no: order.Key, transaction_id: paid.reference, trade_state: 'SUCCESS', amount: { total: order.Price } }),
    );
    expect(await paymentsOf(order.Key)).toHaveLength(1);
    expect(await shop.app.db.select().from(walletLedger).where(eq(walletLedger.userId, userId))).toEqual([]);
    expect(await stateOf(order.Key)).toBe('paid');
  });

  it('shows the same code on the next try once the provider answers again, and that code pays the order once', async () => {
    const { token } = await customer();
    const order = await newOrder(token);
    expect((await payWith('slow', token, order.Key)).status).toBe(502);
    const again = await payWith(null, token, order.Key);
    expect(again.body.code).toBe(200);
    expect(again.body.data.Order.State).toBe('paying');
    const prepay = new URL(again.body.data.CodeUrl!).searchParams.get('pr')!;
    await provider.call(paymentSandbox.act, { params: { id: prepay }, body: { Action: 'approve' } });
    await eventually(
      () => stateOf(order.Key),
      (state) => state === 'paid',
      'the payment applied',
    );
    expect(await paymentsOf(order.Key)).toHaveLength(1);
  });

  it('keeps a paying order paying when the customer cancels while the provider crawls', async () => {
    const { token } = await customer();
    const order = await newOrder(token);
    expect((await payWith(null, token, order.Key)).body.code).toBe(200);
    proxy.fault = 'slow';
    const began = Date.now();
    const cancel = await shop.call(commerceCalls.cancel, { token, params: { key: order.Key }, locale: 'ru' }).finally(() => (proxy.fault = null));
    expect(Date.now() - began).toBeLessThan(providerTimeoutMs + 2_000);
    expect(cancel.status).toBe(502);
    expectSaid(cancel.body.message, 'ru', notResponding);
    expect(await stateOf(order.Key)).toBe('paying');
  });
});

describe('a payment provider that fails', () => {
  it('says at once that the provider answered with an error (500, garbage) or is not responding (reset); nothing changes', async () => {
    const { token } = await customer();
    const order = await newOrder(token);
    for (const [fault, expected] of [
      ['fail', answeredError],
      ['garbage', answeredError],
      ['reset', notResponding],
    ] as const) {
      const passedBefore = proxy.passed.length;
      const reply = await payWith(fault, token, order.Key, 'ja');
      expect(reply.status, fault).toBe(502);
      expect(reply.body.code, fault).toBe(ErrorCode.PaymentProviderFailed);
      expectSaid(reply.body.message, 'ja', expected, fault);
      expect(reply.tookMs, fault).toBeLessThan(2_000);
      expect(await stateOf(order.Key), fault).toBe('created');
      expect(proxy.passed.length, fault).toBe(passedBefore);
    }
    // Once the provider is back, the same order pays.
    expect((await payWith(null, token, order.Key)).body.data.Order.State).toBe('paying');
  });

  it('leaves a renewal charge the provider did not answer paying, charged once, until its notification or its expiry', async () => {
    const { token } = await customer();
    const started = await shop.call(agreementCalls.create, { token, body: { Product: 'cloud-idle-monthly' } });
    const { Agreement: pending, Order: first } = started.body.data;
    const signing = await payWith(null, token, first.Key);
    const session = new URL(signing.body.data.CodeUrl!).searchParams.get('pr')!;
    await provider.call(paymentSandbox.act, { params: { id: session }, body: { Action: 'approve' } });
    await eventually(
      () => stateOf(first.Key),
      (state) => state === 'fulfilled',
      'the first period paid',
    );

    await shop.app.db
      .update(agreements)
      .set({ nextChargeAt: sql`now() - interval '1 second'` })
      .where(eq(agreements.key, pending.Key));
    const payingContext = payContextOf(shop.app, () => {});
    const wechatPay = shop.app.payments.channel('wechatpay');
    proxy.fault = 'reset';
    const charging = chargeDueAgreements(payingContext, wechatPay.provider()!, wechatPay.notifyUrl(), () => {});
    await expect(charging.finally(() => (proxy.fault = null))).rejects.toThrow(/did not answer/);
    const [renewal] = await shop.app.db
      .select()
      .from(orders)
      .where(eq(orders.agreement, pending.Key))
      .orderBy(sql`${orders.id} desc`)
      .limit(1);
    expect(renewal.state).toBe('paying');
    const [agreement] = await shop.app.db.select().from(agreements).where(eq(agreements.key, pending.Key));
    expect(agreement.failedCharges).toBe(0);
    // The next run charges nothing: the renewal waits for its outcome.
    expect(await chargeDueAgreements(payingContext, wechatPay.provider()!, wechatPay.notifyUrl(), () => {})).toEqual([]);
    // Its expiry closes it at the provider (which never had it), and only then is it a failed charge, to be tried again.
    await closeExpiredOrder(payingContext, renewal.key);
    expect(await stateOf(renewal.key)).toBe('closed');
    const [after] = await shop.app.db.select().from(agreements).where(eq(agreements.key, pending.Key));
    expect(after).toMatchObject({ state: 'active', failedCharges: 1 });
  });
});
