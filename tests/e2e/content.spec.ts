import { expect, test } from '@playwright/test';
import { settled } from './page-checks.ts';

const contentPages = ['/en/', '/en/article/getting-started', '/ja/faq', '/ru/privacy', '/zh-tw/changelog', '/es/plugin', '/it/liunxSetupCer'];

test('content pages load no island runtime and at most a little JavaScript', async ({ page }) => {
  for (const path of contentPages) {
    const scripts: string[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') scripts.push(await response.text());
    });
    await page.goto(path, { waitUntil: 'networkidle' });
    page.removeAllListeners('response');
    const inline = await page.locator('script:not([src])').allTextContents();
    const all = [...scripts, ...inline].join('\n');
    // Neither Astro's island loader (which defines the astro-island element) nor a component framework's renderer. The head
    // script's watcher of islands that fail to load names the element only to look for it (src/components/island-loading.ts).
    expect(all, path).not.toMatch(/customElements\.define\("astro-island"|renderer-url|react-dom|preact/);
    expect(await page.locator('astro-island').count(), path).toBe(0);
  }
});

/** A dayjs locale file as the build names it, e.g. /_astro/ja.Bx1.js: group 1 is dayjs's name of the locale. */
const dayjsLocaleFile = /\/_astro\/(zh-cn|zh-tw|en-gb|es|it|ja|ko|ru)\.[\w-]+\.js$/;

test('island pages share one React runtime and load only their reader’s dayjs locale', async ({ page }) => {
  const renderers = new Set<string | null>();
  for (const [path, dayjsName] of [
    ['/ja/raffle', 'ja'],
    ['/ru/account/login', 'ru'],
    ['/en/accelerate', 'en-gb'],
  ]) {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(path);
    await settled(page);
    page.removeAllListeners('request');
    expect(
      scripts.flatMap((script) => script.match(dayjsLocaleFile)?.[1] ?? []),
      path,
    ).toEqual([dayjsName]);
    renderers.add(await page.locator('astro-island').first().getAttribute('renderer-url'));
  }
  expect(renderers.size).toBe(1);
});

test('articles show category, date and author, and link back to the list', async ({ page }) => {
  await page.goto('/en/article/getting-started');
  await expect(page.locator('article .entry-meta time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}$/);
  await expect(page.locator('article .badge').first()).toBeVisible();
  await page.getByRole('link', { name: /All articles/ }).click();
  await expect(page).toHaveURL(/\/en\/article$/);
  await expect(page.locator('.entry-card')).toHaveCount(12);
});

test('article categories filter the list', async ({ page }) => {
  await page.goto('/en/article');
  await page.locator('.tabs').getByRole('link', { name: 'Guides' }).click();
  await expect(page).toHaveURL(/\/en\/article\/category\/dg$/);
  const cards = page.locator('.entry-card');
  await expect(cards).toHaveCount(6);
  for (const badge of await cards.locator('.badge').allTextContents()) expect(badge).toBe('Guides');
});

test('site links inside content point to the reader’s locale', async ({ page }) => {
  await page.goto('/ko/article/verify-downloads');
  const hrefs = await page.locator('.prose a[href^="/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(hrefs.length).toBeGreaterThan(0);
  for (const href of hrefs) expect(href).toMatch(/^\/ko\//);
});

test('the footer links the legal pages, opens the store in a new window and states both versions', async ({ page }) => {
  await page.goto('/en/');
  const footer = page.locator('footer');
  await expect(footer.getByText('Version 3.0.1119.0 · download site 8.0.7')).toBeVisible();
  for (const name of ['User Agreement', 'Privacy Policy', 'Contact us', 'Join us', 'Sponsor', 'Change log']) {
    await expect(footer.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(footer.getByRole('link', { name: /Web store/ })).toHaveAttribute('target', '_blank');
});

test('the payment page says when its parameter is missing', async ({ page }) => {
  await page.goto('/en/payment');
  await expect(page.getByRole('alert')).toContainText('missing its order parameter');
  // With an order to pay, a visitor who is not logged in goes to login and back.
  await page.goto('/en/payment?key=20261119000000000001', { waitUntil: 'commit' });
  await expect(page).toHaveURL(`/en/account/login?redirectUrl=${encodeURIComponent('/en/payment?key=20261119000000000001')}`);
});

test('account pages send a logged-out visitor to login, remembering the page', async ({ page }) => {
  await page.goto('/en/account/center/wallet', { waitUntil: 'commit' });
  await expect(page).toHaveURL(`/en/account/login?redirectUrl=${encodeURIComponent('/en/account/center/wallet')}`);
});

test('the desktop client’s article box opens an article by id', async ({ page }) => {
  await page.goto('/en/articledetailbox?id=getting-started&theme=light');
  await expect(page).toHaveURL(/\/en\/articledetailbox\/getting-started\?id=getting-started&theme=light$/);
  await expect(page.locator('h1')).toBeVisible();
});
