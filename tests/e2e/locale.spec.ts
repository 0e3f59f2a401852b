import { expect, test } from '@playwright/test';

const storageKey = 'beacon.locale';

test.describe('with a Japanese browser', () => {
  test.use({ locale: 'ja-JP' });

  test('an unprefixed page redirects once, before paint, to the browser language', async ({ page }) => {
    const painted: string[] = [];
    await page.exposeFunction('recordPaint', (path: string) => painted.push(path));
    await page.addInitScript(() => {
      new PerformanceObserver((list) => {
        if (list.getEntries().length) (window as unknown as { recordPaint(p: string): void }).recordPaint(location.pathname);
      }).observe({ type: 'paint', buffered: true });
    });
    await page.goto('/faq');
    await expect(page).toHaveURL(/\/ja\/faq$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await page.waitForTimeout(300);
    expect(painted).toContain('/ja/faq');
    expect(painted.filter((p) => p !== '/ja/faq')).toEqual([]);
  });

  test('a stored setting wins over the browser language', async ({ page }) => {
    await page.addInitScript((key) => localStorage.setItem(key, 'ru'), storageKey);
    await page.goto('/download');
    await expect(page).toHaveURL(/\/ru\/download$/);
  });

  test('a prefixed URL is always honoured', async ({ page }) => {
    await page.addInitScript((key) => localStorage.setItem(key, 'ru'), storageKey);
    await page.goto('/ko/faq');
    await expect(page).toHaveURL(/\/ko\/faq$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
  });

  test('the language switcher stores the choice', async ({ page }) => {
    await page.goto('/ja');
    await page.locator('.language-switcher summary').click();
    await page.locator('.language-switcher a[data-locale="zh-TW"]').click();
    await expect(page).toHaveURL(/\/zh-tw$/);
    expect(await page.evaluate((key) => localStorage.getItem(key), storageKey)).toBe('zh-TW');
    await page.goto('/faq');
    await expect(page).toHaveURL(/\/zh-tw\/faq$/);
  });
});

// Chinese goes by script first, then by region: the site and the server share that one rule (contract/locales.ts).
for (const [browser, locale] of [
  ['with a browser language the site does not have', 'fr-FR'],
  ['with a Hong Kong browser set to Simplified Chinese', 'zh-Hans-HK'],
]) {
  test.describe(browser, () => {
    test.use({ locale });

    test('zh-CN is shown without redirecting', async ({ page }) => {
      await page.goto('/faq');
      await expect(page).toHaveURL(/\/faq$/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    });
  });
}

test.describe('with a Hong Kong browser', () => {
  test.use({ locale: 'zh-HK' });

  test('the page redirects to Traditional Chinese', async ({ page }) => {
    await page.goto('/faq');
    await expect(page).toHaveURL(/\/zh-tw\/faq$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
  });
});
