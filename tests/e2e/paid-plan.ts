/** An order paid as a customer pays it, for the tests of what a paid order has (its receipt, its invoice). */
import { expect, type Page } from '@playwright/test';
import { pathOf } from '#contract/api.ts';
import { commerceCalls } from '#contract/commerce.ts';
import { paymentSandbox } from '#contract/dev.ts';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { localizePath, say } from './routes.ts';
import { sealedCall, signInFresh } from './session.ts';

/**
 * A new account's cloud-idling month, paid by scanning WeChat Pay's code on the pay page as on a
 * computer (a phone's pay page opens the provider's app instead; the sandbox approves it), the page
 * then back at the test's size with the success notice; answers the order's number and price.
 */
export async function paidPlan(page: Page, locale: LocaleCode): Promise<{ key: string; price: number }> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(localizePath(locale, '/'));
  const { auth } = await signInFresh(page);
  const order = await sealedCall(page, commerceCalls.createOrder, { Product: 'cloud-idle-monthly' }, auth.AccessToken);
  await page.goto(`${localizePath(locale, '/payment')}?key=${order.Key}`);
  await page.getByRole('button', { name: say(locale, 'pay.showCode.wechatpay') }).click();
  await expect(page.locator('.pay-code img')).toBeVisible();
  await page.request.post(`/api${pathOf(paymentSandbox.act.path, { id: order.Key })}`, { data: { Action: 'approve' } });
  await expect(page.getByText(say(locale, 'pay.outcome.successful'))).toBeVisible();
  if (size) await page.setViewportSize(size);
  return { key: order.Key, price: order.Price };
}
