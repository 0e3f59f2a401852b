/** The account centre's Steam section in Chromium: link Steam through quick login, see it with cloud idling, unlink it. */
import { expect, test } from '@playwright/test';
import { say } from './routes.ts';
import { signInFresh } from './session.ts';

test('Steam is linked from the Steam account page, shown with its profile on the overview, and unlinked (ru, then en)', async ({ page }) => {
  const steamId = `7656119${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
  await signInFresh(page);
  await page.goto('/ru/account/center/steam/account');
  await expect(page.getByText(say('ru', 'account.steam.notLinked'))).toBeVisible();
  await page.getByRole('button', { name: say('ru', 'account.steam.link') }).click();
  await expect(page).toHaveURL(/\/api\/dev\/idp\/steam\/login/);
  await page.locator('input[name=id]').fill(steamId);
  await page.locator('input[name=name]').fill('Фримен');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/ru\/account\/center\/steam\/account$/);
  await expect(page.getByRole('status')).toHaveText(say('ru', 'account.bind.linked', { provider: 'Steam' }));
  await expect(page.locator('[data-persona]')).toHaveText('Фримен');
  await expect(page.locator('[data-steam-id]')).toHaveText(steamId);

  await page.goto('/en/account/center/steam/point');
  await expect(page.locator('[data-persona]')).toHaveText('Фримен');
  await expect(page.getByRole('link', { name: say('en', 'account.steam.profile') })).toHaveAttribute('href', `https://steamcommunity.com/profiles/${steamId}`);
  const summary = page.locator('[data-cloud-idle-summary]');
  await expect(summary).toContainText(say('en', 'account.steam.games', { count: '0' }));
  await expect(summary).toContainText(say('en', 'cloudIdle.none'));

  await page.goto('/en/account/center/steam/account');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: say('en', 'account.steam.unlink') }).click();
  await expect(page.getByRole('status')).toHaveText(say('en', 'account.steam.unlinked'));
  await expect(page.getByText(say('en', 'account.steam.notLinked'))).toBeVisible();
});
