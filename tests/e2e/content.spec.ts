import { expect, test } from '@playwright/test';

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
    // Neither Astro's island loader nor a component framework's renderer.
    expect(all, path).not.toMatch(/astro-island|renderer-url|react-dom|preact/);
    expect(await page.locator('astro-island').count(), path).toBe(0);
  }
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

test('the footer links the legal pages and opens the store in a new window', async ({ page }) => {
  await page.goto('/en/');
  const footer = page.locator('footer');
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
