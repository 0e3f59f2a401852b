/**
 * What switches something for the whole server the browser tests share:
 * maintenance pauses every payment, so this file runs alone, after every other
 * (the `server-wide` project of playwright.config.ts).
 */
import { expect, test } from '@playwright/test';
import { admin } from './admin-cli.ts';
import { signInToConsole } from './console-sign-in.ts';
import { localizePath, say } from './routes.ts';
import { signInAsDemo } from './session.ts';

// One at a time here too: each of them switches the same thing.
test.describe.configure({ mode: 'serial' });

test('under maintenance, paying shows the maintenance message', async ({ page }) => {
  await page.goto('/en/');
  await signInAsDemo(page);
  await page.goto('/en/recharge/steam');
  await page.getByRole('button', { name: say('en', 'recharge.submit') }).click();
  await page.waitForURL(/\/payment\?key=\d{20}$/);
  await admin('maintenance', 'on');
  try {
    await page.getByRole('button', { name: say('en', 'pay.showCode.wechatpay') }).click();
    await expect(page.getByText(say('en', 'pay.outcome.maintenance'))).toBeVisible();
  } finally {
    await admin('maintenance', 'off');
  }
});

test('an operator pauses payments from the console after a confirmation, and opens them again', async ({ page }) => {
  await signInToConsole(page, 'operator', 'ko');
  await page.goto(localizePath('ko', '/admin/status'));
  await expect(page.locator('[data-maintenance]')).toHaveAttribute('data-maintenance', 'false');
  try {
    await page.getByRole('button', { name: say('ko', 'console.status.turnOn') }).click();
    await page.locator('[data-confirm-maintenance]').click();
    await expect(page.locator('[data-maintenance]')).toHaveAttribute('data-maintenance', 'true');
    expect(await admin('maintenance', 'status')).toContain('paused');
    await page.getByRole('button', { name: say('ko', 'console.status.turnOff') }).click();
    await page.locator('[data-confirm-maintenance]').click();
    await expect(page.locator('[data-maintenance]')).toHaveAttribute('data-maintenance', 'false');
  } finally {
    await admin('maintenance', 'off');
  }
});
