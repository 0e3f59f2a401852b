/**
 * Quick login in a real browser against the real server and its development
 * identity provider: the Steam reachability check, a first login that proves
 * a phone, a returning identity, linking from the linked-accounts page, and
 * the reasons a login did not finish — in zh-CN, en, ja and ru.
 */
import { expect, test, type Page } from '@playwright/test';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { seriousAxeProblems } from './axe.ts';
import { localizePath, say } from './routes.ts';
import { codeSentBy, newPhone, signInFresh } from './session.ts';

const steamId = () => `7656119${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;

/** Opens the quick tab of the login page, gives the agreement and picks a provider. */
async function chooseProvider(page: Page, locale: LocaleCode, provider: string, path = '/account/login') {
  await page.goto(localizePath(locale, path));
  await page.getByRole('tab', { name: say(locale, 'login.tab.quick') }).click();
  await expect(page.getByRole('button', { name: say(locale, 'login.quickWith', { provider }) })).toBeVisible();
  expect(await seriousAxeProblems(page)).toEqual([]);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: say(locale, 'login.quickWith', { provider }) }).click();
}

/** Signs in at the development provider's page as `name` (and `id`, when given). */
async function signInAtProvider(page: Page, name: string, id?: string) {
  await expect(page).toHaveURL(/\/api\/dev\/idp\//);
  if (id) await page.locator('input[name=id]').fill(id);
  await page.locator('input[name=name]').fill(name);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The phone step after a first quick login: the agreement still ticked from before the provider, the number, the code from the outbox, finish. */
async function provePhone(page: Page, locale: LocaleCode, phone: string) {
  await expect(page.getByRole('checkbox')).toBeChecked();
  await page.locator('input[name=phone]').fill(phone);
  const code = await codeSentBy(page, phone, () => page.getByRole('button', { name: say(locale, 'login.sendCode') }).click());
  await page.locator('input[name=code]').fill(code);
  await page.getByRole('button', { name: say(locale, 'login.pendingPhone.submit') }).click();
}

test('a first Steam login proves a phone, lands on the profile with Steam linked, and the next Steam login is direct (zh-CN)', async ({ page }) => {
  const id = steamId();
  await chooseProvider(page, 'zh-CN', 'Steam');
  await signInAtProvider(page, '戈登', id);
  await expect(page).toHaveURL(/\/account\/login$/);
  await expect(page.getByRole('heading', { name: say('zh-CN', 'login.pendingPhone.title') })).toBeVisible();
  await expect(page.getByText(say('zh-CN', 'login.pendingPhone.intro', { provider: 'Steam', name: '戈登' }))).toBeVisible();
  expect(await seriousAxeProblems(page)).toEqual([]);
  await provePhone(page, 'zh-CN', newPhone());
  await expect(page).toHaveURL(/\/account\/center\/info$/);
  await expect(page.locator('[data-profile]')).toContainText('戈登');

  await page.evaluate(() => localStorage.clear());
  await chooseProvider(page, 'zh-CN', 'Steam', '/account/login?redirectUrl=%2Fdownload');
  await signInAtProvider(page, '戈登', id);
  await expect(page).toHaveURL(/\/download$/);
});

test('a first Xbox login goes back to redirectUrl once the phone is proven; after logging out, Xbox logs in again directly (ja)', async ({ page }) => {
  const phone = newPhone();
  const id = `xbox-${Date.now()}`;
  await chooseProvider(page, 'ja', 'Xbox', '/account/login?redirectUrl=%2Fja%2Fraffle');
  await signInAtProvider(page, 'マスターチーフ', id);
  await provePhone(page, 'ja', phone);
  await expect(page).toHaveURL(/\/ja\/raffle$/);
  const user = await page.evaluate(
    () => JSON.parse(localStorage.getItem('beacon.user')!) as { Phone: string; ExternalAccounts: Array<{ Provider: string; DisplayName: string }> },
  );
  expect(user.Phone).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
  expect(user.ExternalAccounts).toMatchObject([{ Provider: 'microsoft', DisplayName: 'マスターチーフ' }]);

  await page.evaluate(() => localStorage.clear());
  await chooseProvider(page, 'ja', 'Xbox', '/account/login?redirectUrl=%2Fja%2Fdownload');
  await signInAtProvider(page, 'マスターチーフ', id);
  await expect(page).toHaveURL(/\/ja\/download$/);
});

test('QQ is linked from the linked-accounts page, and a cancelled link says so (ru)', async ({ page }) => {
  await signInFresh(page);
  await page.goto('/ru/account/center/bind');
  const qq = page.locator('li[data-provider=qq]');
  await qq.getByRole('button', { name: say('ru', 'account.bind.link') }).click();
  await signInAtProvider(page, 'Пингвин');
  await expect(page).toHaveURL(/\/ru\/account\/center\/bind$/);
  await expect(page.getByRole('status')).toHaveText(say('ru', 'account.bind.linked', { provider: 'QQ' }));
  await expect(qq).toContainText(say('ru', 'account.bind.linkedAs', { name: 'Пингвин' }));

  const steam = page.locator('li[data-provider=steam]');
  await steam.getByRole('button', { name: say('ru', 'account.bind.link') }).click();
  await expect(page).toHaveURL(/\/api\/dev\/idp\//);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/ru\/account\/center\/bind$/);
  await expect(page.getByRole('alert')).toHaveText(say('ru', 'login.external.denied', { provider: 'Steam' }));
});

test('Steam that cannot be reached is said before leaving, with a retry and a way on; a cancelled login says so (en)', async ({ page }) => {
  await page.route('**/steam/check.svg*', (route) => route.abort());
  await chooseProvider(page, 'en', 'Steam');
  await expect(page.getByRole('alert')).toHaveText(say('en', 'login.unreachable', { provider: 'Steam' }));
  await expect(page).toHaveURL(/\/en\/account\/login$/);

  await page.unroute('**/steam/check.svg*');
  await page.getByRole('button', { name: say('en', 'login.retry') }).click();
  await expect(page).toHaveURL(/\/api\/dev\/idp\/steam\/login/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/en\/account\/login$/);
  await expect(page.getByRole('alert')).toHaveText(say('en', 'login.external.denied', { provider: 'Steam' }));
});
