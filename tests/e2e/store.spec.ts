/**
 * The external store in a real browser, with the
 * development store: logged in, the new window says it is logging in, then
 * shows the signed-in user; logged out, or when the token call fails, the
 * store opens plainly — the failure with the server's message beside the link.
 */
import { expect, test } from '@playwright/test';
import { identity } from '#contract/identity.ts';
import { localizePath, say } from './routes.ts';
import { signInAsDemo, signInFresh } from './session.ts';

for (const locale of ['en', 'zh-CN', 'ru'] as const) {
  test(`${locale}: logged in, the store opens in a new window signed in as the user`, async ({ page }) => {
    await page.goto(localizePath(locale, '/'));
    const { userId } = await signInFresh(page);
    // The token takes a moment, long enough to see both say they are logging in.
    await page.route(`**/api${identity.storeToken.path}`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto(localizePath(locale, '/faq'));
    const storeLink = page.getByRole('link', { name: say(locale, 'footer.store') });
    const [store] = await Promise.all([page.waitForEvent('popup'), storeLink.click()]);
    await expect(page.locator('[data-store-status]')).toHaveText(say(locale, 'store.loggingIn'));
    await expect(store.locator('body')).toHaveText(say(locale, 'store.loggingIn'));
    await expect(page.locator('[data-store-status]')).toBeHidden();
    await store.waitForURL(/\/api\/dev\/store\/oauth\/verifier\?tk=.+&t=86400&to=/);
    await expect(store.locator('[data-store-user]')).toContainText('Signed in as');
    await expect(store.locator('[data-store-user]')).toContainText(`(user ${userId})`);
    expect(await store.evaluate(() => window.opener)).toBeNull();
  });

  test(`${locale}: logged out, the store opens plainly`, async ({ page }) => {
    await page.goto(localizePath(locale, '/faq'));
    const [store] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: say(locale, 'footer.store') }).click()]);
    await store.waitForURL(/\/api\/dev\/store\/$/);
    await expect(store.locator('[data-store-user]')).toHaveText('Nobody is signed in.');
  });
}

test('when the store login fails, the store opens plainly and the server message shows', async ({ page }) => {
  await page.goto(localizePath('zh-CN', '/'));
  await signInAsDemo(page);
  // The token call answers as the server does when it refuses, with its message.
  await page.route(`**/api${identity.storeToken.path}`, (route) => route.fulfill({ json: { status: false, data: null, msg: '商城维护中' } }));
  await page.goto(localizePath('zh-CN', '/faq'));
  const [store] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: say('zh-CN', 'footer.store') }).click()]);
  await expect(page.locator('[data-store-status]')).toHaveText('商城维护中');
  await store.waitForURL(/\/api\/dev\/store\/$/);
});
