import { test } from '@playwright/test';
import { signInAsDemo } from './session.ts';

const out = process.env.SHOTS_DIR ?? '/work/shots';
const pages = ['', '/download', '/account/login', '/account/center/info'];
for (const locale of ['ru', 'ja']) {
  for (const theme of ['light', 'dark'] as const) {
    test(`shots ${locale} ${theme}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme });
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        for (const path of pages) {
          if (path.startsWith('/account/center')) await signInAsDemo(page);
          await page.goto(`/${locale}${path}`, { waitUntil: 'networkidle' });
          await page.waitForTimeout(400);
          await page.screenshot({ path: `${out}/${locale}${path.replace(/\//g, '_') || '_home'}-${width}-${theme}.png`, fullPage: width === 390 });
        }
      }
    });
  }
}
