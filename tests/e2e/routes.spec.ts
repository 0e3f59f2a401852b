import { expect, test } from '@playwright/test';
import { localizePath, locales, redirects, routes } from './routes.ts';
import { signInAsDemo } from './session.ts';

// The browser says zh-CN, so unprefixed (zh-CN) pages are shown as they are.
for (const locale of locales) {
  test(`every route answers 200 with a translated title in ${locale.code}`, async ({ page }) => {
    await signInAsDemo(page);
    for (const route of routes) {
      const url = localizePath(locale.code, route.path);
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(200);
      await expect(page, url).toHaveTitle(new RegExp(route.title(locale.code).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      const html = page.locator('html');
      await expect(html, url).toHaveAttribute('lang', locale.tag);
      await expect(html, url).toHaveAttribute('dir', locale.dir);
      await expect(page.locator('header.site-header'), url).toHaveCount(route.chrome === false ? 0 : 1);
    }
  });
}

test('default routes redirect to their first child', async ({ page }) => {
  await signInAsDemo(page);
  for (const { path, to } of redirects) {
    await page.goto(localizePath('en', path));
    await expect(page).toHaveURL(new RegExp(`${localizePath('en', to)}$`));
  }
});

test('pages carry canonical and hreflang alternates for every locale', async ({ page }) => {
  await page.goto('/en/download');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/en\/download$/);
  const alternates = page.locator('link[rel="alternate"][hreflang]');
  await expect(alternates).toHaveCount(locales.length + 1);
  await expect(page.locator('link[hreflang="zh-TW"]')).toHaveAttribute('href', /\/zh-tw\/download$/);
  await expect(page.locator('link[hreflang="x-default"]')).toHaveAttribute('href', /\/download$/);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /.+/);
});

test('an unknown path answers 404 with the locale’s not-found page', async ({ page }) => {
  const response = await page.goto('/en/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.locator('[data-not-found] h1')).toHaveText('Page not found');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  const zh = await page.goto('/no/such/page');
  expect(zh?.status()).toBe(404);
  await expect(page.locator('[data-not-found] h1')).toHaveText('页面不存在');
});

test('an unknown account path answers 404 inside the account centre', async ({ page }) => {
  const response = await page.goto('/ja/account/center/nothing-here');
  expect(response?.status()).toBe(404);
  await expect(page.locator('.account-menu')).toBeVisible();
  await expect(page.locator('[data-not-found]')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
});

test('any path below /raffle/ shows the raffle page', async ({ page }) => {
  const response = await page.goto('/ko/raffle/2026-anniversary');
  expect(response?.status()).toBe(200);
  await expect(page.locator('.raffle-banner h1')).toBeVisible();
});
