/** Customer service: logged out, the chat asks to log in first and comes back; logged in, it goes to the signed chat address. */
import { expect, test } from '@playwright/test';
import { support } from '#contract/identity.ts';
import { localizePath, say } from './routes.ts';
import { signInAsDemo } from './session.ts';

for (const locale of ['en', 'zh-CN', 'ru'] as const) {
  test(`${locale}: logged out, the chat asks to log in first, and login comes back here`, async ({ page }) => {
    await page.goto(localizePath(locale, '/customer/service'));
    await page.getByRole('button', { name: say(locale, 'service.chat') }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(say(locale, 'service.needsLogin'));
    await dialog.getByRole('button', { name: say(locale, 'service.cancel') }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: say(locale, 'service.chat') }).click();
    await dialog.getByRole('link', { name: say(locale, 'service.goLogin') }).click();
    await page.waitForURL(/\/account\/login\?redirectUrl=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('redirectUrl')!)).toBe(localizePath(locale, '/customer/service'));
  });
}

test('logged in, the chat goes to the customer-service address with a signed reference', async ({ page }) => {
  await page.goto('/en/');
  await signInAsDemo(page);
  await page.goto('/en/customer/service');
  await page.getByRole('button', { name: say('en', 'service.chat') }).click();
  await page.waitForURL(/\/contact\?ref=/);
  expect(new URL(page.url()).searchParams.get('ref')).toMatch(/\S{20,}/);
});

test('a refused customer-service link shows the server message and stays on the page', async ({ page }) => {
  await page.goto(localizePath('zh-CN', '/'));
  await signInAsDemo(page);
  await page.route(`**/api${support.customerService.path}`, (route) => route.fulfill({ json: { isSuccess: false, data: null, message: '客服暂时不可用' } }));
  await page.goto(localizePath('zh-CN', '/customer/service'));
  await page.getByRole('button', { name: say('zh-CN', 'service.chat') }).click();
  await expect(page.getByRole('alert')).toHaveText('客服暂时不可用');
  expect(new URL(page.url()).pathname).toBe(localizePath('zh-CN', '/customer/service'));
});
