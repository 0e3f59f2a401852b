import { expect, test, type Page } from '@playwright/test';

const darkClass = 'body-warp-dark';

/** Records whether <body> had the dark class the moment the parser created it, i.e. before first paint. */
async function recordBodyAtBirth(page: Page) {
  await page.addInitScript((cls) => {
    new MutationObserver((_, observer) => {
      if (document.body) {
        (window as unknown as { bodyWasDark: boolean }).bodyWasDark = document.body.classList.contains(cls) || document.documentElement.classList.contains(cls);
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  }, darkClass);
}

const state = (page: Page) =>
  page.evaluate(
    (cls) => ({
      html: document.documentElement.classList.contains(cls),
      body: document.body.classList.contains(cls),
      style: !!document.getElementById('theme-style'),
    }),
    darkClass,
  );

/** The header's theme control: one radio per mode, named in English on /en pages. */
const theme = (page: Page, mode: 'Auto' | 'Dark' | 'Light') => page.getByRole('radio', { name: mode });

test('dark sets the class on html and body; light clears it and removes the style element', async ({ page }) => {
  await page.goto('/en/faq');
  await theme(page, 'Dark').check();
  expect(await state(page)).toEqual({ html: true, body: true, style: true });
  await theme(page, 'Light').check();
  expect(await state(page)).toEqual({ html: false, body: false, style: false });
});

test('a stored dark theme is there before first paint after a reload (no flash)', async ({ page }) => {
  await recordBodyAtBirth(page);
  await page.goto('/en/');
  await theme(page, 'Dark').check();
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { bodyWasDark: boolean }).bodyWasDark)).toBe(true);
  await expect(theme(page, 'Dark')).toBeChecked();
  expect(await state(page)).toEqual({ html: true, body: true, style: true });
});

test('auto follows the system preference live', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/en/');
  await expect(theme(page, 'Auto')).toBeChecked();
  expect((await state(page)).html).toBe(false);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(async () => (await state(page)).body).toBe(true);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(async () => (await state(page)).body).toBe(false);
});

test('box pages take ?theme= and ?language= from the desktop client, without chrome', async ({ page }) => {
  await recordBodyAtBirth(page);
  await page.goto('/privacybox?theme=dark&language=ru');
  await expect(page).toHaveURL(/\/ru\/privacybox\?theme=dark&language=ru$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  expect(await page.evaluate(() => (window as unknown as { bodyWasDark: boolean }).bodyWasDark)).toBe(true);
  await expect(page.locator('header, footer, nav')).toHaveCount(0);
  await expect(page.locator('h1')).toBeVisible();
});
