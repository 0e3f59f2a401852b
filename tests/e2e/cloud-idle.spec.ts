/** The cloud-idling page follows an operator's command live: the real CLI, the real hub, the real browser. */
import { expect, test } from '@playwright/test';
import { identity } from '#contract/identity.ts';
import { admin } from './admin-cli.ts';
import { signInAsDemo } from './session.ts';

/** `npm run admin -- idle set …` against the browser tests' server (it writes data/admin.json as any server does). */
const setIdleStatus = (...args: string[]): Promise<string> => admin('idle', 'set', '13800000000', ...args);

test('an operator sets the status and the open page shows it without a reload', async ({ page }) => {
  await signInAsDemo(page);
  await page.goto('/en/account/center/steam/cloudidea');
  await expect(page.getByRole('status')).toHaveText('Connected');
  await expect(page.locator('.cloud-idle-status')).not.toContainText('Loading');
  // Anything set on the window is gone after a reload.
  await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));

  const cards = String(100 + Math.floor(Math.random() * 900));
  const output = await setIdleStatus('--state', 'Idling', '--game', '730:3:Counter-Strike 2', '--game', '570:2:Dota 2', '--cards', cards);
  expect(output).toContain("Saved and pushed to the user's open pages.");
  const status = page.locator('.cloud-idle-status');
  await expect(status.locator('[data-cards-remaining]')).toHaveText(cards, { timeout: 1_000 });
  await expect(status.locator('[data-idle-state]')).toHaveText('Idling');
  await expect(status.locator('.idled-games li')).toHaveText(['Counter-Strike 2Cards left: 3', 'Dota 2Cards left: 2']);

  await setIdleStatus('--state', 'Finished', '--cards', '0');
  await expect(status.locator('[data-idle-state]')).toHaveText('Finished: every card has dropped', { timeout: 1_000 });
  await expect(status).toContainText('No games are being idled right now.');
  expect(await page.evaluate(() => (window as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);

  // A reload asks the hub for the stored status.
  await page.reload();
  await expect(page.locator('.cloud-idle-status [data-idle-state]')).toHaveText('Finished: every card has dropped');
});

test('the page speaks the reader’s language', async ({ page }) => {
  await signInAsDemo(page);
  await page.goto('/ja/account/center/steam/cloudidea');
  await expect(page.getByRole('status')).toHaveText('接続済み');
});

test('a session ended elsewhere ends the live updates and, like any 401 on an account page, goes to login', async ({ page }) => {
  const auth = await signInAsDemo(page);
  await page.goto('/en/account/center/steam/cloudidea');
  await expect(page.getByRole('status')).toHaveText('Connected');

  // This very session signs out somewhere else (another tab, the desktop client): the server ends its hub connection,
  // the reconnect's token call is answered 401, and the page's one 401 handler says so on the login page.
  const loggedOut = await page.request.post(`/api${identity.logout.path}`, { headers: { authorization: `Bearer ${auth.AccessToken}` }, data: {} });
  expect(loggedOut.ok()).toBe(true);
  await expect(page).toHaveURL(/\/en\/account\/login\?redirectUrl=%2Fen%2Faccount%2Fcenter%2Fsteam%2Fcloudidea$/);
  await expect(page.getByText('Login expired.')).toBeVisible();
});

test.describe('before the island runs', () => {
  test.use({ javaScriptEnabled: false });

  test('the page says it is loading and offers no control that would do nothing', async ({ page }) => {
    await page.goto('/en/account/center/steam/cloudidea');
    await expect(page.getByRole('status')).toHaveText('Loading the current status…');
    await expect(page.getByRole('button', { name: 'Connect again' })).toHaveCount(0);
  });
});

test('a logged-out visitor is sent to login and back', async ({ page }) => {
  await page.goto('/en/account/center/steam/cloudidea');
  await expect(page).toHaveURL(/\/en\/account\/login\?redirectUrl=%2Fen%2Faccount%2Fcenter%2Fsteam%2Fcloudidea$/);
});
