/** Registering by SMS in the real browser against the real server: the browser's WebCrypto talks to the server's node:crypto. */
import { expect, test, type Page } from '@playwright/test';

let phoneSeq = 0;
const newPhone = () => `1370${String(process.pid % 1000).padStart(3, '0')}${String(++phoneSeq).padStart(4, '0')}`;

async function codeFromOutbox(page: Page, phone: string): Promise<string> {
  const response = await page.request.get(`/api/dev/outbox?to=${phone}`);
  const messages = (await response.json()).data as Array<{ text: string }>;
  return /\d{6}/.exec(messages.at(-1)!.text)![0];
}

async function registerBySms(page: Page, phone: string) {
  await page.getByRole('checkbox').check();
  await page.locator('input[name="phone"]').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('status')).toHaveText('SMS sent successfully.');
  await expect(page.getByRole('button', { name: /Resend in \d+ s/ })).toBeDisabled();
  await page.locator('input[name="code"]').fill(await codeFromOutbox(page, phone));
  await page.getByRole('button', { name: 'Log in / Register' }).click();
}

test('register by SMS, come back to the page, stay logged in, sign out', async ({ page }) => {
  await page.goto('/en/faq');
  await page.locator('[data-login-link]').click();
  await expect(page).toHaveURL(/\/en\/account\/login\?redirectUrl=%2Fen%2Ffaq$/);

  const phone = newPhone();
  await registerBySms(page, phone);
  await expect(page.getByRole('status')).toHaveText('Logged in. Taking you back…');
  await expect(page).toHaveURL(/\/en\/faq$/);

  const badge = page.locator('[data-session-badge]');
  await expect(badge).toContainText(`Beacon-${phone.slice(-4)}`);
  await expect(badge.locator('img')).toHaveAttribute('src', '/images/avatar-placeholder.svg');
  await page.reload();
  await expect(badge).toBeVisible();
  await expect(page.locator('[data-login-link]')).toBeHidden();

  await badge.getByRole('button', { name: 'Account menu' }).click();
  const reloaded = page.waitForEvent('load');
  await badge.getByRole('menuitem', { name: 'Sign out' }).click();
  await reloaded;
  await expect(page.locator('[data-login-link]')).toBeVisible();
  await expect(badge).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('beacon.auth'))).toBeNull();
});

test('an expired login on an account page says so and goes to login, then back', async ({ page }) => {
  await page.goto('/en/account/login');
  await registerBySms(page, newPhone());
  await expect(page).toHaveURL(/\/en\/account\/center\/info$/);

  await page.evaluate(() => {
    const token = JSON.parse(localStorage.getItem('beacon.auth')!);
    localStorage.setItem('beacon.auth', JSON.stringify({ ...token, ExpiresIn: Date.now() - 1000 }));
  });
  await page.goto('/en/account/center/wallet');
  await expect(page).toHaveURL(/\/en\/account\/login\?redirectUrl=%2Fen%2Faccount%2Fcenter%2Fwallet$/);
  await expect(page.getByRole('alert')).toHaveText('Login expired.');
  expect(await page.evaluate(() => localStorage.getItem('beacon.user'))).toBeNull();
});

test('the form checks the agreement, the phone and the code first, in the page language', async ({ page }) => {
  await page.goto('/ja/account/login');
  await page.getByRole('tab').first().waitFor();
  const send = page.locator('.input-row button');
  await send.click();
  await expect(page.getByRole('alert')).toContainText('プライバシー');
  await page.getByRole('checkbox').check();
  await send.click();
  await expect(page.getByRole('alert')).not.toContainText('プライバシー');
  await page.locator('input[name="phone"]').fill('12ab');
  await send.click();
  const invalid = await page.getByRole('alert').textContent();
  expect(invalid).toBeTruthy();
  await expect(page.getByRole('tab')).toHaveCount(2);
});

test('password login is offered in Chinese only, and the demo account can use it', async ({ page }) => {
  await page.goto('/account/login?redirectUrl=%2Fdownload');
  await expect(page.getByRole('tab')).toHaveCount(3);
  await page.getByRole('tab', { name: '密码登录' }).click();
  await page.getByRole('checkbox').check();
  await page.locator('input[name="account"]').fill('13800000000');
  await page.locator('input[name="password"]').fill('wrong password');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('账号或密码错误。');
});

test('redirectUrl never leaves the site', async ({ page }) => {
  await page.goto(`/en/account/login?redirectUrl=${encodeURIComponent('//evil.example/phish')}`);
  await registerBySms(page, newPhone());
  await expect(page).toHaveURL(/\/en\/account\/center\/info$/);
});

test('quick login says plainly that it is not configured', async ({ page }) => {
  await page.goto('/en/account/login');
  await page.getByRole('tab', { name: 'Quick login' }).click();
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Steam' }).click();
  await expect(page.getByRole('alert')).toHaveText('Steam sign-in is not configured on this server yet. Please use SMS login.');
});
