import { expect, test } from '@playwright/test';

test('search finds an article in Japanese', async ({ page }) => {
  await page.goto('/ja/search');
  await page.locator('.pagefind-ui__search-input').fill('チェックサム');
  const result = page.locator('.pagefind-ui__result-link').first();
  await expect(result).toHaveAttribute('href', /^\/ja\/article\//);
});

test('search finds an article in Russian', async ({ page }) => {
  await page.goto('/ru/search');
  await page.locator('.pagefind-ui__search-input').fill('сертификат');
  const result = page.locator('.pagefind-ui__result-link').first();
  await expect(result).toHaveAttribute('href', /^\/ru\/(article\/|faq)/);
});

test('article and change-log feeds exist per locale in RSS and Atom', async ({ request }) => {
  for (const [path, root] of [
    ['/en/article/rss.xml', '<rss'],
    ['/ja/article/atom.xml', '<feed'],
    ['/changelog/rss.xml', '<rss'],
    ['/ru/changelog/atom.xml', '<feed'],
  ] as const) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const body = await response.text();
    expect(body, path).toContain(root);
    expect((body.match(/<(item|entry)>/g) ?? []).length, path).toBeGreaterThanOrEqual(8);
  }
  const rss = await (await request.get('/ja/article/rss.xml')).text();
  expect(rss).toContain('<language>ja</language>');
  expect(rss).toContain('/ja/article/release-3-0-1119');
});

test('the sitemap lists pages with hreflang alternates, and robots.txt points to it', async ({ request }) => {
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toMatch(/Sitemap: .*\/sitemap-index\.xml/);
  const sitemap = await (await request.get('/sitemap-0.xml')).text();
  expect(sitemap).toContain('/en/download');
  expect(sitemap).toMatch(/hreflang="zh-TW" href="[^"]*\/zh-tw\/download"/);
  expect(sitemap).not.toContain('privacybox');
  expect(sitemap).not.toContain('translation-status');
  expect(sitemap).not.toContain('/admin');
});

test('the API reference is for developers: out of the sitemap, noindex, and it draws the API from this server alone', async ({ page, request, baseURL }) => {
  for (const file of ['/sitemap-index.xml', '/sitemap-0.xml']) expect(await (await request.get(file)).text(), file).not.toContain('/api/');
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('request', (sent) => {
    if (!sent.url().startsWith('data:') && new URL(sent.url()).origin !== new URL(baseURL!).origin) problems.push(`elsewhere: ${sent.url()}`);
  });
  await page.goto('/api/reference#/account/account.updateNickname');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(page.locator('.opblock-tag', { hasText: 'commerce' })).toBeVisible();
  const call = page.locator('.opblock.is-open');
  await expect(call).toContainText('/identity/v1/manage/nickname');
  await expect(call).toContainText('account.updateNickname.request');
  await expect(call).toContainText('EncryptionInvalid');
  expect(problems).toEqual([]);
});

test('the operators’ console is for the shop’s staff: noindex, and not in the search index', async ({ page }) => {
  for (const path of ['/admin', '/en/admin/customers', '/ru/admin/orders']) {
    await page.goto(path);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.locator('[data-pagefind-body]')).toHaveCount(0);
  }
});

test('the translation status is for translators: noindex, and not in the search index', async ({ page }) => {
  await page.goto('/ja/translation-status');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(page.locator('[data-pagefind-body]')).toHaveCount(0);
  await expect(page.getByRole('row', { name: /English/ })).toBeVisible();
  await expect(page.locator('#locale-ru')).toBeVisible();
});

test('no page links to a page that does not exist', async ({ request }) => {
  // Every site link in every built page, checked once against the running server.
  const { readdirSync, readFileSync } = await import('node:fs');
  const pages = readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
  const links = new Set<string>();
  for (const page of pages) {
    for (const [, href] of readFileSync(`dist/${page}`, 'utf8').matchAll(/href="(\/(?!\/)[^"#?]*)/g)) links.add(href);
  }
  expect(links.size).toBeGreaterThan(200);
  const broken: string[] = [];
  for (const href of links) if ((await request.get(href)).status() !== 200) broken.push(href);
  expect(broken).toEqual([]);
});
