/**
 * Orders made in the desktop client and their /bindorder links: the order
 * waits without an account, a valid link gives it to whoever opens it signed
 * in — once, even when many open it at the same moment — and a forged,
 * altered or expired link changes nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commerceCalls, type BindLink } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { orders, products } from '../../../server/db/schema.ts';
import { bindLinkFor } from '../../../server/modules/commerce/bind-links.ts';
import { demoProducts } from '../../../server/modules/commerce/catalogue.ts';
import { changeBalance } from '../../../server/modules/commerce/wallet.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { loginBySms } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;
const newUser = async () => {
  const login = await loginBySms(t, `1392400${String(++phoneSeq).padStart(4, '0')}`, `bind-device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id };
};

beforeAll(async () => {
  t = await startApp();
  await t.app.db.insert(products).values(demoProducts);
});
afterAll(() => t.close());

/** An order as the desktop client makes it, and the query of its link. */
async function clientOrder(locale = 'en') {
  const made = await t.call(commerceCalls.createClientOrder, { body: { Product: 'cloud-idle-monthly' }, locale });
  expect(made.body.code).toBe(200);
  const url = new URL(made.body.data.BindUrl);
  return { order: made.body.data.Order, url, link: Object.fromEntries(url.searchParams) as BindLink };
}

const bind = (token: string, link: BindLink) => t.call(commerceCalls.bindOrder, { token, body: link });

describe('orders from the desktop client', () => {
  it('wait without an account, with a link to the bindorder page in the client language', async () => {
    const { order, url, link } = await clientOrder('ja');
    expect(url.pathname).toBe('/ja/bindorder');
    expect(link.order).toBe(order.Key);
    expect(Number(link.expires) * 1000).toBe(Math.floor(Date.parse(order.ExpiresAt) / 1000) * 1000);
    const [row] = await t.app.db.select().from(orders).where(eq(orders.key, order.Key));
    expect(row.userId).toBeNull();
  });

  it('need a Steam account named for a recharge, as there is no account to take it from', async () => {
    const made = await t.call(commerceCalls.createClientOrder, { body: { Product: 'steam-cn', Amount: 5000 } });
    expect(made.body.code).toBe(ErrorCode.SteamNotLinked);
  });
});

describe('binding', () => {
  it('gives the order to the signed-in user, who can then see and pay it, and writes it on the timeline', async () => {
    const user = await newUser();
    const { order, link } = await clientOrder();
    const bound = await bind(user.token, link);
    expect(bound.body).toMatchObject({ code: 200, data: { Key: order.Key, State: 'created' } });
    const detail = await t.call(commerceCalls.order, { token: user.token, params: { key: order.Key } });
    expect(detail.body.data.Timeline.map((event) => event.Note)).toEqual(['createdInClient', 'boundToAccount']);
    await t.app.db.transaction((tx) => changeBalance(tx, user.userId, order.Item.Months! * 10_000, 'credit', null));
    const paid = await t.call(commerceCalls.pay, { token: user.token, params: { key: order.Key }, body: { Method: 'wallet' } });
    expect(paid.body.data.Order.State).not.toBe('created');
  });

  it('works once: the same link again, by anyone, is refused as used', async () => {
    const [first, second] = [await newUser(), await newUser()];
    const { link } = await clientOrder();
    expect((await bind(first.token, link)).body.code).toBe(200);
    expect((await bind(first.token, link)).body).toMatchObject({
      code: ErrorCode.BindLinkUsed,
      message: 'This order has already been linked to an account. Each link can be used only once.',
    });
    expect((await bind(second.token, link)).body.code).toBe(ErrorCode.BindLinkUsed);
  });

  it('refuses a forged or altered link, and an expired one, and changes nothing', async () => {
    const user = await newUser();
    const { order, link } = await clientOrder();
    const other = await clientOrder();
    const flipped = `${link.sig[0] === 'A' ? 'B' : 'A'}${link.sig.slice(1)}`;
    for (const forged of [
      { ...link, sig: flipped },
      { ...link, order: other.order.Key },
      { ...link, expires: String(Number(link.expires) + 3600) },
      { ...link, sig: 'short' },
    ]) {
      expect((await bind(user.token, forged)).body).toMatchObject({ code: ErrorCode.BindLinkInvalid });
    }

    await t.app.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.key, order.Key));
    const [row] = await t.app.db.select().from(orders).where(eq(orders.key, order.Key));
    const stale = bindLinkFor(t.app.keys.secret, row);
    expect((await bind(user.token, stale)).body).toMatchObject({
      code: ErrorCode.BindLinkExpired,
      message: 'This link has expired. Make the order again in the desktop app to get a new link.',
    });
    const rows = await t.app.db.select({ userId: orders.userId }).from(orders).where(eq(orders.key, order.Key));
    expect(rows).toEqual([{ userId: null }]);
  });

  it('needs a valid login', async () => {
    const { link } = await clientOrder();
    await expectBadTokensRefused(t, commerceCalls.bindOrder, { body: link }, newUser);
  });

  it('gives one order to exactly one of 50 users opening its link at once', async () => {
    const users = await Promise.all(Array.from({ length: 50 }, () => newUser()));
    const { order, link } = await clientOrder();
    const codes = (await Promise.all(users.map((user) => bind(user.token, link)))).map((answer) => answer.body.code);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === ErrorCode.BindLinkUsed)).toHaveLength(49);
    const [row] = await t.app.db.select({ userId: orders.userId }).from(orders).where(eq(orders.key, order.Key));
    expect(users.map((user) => user.userId)).toContain(row.userId);
  });
});
