/**
 * Receipts (issue 49, point 5): an order paid through the payment sandbox has
 * a receipt in the customer's language, opened from the pay page's success
 * notice and from the order's page, with the seller, item, price, method,
 * payment time and both numbers; printed, it is the receipt alone, black on
 * white, on one A4 page. An unpaid order has none.
 */
import { expect, test, type Page } from '@playwright/test';
import { commerceCalls } from '#contract/commerce.ts';
import { formatMonths, formatPrice } from '#contract/facts.ts';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { demoSeller } from '../../server/config.ts';
import { pageProblems } from './page-checks.ts';
import { localizePath, say } from './routes.ts';
import { paidPlan } from './paid-plan.ts';
import { sealedCall, signInFresh } from './session.ts';

/** A paid plan (paid-plan.ts), its pay page reloaded: the success notice stays, as the server tells it again. */
async function paidPlanReloaded(page: Page, locale: LocaleCode): Promise<{ key: string; price: number }> {
  const paid = await paidPlan(page, locale);
  await page.reload();
  await expect(page.getByText(say(locale, 'pay.outcome.successful'))).toBeVisible();
  return paid;
}

const receiptUrl = (locale: LocaleCode, key: string) => `${localizePath(locale, '/account/center/order/receipt')}?key=${key}`;

async function expectReceiptOf(page: Page, locale: LocaleCode, key: string, price: number): Promise<void> {
  const receipt = page.locator(`[data-receipt="${key}"]`);
  await expect(receipt).toBeVisible();
  await expect(page.locator('h1')).toHaveText(say(locale, 'account.receipt.title'));
  await expect(receipt.getByRole('heading', { level: 2 })).toHaveText(demoSeller.SELLER_NAME);
  for (const detail of [demoSeller.SELLER_ADDRESS, demoSeller.SELLER_TAX_ID, demoSeller.SELLER_CONTACT]) await expect(receipt).toContainText(detail);
  await expect(receipt).toContainText(say(locale, 'account.order.item.membership', { period: formatMonths(1, locale) }));
  await expect(receipt.locator('[data-receipt-price]')).toHaveText(formatPrice(price, locale));
  await expect(receipt.locator('[data-receipt-method]')).toHaveText(say(locale, 'pay.method.wechatpay'));
  await expect(receipt.locator('[data-receipt-order]')).toHaveText(key);
  await expect(receipt.locator('[data-receipt-transaction]')).toHaveText(/^\S{8,}$/);
  await expect(receipt.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await expect(receipt.locator('[data-receipt-refunded]')).toHaveCount(0);
}

for (const locale of ['ja', 'ru'] as const) {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ]) {
    test(`${locale} at ${size.width} px: a paid order's receipt opens from the success notice and from the order's page, with its facts`, async ({ page }) => {
      await page.setViewportSize(size);
      const { key, price } = await paidPlanReloaded(page, locale);

      await page.getByRole('link', { name: say(locale, 'pay.receipt') }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/account/center/order/receipt') && url.searchParams.get('key') === key);
      await expectReceiptOf(page, locale, key, price);

      await page.goto(`${localizePath(locale, '/account/center/order/detail')}?key=${key}`);
      await page.getByRole('link', { name: say(locale, 'account.orderDetail.receipt') }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/account/center/order/receipt'));
      await expectReceiptOf(page, locale, key, price);
      await page.getByRole('link', { name: say(locale, 'account.receipt.back') }).click();
      await expect(page.locator(`[data-order="${key}"]`)).toBeVisible();
    });
  }

  test(`${locale}: printed, the receipt is alone on one A4 page, black on white in either theme; on screen it passes axe and fits 320 and 1440 px, light and dark`, async ({
    page,
  }) => {
    test.slow();
    const { key } = await paidPlanReloaded(page, locale);
    const url = receiptUrl(locale, key);
    expect(await pageProblems(page, [{ url, ready: '[data-receipt]' }])).toEqual([]);

    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.emulateMedia({ colorScheme, media: 'print' });
      await page.goto(url);
      await expect(page.locator('[data-receipt]')).toBeVisible();
      for (const chrome of ['.site-header', '.site-footer', '.account-menu', '.receipt-actions', '.account-main > .lead'])
        await expect(page.locator(chrome).first(), `${chrome} (${colorScheme})`).toBeHidden();
      const colours = await page.locator('[data-receipt]').evaluate((receipt) => ({
        page: getComputedStyle(document.body).backgroundColor,
        receipt: getComputedStyle(receipt).backgroundColor,
        text: getComputedStyle(receipt.querySelector('dd')!).color,
        muted: getComputedStyle(receipt.querySelector('dt')!).color,
      }));
      expect(colours, colorScheme).toEqual({ page: 'rgb(255, 255, 255)', receipt: 'rgb(255, 255, 255)', text: 'rgb(0, 0, 0)', muted: 'rgb(0, 0, 0)' });
      // One A4 page: a PDF of as many pages as there are page objects.
      const pdf = (await page.pdf({ format: 'A4' })).toString('latin1');
      expect(pdf.match(/\/Type\s*\/Page\b/g), colorScheme).toHaveLength(1);
    }
  });
}

test('an unpaid order has no receipt, nor a link to one; a page without an order number asks for one', async ({ page }) => {
  await page.goto('/en/');
  const { auth } = await signInFresh(page);
  const order = await sealedCall(page, commerceCalls.createOrder, { Product: 'cloud-idle-monthly' }, auth.AccessToken);
  await page.goto(receiptUrl('en', order.Key));
  await expect(page.getByRole('alert')).toHaveText(say('en', 'account.receipt.notFound'));
  await page.goto(`${localizePath('en', '/account/center/order/detail')}?key=${order.Key}`);
  await expect(page.locator(`[data-order="${order.Key}"]`)).toBeVisible();
  await expect(page.locator('[data-receipt-link]')).toHaveCount(0);
  await page.goto(localizePath('en', '/account/center/order/receipt'));
  await expect(page.getByRole('alert')).toHaveText(say('en', 'account.receipt.missing'));
});
