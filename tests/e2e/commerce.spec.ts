/**
 * Buying in a real browser (issue 13): a Steam recharge paid by scanning,
 * with the payment sandbox's phone page in a second browser context as the
 * phone; the pay page turns to the outcome by itself, without a reload.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { admin } from './admin-cli.ts';
import { pageProblems } from './page-checks.ts';
import { localizePath, say } from './routes.ts';
import { signInAsDemo } from './session.ts';
import type { LocaleCode } from '../../src/i18n/locales.ts';

// One at a time: maintenance stops every payment, and the demo account has one auto-renewal at most.
test.describe.configure({ mode: 'serial' });

/** `npm run admin -- maintenance on|off` against the browser tests' server. */
async function maintenance(state: 'on' | 'off'): Promise<void> {
  await admin('maintenance', state);
}

/** Orders a recharge to the linked Steam account and shows its code; answers the order number. */
async function orderRecharge(page: Page, locale: LocaleCode): Promise<string> {
  await page.goto(localizePath(locale, '/recharge/steam'));
  await page.getByRole('button', { name: say(locale, 'recharge.submit') }).click();
  await page.waitForURL(/\/payment\?key=\d{20}$/);
  await page.getByRole('button', { name: say(locale, 'pay.showCode') }).click();
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
  await page.goto(`${page.url()}&type=alipay`);
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

test('under maintenance, paying shows the maintenance message', async ({ page }) => {
  await page.goto('/en/');
  await signInAsDemo(page);
  await page.goto('/en/recharge/steam');
  await page.getByRole('button', { name: say('en', 'recharge.submit') }).click();
  await page.waitForURL(/\/payment\?key=\d{20}$/);
  await maintenance('on');
  try {
    await page.getByRole('button', { name: say('en', 'pay.showCode') }).click();
    await expect(page.getByText(say('en', 'pay.outcome.maintenance'))).toBeVisible();
  } finally {
    await maintenance('off');
  }
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
      { url: page.url(), ready: '.pay-code img' },
      { url: `${localizePath(locale, '/account/center/order/detail')}?key=${key}`, ready: '[data-order]' },
      { url: `${localizePath(locale, '/wechatpay')}?pr=${key}`, ready: '.sandbox-pay' },
    ];
    const problems = await pageProblems(page, pages);
    expect(problems).toEqual([]);
  });
}
