/**
 * Receipts (server/modules/commerce/receipts.ts): a paid order's receipt names
 * the seller of the settings, the item, the price, the method, the payment's
 * time and the payment service's transaction number; a refunded order keeps
 * it with what went back; an unpaid, cancelled or another user's order has
 * none, and an unknown number is answered as another user's is.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWords } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { paymentSandbox } from '#contract/dev.ts';
import { ErrorCode } from '#contract/errors.ts';
import { runCommand } from '../../../server/admin-command.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { orders, payments, products } from '../../../server/db/schema.ts';
import { demoProducts } from '../../../server/modules/commerce/catalogue.ts';
import { changeBalance } from '../../../server/modules/commerce/wallet.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { loginBySms } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;
const seller = { SELLER_NAME: 'Beacon Test Ltd.', SELLER_ADDRESS: '1 Test Road, Shanghai', SELLER_TAX_ID: '91310000TEST00000X' };

beforeAll(async () => {
  t = await startApp({ SITE_URL: 'https://beacon.test', ...seller });
  await t.app.db.insert(products).values(demoProducts);
  // The sandbox calls back (notifications): the app must be listening.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

async function buyer() {
  const login = await loginBySms(t, `1350000${String(++phoneSeq).padStart(4, '0')}`, `device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id };
}

const newOrder = async (token: string): Promise<Order> =>
  (await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: 5000, Target: '12345678' } })).body.data;
const stateOf = async (key: string) => (await t.app.db.select({ state: orders.state }).from(orders).where(eq(orders.key, key)))[0].state;
const receipt = (token: string, key: string) => t.call(commerceCalls.receipt, { token, params: { key } });

async function paidByWechat() {
  const user = await buyer();
  const order = await newOrder(user.token);
  const paying = await t.call(commerceCalls.pay, { token: user.token, params: { key: order.Key }, body: { Method: 'wechatpay' } });
  await t.call(paymentSandbox.act, { params: { id: new URL(paying.body.data.CodeUrl!).searchParams.get('pr')! }, body: { Action: 'approve' } });
  await expect.poll(() => stateOf(order.Key)).toBe('paid');
  return { ...user, order };
}

describe('a paid order’s receipt', () => {
  it('names the seller, the item, the price, the method, the payment’s time and the transaction number', async () => {
    const { token, order } = await paidByWechat();
    const [payment] = await t.app.db.select().from(payments).innerJoin(orders, eq(orders.id, payments.orderId)).where(eq(orders.key, order.Key));
    const response = await receipt(token, order.Key);
    expect(response.body.code).toBe(200);
    expect(response.body.data).toEqual({
      Seller: { Name: 'Beacon Test Ltd.', Address: '1 Test Road, Shanghai', TaxId: '91310000TEST00000X', Contact: null },
      Key: order.Key,
      State: 'paid',
      Item: order.Item,
      Price: 5000,
      Method: 'wechatpay',
      PaidAt: payment.payments.at.toISOString(),
      Transaction: payment.payments.reference,
      Refunded: 0,
    });
    expect(payment.payments.reference).not.toBe('');
  });

  it('has no transaction number for the wallet, which has none to quote', async () => {
    const { token, userId } = await buyer();
    await t.app.db.transaction((tx) => changeBalance(tx, userId, 5000, 'credit', null));
    const order = await newOrder(token);
    await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wallet' } });
    expect((await receipt(token, order.Key)).body.data).toMatchObject({ Method: 'wallet', Transaction: null, Price: 5000 });
  });

  it('stays with a refunded order, saying what went back', async () => {
    const { token, order } = await paidByWechat();
    const refund = async (...words: string[]) => {
      const { command, args } = parseWords(operatorCommands, ['order', 'refund', order.Key, ...words]);
      await runCommand(t.app, command.name, args, { actor: shellActor('ops@shop', null), locale: 'en', attachment: null }, null);
    };
    await refund('--amount', '1000', '--to', 'wallet');
    expect((await receipt(token, order.Key)).body.data).toMatchObject({ State: 'paid', Price: 5000, Refunded: 1000 });
    await refund('--to', 'wallet');
    expect((await receipt(token, order.Key)).body.data).toMatchObject({ State: 'refunded', Price: 5000, Refunded: 5000 });
  });

  it('is refused for an order not paid: awaiting payment, paying, or cancelled', async () => {
    const { token } = await buyer();
    const created = await newOrder(token);
    const unpaid = await receipt(token, created.Key);
    expect(unpaid.body).toMatchObject({ code: ErrorCode.NotFound, message: 'This order has not been paid, so it has no receipt.' });

    const paying = await newOrder(token);
    await t.call(commerceCalls.pay, { token, params: { key: paying.Key }, body: { Method: 'wechatpay' } });
    expect((await receipt(token, paying.Key)).body.code).toBe(ErrorCode.NotFound);

    await t.call(commerceCalls.cancel, { token, params: { key: paying.Key } });
    expect(await stateOf(paying.Key)).toBe('closed');
    expect((await receipt(token, paying.Key)).body.code).toBe(ErrorCode.NotFound);
  });

  it("answers another user's paid order exactly as an unknown number", async () => {
    const { order } = await paidByWechat();
    const other = await buyer();
    const foreign = await receipt(other.token, order.Key);
    const unknown = await receipt(other.token, '20260101000000000000');
    expect(foreign.body).toMatchObject({ code: ErrorCode.NotFound, message: 'There is no such order in your account.' });
    expect(unknown.body).toEqual(foreign.body);
    expect((await receipt(other.token, 'not-an-order')).body.code).toBe(ErrorCode.BadRequest);
  });

  it('refuses missing, made-up, expired and revoked tokens', async () => {
    const { order } = await paidByWechat();
    await expectBadTokensRefused(t, commerceCalls.receipt, { params: { key: order.Key } }, buyer);
  });
});
