/**
 * A customer's orders on a phone (issue 29, point 23): an order in each state
 * reads one word for where it stands, the same in the order list, on its page
 * and in its timeline, and names its payment method only when it was paid or
 * its payment failed. An order that is not the customer's is "no such order";
 * a page without an order number asks for one.
 */
import { expect, test, type Page } from '@playwright/test';
import { pathOf, type ApiRoute } from '#contract/api.ts';
import { activationCalls } from '#contract/activation.ts';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { paymentSandbox } from '#contract/dev.ts';
import type { OrderStatus } from '../../src/lib/order-text.ts';
import { admin, newCdkeys } from './admin-cli.ts';
import { pageProblems } from './page-checks.ts';
import { localizePath, say } from './routes.ts';
import { keep, registerFresh, sealedCall } from './session.ts';
import type { LocaleCode } from '../../src/i18n/locales.ts';

const phone = { width: 390, height: 844 };
/** A recharge to a friend code: a new account has no Steam account of its own linked. */
const recharge = { Product: 'steam-cn', Amount: 5000, Target: '12345678' };

/** A route with its path parameters filled, for `sealedCall`. */
const at = <R extends ApiRoute>(route: R, params: Record<string, string>): R => ({ ...route, path: pathOf(route.path, params) });

/**
 * A new account with an order in every state a customer can meet: made and
 * paid through the API, cancelled by the customer, failed and expired at the
 * payment sandbox, delivered and refunded by the operators' command.
 */
async function ordersInEveryState(page: Page, batch: string): Promise<{ token: string; keys: Record<OrderStatus, string> }> {
  const login = await registerFresh(page);
  const token = login.AccessToken;
  const [credit] = await newCdkeys(batch, 'wallet:100000');
  await sealedCall(page, activationCalls.redeem, { Key: credit }, token);
  const order = async () => (await sealedCall(page, commerceCalls.createOrder, recharge, token)).Key;
  const pay = (key: string, Method: 'wallet' | 'wechatpay') => sealedCall(page, at(commerceCalls.pay, { key }), { Method }, token);
  const stateOf = async (key: string) => (await sealedCall(page, at(commerceCalls.order, { key }), {}, token)).State;
  const atSandbox = async (key: string, Action: 'decline' | 'expire', state: Order['State']) => {
    await pay(key, 'wechatpay');
    await page.request.post(`/api${pathOf(paymentSandbox.act.path, { id: key })}`, { data: { Action } });
    await expect.poll(() => stateOf(key)).toBe(state);
  };

  const keys = {} as Record<OrderStatus, string>;
  keys.awaitingPayment = await order();
  keys.paid = await order();
  await pay(keys.paid, 'wallet');
  keys.fulfilled = await order();
  await pay(keys.fulfilled, 'wallet');
  await admin('order', 'fulfil', keys.fulfilled);
  keys.refunded = await order();
  await pay(keys.refunded, 'wallet');
  await admin('order', 'refund', keys.refunded);
  keys.canceled = await order();
  await sealedCall(page, at(commerceCalls.cancel, { key: keys.canceled }), {}, token);
  keys.failed = await order();
  await atSandbox(keys.failed, 'decline', 'failed');
  keys.expired = await order();
  await atSandbox(keys.expired, 'expire', 'closed');
  await keep(page, login);
  return { token, keys };
}

/** The timeline events that end an order in these statuses; the others end in an event of their own (delivered, refunded…). */
const ending: Partial<Record<OrderStatus, true>> = { canceled: true, expired: true, failed: true };
const withMethod: Record<OrderStatus, boolean> = {
  awaitingPayment: false,
  paid: true,
  fulfilled: true,
  refunded: true,
  canceled: false,
  failed: true,
  expired: false,
};

for (const locale of ['en', 'ja', 'ru'] as const satisfies LocaleCode[]) {
  test(`${locale}: on a phone, each order reads one status in the list, on its page and in its timeline`, async ({ page }) => {
    test.slow();
    await page.setViewportSize(phone);
    const { keys } = await ordersInEveryState(page, `e2e-orders-${locale.toLowerCase()}`);

    await page.goto(localizePath(locale, '/account/center/order'));
    for (const [status, key] of Object.entries(keys) as Array<[OrderStatus, string]>) {
      const word = say(locale, `account.order.state.${status}`);
      await expect(page.locator(`[data-order="${key}"] [data-order-state]`), `${status} in the list`).toHaveText(word);
    }

    for (const [status, key] of Object.entries(keys) as Array<[OrderStatus, string]>) {
      const word = say(locale, `account.order.state.${status}`);
      await page.goto(`${localizePath(locale, '/account/center/order/detail')}?key=${key}`);
      await expect(page.locator('[data-order-state]'), `${status} on its page`).toHaveText(word);
      if (ending[status]) await expect(page.locator('[data-timeline] li strong').last(), `${status} in the timeline`).toHaveText(new RegExp(`^${word}`));
      // Cancelled, expired or not paid yet: nothing was paid, so no "payment method" to show.
      await expect(page.locator('[data-method]'), `${status}: its payment method`).toHaveCount(withMethod[status] ? 1 : 0);
    }
  });
}

test('on a phone, an unknown or someone else’s order is "no such order", and a page without an order number asks for one', async ({ page }) => {
  await page.setViewportSize(phone);
  const someoneElse = await registerFresh(page);
  const theirs = (await sealedCall(page, commerceCalls.createOrder, recharge, someoneElse.AccessToken)).Key;
  await keep(page, await registerFresh(page));
  const detail = localizePath('en', '/account/center/order/detail');

  for (const key of [theirs, '20260101000000000000', 'not-an-order']) {
    await page.goto(`${detail}?key=${key}`);
    await expect(page.getByRole('alert'), key).toHaveText(say('en', 'account.orderDetail.notFound'));
  }
  await page.goto(detail);
  await expect(page.getByRole('alert')).toHaveText(say('en', 'account.orderDetail.missing'));
});

test('an error notice looks like one in both themes: announced, in the danger colour with its mark, and axe-clean at 320 px', async ({ page }) => {
  await keep(page, await registerFresh(page));
  const url = `${localizePath('en', '/account/center/order/detail')}?key=20260101000000000000`;
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(url);
    const alert = page.getByRole('alert');
    await expect(alert).toBeVisible();
    const look = await alert.evaluate((notice) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--danger)';
      notice.append(probe);
      const danger = getComputedStyle(probe).color;
      probe.remove();
      const mark = getComputedStyle(notice, '::before');
      return { border: getComputedStyle(notice).borderInlineStartColor, danger, mark: mark.maskImage, markColour: mark.backgroundColor };
    });
    expect(look.border, theme).toBe(look.danger);
    expect(look.markColour, theme).toBe(look.danger);
    expect(look.mark, theme).toMatch(/^url\("data:image\/svg\+xml,/);
  }
  expect(await pageProblems(page, [{ url, ready: '[role="alert"]' }])).toEqual([]);
});
