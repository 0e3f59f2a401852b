import { expect, test } from '@playwright/test';
import { dictionary, localizePath, locales, redirects, routes } from './routes.ts';
import { signInAsDemo } from './session.ts';

/** The characters Astro escapes in text and attributes. */
const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };

/** What a page's HTML says of it as the server sends it: its title, `<html lang dir>` and whether it has the site header. */
function pageFacts(html: string) {
  return {
    title: (/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '').replace(/&(amp|lt|gt|quot|#39|#x27);/g, (entity) => entities[entity]),
    lang: /<html\b[^>]*\slang="([^"]*)"/.exec(html)?.[1],
    dir: /<html\b[^>]*\sdir="([^"]*)"/.exec(html)?.[1],
    header: /<header\b[^>]*\sclass="[^"]*\bsite-header\b/.test(html),
  };
}

// Over plain HTTP: the title, language and chrome are in the built page itself, before any script runs.
for (const locale of locales) {
  test(`every route answers 200 with a translated title in ${locale.code}`, async ({ request }) => {
    for (const route of routes) {
      const url = localizePath(locale.code, route.path);
      const response = await request.get(url);
      expect(response.status(), url).toBe(200);
      const facts = pageFacts(await response.text());
      expect(facts.title, url).toContain(route.title(locale.code));
      expect([facts.lang, facts.dir], url).toEqual([locale.tag, locale.dir]);
      expect(facts.header, url).toBe(route.chrome !== false);
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
  await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute('content', dictionary('en')['site.tagline']);
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
