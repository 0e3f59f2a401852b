import { readFileSync } from 'node:fs';
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

  // The share image: absolute on the published domain (SITE_URL, default https://beacontoolkit.net), served as a 1200×630 PNG.
  const site = new URL(process.env.SITE_URL || 'https://beacontoolkit.net');
  const canonical = new URL((await page.locator('link[rel="canonical"]').getAttribute('href')) ?? '');
  expect(canonical.origin).toBe(site.origin);
  const ogImage = new URL((await page.locator('meta[property="og:image"]').getAttribute('content')) ?? '');
  expect(ogImage.href).toBe(new URL('/en/og.png', site).href);
  await expect(page.locator('meta[name="twitter:image"]')).toHaveAttribute('content', ogImage.href);
  await expect(page.locator('meta[property="og:image:width"]')).toHaveAttribute('content', '1200');
  await expect(page.locator('meta[property="og:image:height"]')).toHaveAttribute('content', '630');
  const english = JSON.parse(readFileSync('content/i18n/en.json', 'utf8')) as Record<string, string>;
  await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute('content', english['site.tagline']);
  const image = await page.request.get(ogImage.pathname);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toMatch(/^image\/png/);
  const png = await image.body();
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
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
