/** The cloud-idle game list in Chromium: add by name or app id, remove, and see it on the cloud-idling page. */
import { expect, test } from '@playwright/test';
import { say } from './routes.ts';
import { signInFresh } from './session.ts';

test('a game is added by name and by app id, removed, and the cloud-idling page shows the list (ja, then en)', async ({ page }) => {
  await signInFresh(page);
  await page.goto('/ja/account/center/game');
  await expect(page.getByText(say('ja', 'account.game.empty'))).toBeVisible();

  const add = async (typed: string) => {
    await page.locator('input[name=game]').fill(typed);
    await page.getByRole('button', { name: say('ja', 'account.game.addButton'), exact: true }).click();
  };
  await add('dota 2');
  await expect(page.getByRole('status')).toHaveText(say('ja', 'account.game.added', { name: 'Dota 2' }));
  await add('3999990');
  await expect(page.locator('li[data-app-id="3999990"]')).toContainText(say('ja', 'account.game.unlisted', { id: '3999990' }));
  await add('No Such Game');
  await expect(page.getByRole('alert')).toHaveText(say('ja', 'account.game.notFound'));

  await page
    .locator('li[data-app-id="3999990"]')
    .getByRole('button', { name: say('ja', 'account.game.remove') })
    .click();
  await expect(page.locator('li[data-app-id="3999990"]')).toHaveCount(0);

  await page.goto('/en/account/center/steam/cloudidea');
  const list = page.locator('[data-game-list]');
  await expect(list).toContainText('Dota 2');
  await list.getByRole('link', { name: say('en', 'cloudIdle.list.edit') }).click();
  await expect(page).toHaveURL(/\/en\/account\/center\/game$/);
});
