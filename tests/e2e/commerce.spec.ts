/**
 * Buying in a real browser (issues 13 and 46): a Steam recharge paid by
 * scanning, with the payment sandbox's phone page in a second browser context
 * as the phone; an order paid by scanning Alipay's code, the Alipay sandbox
 * playing the phone through its control API; paying in WeChat or in Alipay on
 * a phone, through each sandbox's checkout page and back. The pay page turns
 * to the outcome by itself, without a reload.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { pathOf } from '#contract/api.ts';
import { commerceCalls } from '#contract/commerce.ts';
import { alipaySandbox, type AlipaySandboxAction } from '#contract/dev.ts';
import { seriousAxeProblems } from './axe.ts';
import { overflowOf } from './overflow.ts';
import { pageProblems, settled } from './page-checks.ts';
import { localizePath, say } from './routes.ts';
import { sealedCall, signInAsDemo, signInFresh } from './session.ts';
import type { LocaleCode } from '../../src/i18n/locales.ts';

// One at a time: the demo account has one auto-renewal at most.
test.describe.configure({ mode: 'serial' });

/** Orders a recharge to the linked Steam account and shows its code; answers the order number. */
async function orderRecharge(page: Page, locale: LocaleCode): Promise<string> {
  await page.goto(localizePath(locale, '/recharge/steam'));
  await page.getByRole('button', { name: say(locale, 'recharge.submit') }).click();
  await page.waitForURL(/\/payment\?key=\d{20}$/);
  await page.getByRole('button', { name: say(locale, 'pay.showCode.wechatpay') }).click();
  await expect(page.locator('.pay-code img')).toBeVisible();
  return new URL(page.url()).searchParams.get('key')!;
}

/** The phone: another browser, on the sandbox's page for the order (or the agreement to sign). */
async function phoneDoes(browser: Browser, locale: LocaleCode, key: string, action: 'approve' | 'decline' | 'expire' | 'sign'): Promise<void> {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await phone.newPage();
  await page.goto(`${localizePath(locale, '/wechatpay')}?pr=${key}`);
  await page.getByRole('button', { name: say(locale, `pay.sandbox.${action}`) }).click();
  await expect(page.getByText(say(locale, 'pay.sandbox.done'))).toBeVisible();
  await phone.close();
}

for (const locale of ['en', 'zh-CN', 'ja'] as const) {
  test(`${locale}: a recharge paid from a phone turns the pay page to success within a second, without a reload`, async ({ page, browser }) => {
    await page.goto(localizePath(locale, '/'));
    await signInAsDemo(page);
    const key = await orderRecharge(page, locale);
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await phoneDoes(browser, locale, key, 'approve');
    await expect(page.getByText(say(locale, 'pay.outcome.successful'))).toBeVisible({ timeout: 1_000 });
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  });
}

test('a declined and an expired payment each show their message', async ({ page, browser }) => {
  await page.goto('/en/');
  await signInAsDemo(page);
  const declined = await orderRecharge(page, 'en');
  await phoneDoes(browser, 'en', declined, 'decline');
  await expect(page.getByText(say('en', 'pay.outcome.failed'))).toBeVisible({ timeout: 1_000 });

  const expired = await orderRecharge(page, 'en');
  await phoneDoes(browser, 'en', expired, 'expire');
  await expect(page.getByText(say('en', 'pay.outcome.timeout'))).toBeVisible({ timeout: 1_000 });
});

test('a payment type the server does not take shows "unsupported payment type"', async ({ page }) => {
  await page.goto('/en/');
  await signInAsDemo(page);
  await page.goto('/en/recharge/steam');
  await page.getByRole('button', { name: say('en', 'recharge.submit') }).click();
  await page.waitForURL(/\/payment\?key=\d{20}$/);
  await page.goto(`${page.url()}&type=unionpay`);
  await expect(page.getByText(say('en', 'pay.outcome.unsupportedType'))).toBeVisible();
});

test('the wallet shows the balance and its ledger', async ({ page }) => {
  await page.goto('/en/');
  await signInAsDemo(page);
  await page.goto('/en/account/center/wallet');
  await expect(page.locator('[data-balance]')).toBeVisible();
  await expect(page.locator('[data-ledger] li').first()).toBeVisible();
  await expect(page.locator('[data-ledger]')).toContainText(say('en', 'account.wallet.reason.credit'));
});

test('a plan with auto-renewal: signed and paid from the phone, listed, refused a second time, then cancelled', async ({ page, browser }) => {
  await page.goto('/en/');
  await signInAsDemo(page);
  await page.goto('/en/account/center/steam/cloudidea');
  const monthly = page.locator('[data-plan="cloud-idle-monthly"]');
  await monthly.getByRole('button', { name: say('en', 'plans.subscribe') }).click();
  await page.waitForURL(/\/payment\?key=\d{20}$/);
  await expect(page.locator('[data-auto-renew]')).toBeVisible();
  // An auto-renewal is paid under the provider's contract, never from the wallet.
  await expect(page.getByRole('button', { name: /from my wallet/ })).toHaveCount(0);
  await page.getByRole('button', { name: say('en', 'pay.showSignCode') }).click();
  await expect(page.locator('.pay-code img')).toBeVisible();
  const agreement = (await page.locator('[data-agreement-key]').textContent())!.trim();
  await phoneDoes(browser, 'en', agreement, 'sign');
  await expect(page.getByText(say('en', 'pay.outcome.successful'))).toBeVisible();

  await page.goto('/en/account/center/agreements');
  const row = page.locator(`[data-agreement="${agreement}"]`);
  await expect(row).toHaveAttribute('data-state', 'active');
  await expect(row.locator('[data-next-charge]')).toBeVisible();

  await page.goto('/en/account/center/steam/cloudidea');
  await page
    .locator('[data-plan="cloud-idle-yearly"]')
    .getByRole('button', { name: say('en', 'plans.subscribe') })
    .click();
  await expect(page.getByRole('alert')).toContainText('You already have an auto-renewal agreement');

  await page.goto('/en/account/center/agreements');
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: say('en', 'account.agreements.cancel') }).click();
  await expect(page.getByText(say('en', 'account.agreements.canceled'))).toBeVisible();
  await expect(row).toHaveAttribute('data-state', 'canceled');
});

for (const locale of ['ja', 'ru'] as const) {
  test(`${locale}: the pay page with its code, the order's timeline and the phone page pass axe and fit 320 px, light and dark`, async ({ page }) => {
    test.slow();
    await page.goto(localizePath(locale, '/'));
    await signInAsDemo(page);
    const key = await orderRecharge(page, locale);
    const pages = [
      // The code of the order's method shown again: WeChat Pay's, then (in the second theme) Alipay's, which the next page started.
      { url: page.url(), ready: '.pay-code img' },
      // The desktop client's way in: Alipay's code at once.
      { url: `${page.url()}&type=alipay`, ready: '.pay-code[data-code="alipay"] img' },
      { url: `${localizePath(locale, '/account/center/order/detail')}?key=${key}`, ready: '[data-order]' },
      { url: `${localizePath(locale, '/wechatpay')}?pr=${key}`, ready: '.sandbox-pay' },
    ];
    const problems = await pageProblems(page, pages);
    expect(problems).toEqual([]);
  });
}

/** Every read of one order's detail the page makes (GET /commerce/v1/orders/:key). */
function orderReads(page: Page, key: string): string[] {
  const reads: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === `/api${commerceCalls.order.path.replace(':key', key)}`) reads.push(request.url());
  });
  return reads;
}

/** Resolves once the page's hub connection has answered its handshake (the SignalR `{}` record): the moment a page following an order used to read it again. */
function hubConnected(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => String(frame.payload).startsWith('{}\u001e') && resolve()));
  });
}

/** A new account with a cloud-idling month ordered (no Steam account needed); answers the order number. */
async function newPlanOrder(page: Page): Promise<string> {
  await page.goto('/en/');
  const { auth } = await signInFresh(page);
  return (await sealedCall(page, commerceCalls.createOrder, { Product: 'cloud-idle-monthly' }, auth.AccessToken)).Key;
}

/** The order's state as the server has it, from its order page. */
async function stateOnServer(page: Page, key: string): Promise<string | null> {
  await page.goto(`/en/account/center/order/detail?key=${key}`);
  return page.locator('[data-order]').getAttribute('data-state');
}

test('the pay page and the order page each read the order once per load, the pay page also when it shows its code again', async ({ page }) => {
  const key = await newPlanOrder(page);
  const reads = orderReads(page, key);
  for (const [url, ready] of [
    [`/en/payment?key=${key}`, `button:has-text("${say('en', 'pay.showCode.wechatpay')}")`],
    [`/en/account/center/order/detail?key=${key}`, '[data-order]'],
  ]) {
    reads.length = 0;
    const connected = hubConnected(page);
    await page.goto(url);
    await expect(page.locator(ready)).toBeVisible();
    await connected;
    await page.waitForLoadState('networkidle');
    expect(reads, url).toHaveLength(1);
  }
  // Paying by code: a reload shows the same code again, still with one read — Alipay's as WeChat Pay's.
  await page.goto(`/en/payment?key=${key}`);
  for (const method of ['wechatpay', 'alipay'] as const) {
    await page.getByRole('button', { name: say('en', `pay.showCode.${method}`) }).click();
    await expect(page.locator(`.pay-code[data-code="${method}"] img`)).toBeVisible();
    reads.length = 0;
    const connected = hubConnected(page);
    await page.reload();
    await expect(page.locator(`.pay-code[data-code="${method}"] img`)).toBeVisible();
    await connected;
    await page.waitForLoadState('networkidle');
    expect(reads, method).toHaveLength(1);
  }
});

/** The Alipay sandbox does to the order's scan-to-pay trade what the customer's phone would (its development control API). */
async function alipayDoes(page: Page, key: string, Action: AlipaySandboxAction): Promise<void> {
  const answer = await page.request.post(`/api${pathOf(alipaySandbox.act.path, { id: key })}`, { data: { Action } });
  expect(answer.ok(), `${Action}: ${await answer.text()}`).toBe(true);
}

test("both providers and the wallet offered; switching from WeChat Pay's code to Alipay's, which is scanned and paid, turns the page to success without a reload", async ({
  page,
}) => {
  const key = await newPlanOrder(page);
  await page.goto(`/en/payment?key=${key}`);
  const ways = page.locator('#pay-how ~ .form-actions').first().getByRole('button');
  await expect(ways).toHaveText([say('en', 'pay.showCode.wechatpay'), say('en', 'pay.showCode.alipay'), /from my wallet/]);

  await page.getByRole('button', { name: say('en', 'pay.showCode.wechatpay') }).click();
  await expect(page.locator('.pay-code[data-code="wechatpay"]')).toContainText(say('en', 'pay.scanHint.wechatpay'));
  await expect(page.getByRole('heading', { name: say('en', 'pay.scan.wechatpay') })).toBeVisible();
  // The other provider's code is still offered while the order is unpaid.
  await page.getByRole('button', { name: say('en', 'pay.showCode.alipay') }).click();
  const code = page.locator('.pay-code[data-code="alipay"]');
  await expect(code).toContainText(say('en', 'pay.scanHint.alipay'));
  await expect(page.getByRole('heading', { name: say('en', 'pay.scan.alipay') })).toBeVisible();
  await expect(page.getByRole('button', { name: say('en', 'pay.showCode.wechatpay') })).toBeVisible();
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

  await alipayDoes(page, key, 'scan');
  await alipayDoes(page, key, 'approve');
  await expect(page.getByText(say('en', 'pay.outcome.successful'))).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

  await page.goto(`/en/account/center/order/detail?key=${key}`);
  await expect(page.locator('[data-method]')).toHaveText(say('en', 'pay.method.alipay'));
  await expect(page.locator('[data-order]')).toContainText(say('en', 'account.orderDetail.event.paymentStartedAlipay'));
});

test('"Cancel order" asks first, and keeping the order changes nothing', async ({ page }) => {
  const key = await newPlanOrder(page);
  await page.goto(`/en/payment?key=${key}`);
  const confirm = page.getByRole('dialog', { name: say('en', 'pay.cancelConfirm') });
  await page.getByRole('button', { name: say('en', 'pay.cancel') }).click();
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: say('en', 'pay.cancelNo') }).click();
  await expect(confirm).toBeHidden();
  await expect(page.locator('[data-pay-order]')).toHaveAttribute('data-state', 'created');
  expect(await stateOnServer(page, key)).toBe('created');

  await page.goto(`/en/payment?key=${key}`);
  await page.getByRole('button', { name: say('en', 'pay.cancel') }).click();
  await confirm.getByRole('button', { name: say('en', 'pay.cancelYes') }).click();
  await expect(page.getByText(say('en', 'pay.outcome.canceled'))).toBeVisible();
  await expect(page.locator('[data-pay-intro]')).toHaveText(say('en', 'pay.introUnpaid'));
  expect(await stateOnServer(page, key)).toBe('closed');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('"Pay in WeChat" leads; the sandbox\'s H5 page pays, comes back, and the open pay page gets the paid state pushed', async ({ page }) => {
    const key = await newPlanOrder(page);
    const payUrl = `/en/payment?key=${key}`;
    await page.goto(payUrl);
    await expect(page.locator('[data-pay-intro]')).toHaveText(say('en', 'pay.introPhone'));
    // The same order's pay page, open in another tab of the logged-in browser: it learns of the payment only by the hub's push.
    const watching = await page.context().newPage();
    await watching.goto(payUrl);
    await expect(watching.getByRole('button', { name: say('en', 'pay.payInApp.wechatpay') })).toBeVisible();
    await watching.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    // The code to scan is the second way, folded away.
    await expect(page.locator('.pay-other-device')).not.toHaveAttribute('open');
    await expect(page.getByRole('button', { name: say('en', 'pay.showCode.wechatpay') })).toBeHidden();
    await page.getByRole('button', { name: say('en', 'pay.payInApp.wechatpay') }).tap();
    await page.waitForURL(/\/api\/dev\/wechatpay\/checkmweb\?prepay_id=\w+&package=\d+&redirect_url=/);
    await page.getByRole('button', { name: /^Pay / }).tap();

    await page.waitForURL(new RegExp(`/en/payment\\?key=${key}&from=wechatpay$`));
    await expect(page.getByText(say('en', 'pay.outcome.successful'))).toBeVisible();
    await expect(page.locator('[data-pay-intro]')).toHaveText(say('en', 'pay.introPaid'));
    await expect(page.getByRole('link', { name: say('en', 'pay.toCloudIdle') })).toHaveAttribute('href', '/en/account/center/steam/cloudidea');

    await expect(watching.getByText(say('en', 'pay.outcome.successful'))).toBeVisible();
    expect(await watching.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  });

  test('coming back to the return address without paying marks nothing paid, and the page does not claim it', async ({ page }) => {
    const key = await newPlanOrder(page);
    await page.goto(`/en/payment?key=${key}`);
    await page.getByRole('button', { name: say('en', 'pay.payInApp.wechatpay') }).tap();
    await page.waitForURL(/\/api\/dev\/wechatpay\/checkmweb\?/);
    // The return address, typed in (or forged) instead of paying.
    await page.goto(`/en/payment?key=${key}&from=wechatpay`);
    await expect(page.locator('[data-not-confirmed]')).toHaveText(say('en', 'pay.notConfirmed.wechatpay'));
    await expect(page.locator('[data-pay-order]')).toHaveAttribute('data-state', 'paying');
    await expect(page.locator('[data-outcome]')).toHaveCount(0);
    await expect(page.getByText(say('en', 'pay.outcome.successful'))).toHaveCount(0);
    await expect(page.getByRole('button', { name: say('en', 'pay.payInApp.wechatpay') })).toBeVisible();
    expect(await stateOnServer(page, key)).toBe('paying');

    // Alipay's way back as forged: its own return parameters, even a "success", prove nothing either.
    await page.goto(`/en/payment?key=${key}&from=alipay&method=alipay.trade.wap.pay.return&out_trade_no=${key}H&trade_no=2026&sign=forged`);
    await expect(page.locator('[data-not-confirmed]')).toHaveText(say('en', 'pay.notConfirmed.alipay'));
    await expect(page.locator('[data-outcome]')).toHaveCount(0);
    expect(await stateOnServer(page, key)).toBe('paying');
  });

  test('"Pay in the Alipay app" opens the Alipay sandbox\'s checkout, which pays and comes back to the pay page showing success', async ({ page }) => {
    const key = await newPlanOrder(page);
    await page.goto(`/en/payment?key=${key}`);
    const ways = page.locator('#pay-how ~ .form-actions').first().getByRole('button');
    await expect(ways).toHaveText([say('en', 'pay.payInApp.wechatpay'), say('en', 'pay.payInApp.alipay'), /from my wallet/]);
    await page.getByRole('button', { name: say('en', 'pay.payInApp.alipay') }).tap();
    // The sandbox's checkout page stands in for Alipay's (a page of the server, not of the site).
    await page.waitForURL((url) => url.pathname.startsWith('/api/dev/alipay/'));
    await page.getByRole('button', { name: /^Pay\b/ }).tap();

    await page.waitForURL((url) => url.pathname === '/en/payment' && url.searchParams.get('key') === key && url.searchParams.get('from') === 'alipay');
    await expect(page.getByText(say('en', 'pay.outcome.successful'))).toBeVisible();
    await expect(page.locator('[data-pay-intro]')).toHaveText(say('en', 'pay.introPaid'));
    expect(await stateOnServer(page, key)).toBe('fulfilled');
  });

  for (const locale of ['ja', 'ru'] as const) {
    test(`${locale}: the phone layout, its code unfolded, passes axe and fits 390 and 320 px, light and dark`, async ({ page }) => {
      const key = await newPlanOrder(page);
      const problems: string[] = [];
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${localizePath(locale, '/payment')}?key=${key}`);
        await page.locator('.pay-other-device > summary').tap();
        await page.getByRole('button', { name: say(locale, 'pay.showCode.alipay') }).tap();
        await expect(page.locator('.pay-code[data-code="alipay"] img')).toBeVisible();
        await settled(page);
        problems.push(...(await seriousAxeProblems(page)).map((problem) => `${theme}: ${problem}`));
        for (const width of [390, 320]) {
          await page.setViewportSize({ width, height: 844 });
          const overflow = await overflowOf(page);
          if (overflow.page > 0 || overflow.elements.length) problems.push(`${theme} @${width}px: page +${overflow.page}px; ${overflow.elements.join(', ')}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
