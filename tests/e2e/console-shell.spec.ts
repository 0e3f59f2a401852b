/**
 * Issue 49, point 1: the console's own shell. No public header, menu or
 * footer; a side menu of only the areas the operator's role opens, who is
 * signed in, sign-out, language and theme — behind a button on a phone (a
 * disclosure the keyboard works: Escape closes it and gives focus back), a
 * column of its own on a wide screen; a skip link to the area; nothing
 * sideways and no serious axe finding in either theme. And the warning a
 * minute before the idle end: the page's clock is moved on (Playwright's
 * clock), "stay" makes a call and keeps the session, and letting the time run
 * out sends the page to sign-in with a notice. (That the call "stay" makes
 * refreshes the server's last use is tests/integration/api/console.test.ts.)
 */
import { expect, test, type Page } from '@playwright/test';
import type { OperatorRole } from '#contract/admin.ts';
import { consoleSessionLimits, roleIncludes } from '#contract/console.ts';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { consoleAreas } from '../../src/lib/console-areas.ts';
import { signInToConsole } from './console-sign-in.ts';
import { seriousAxeProblems } from './axe.ts';
import { fitsInBothThemes, settled, themeTaken } from './page-checks.ts';
import { localizePath, say } from './routes.ts';

/** The areas a role opens, in the menu's order. */
const openTo = (role: OperatorRole) => consoleAreas.filter((area) => roleIncludes(role, area.role));
/** Their names, as the menu lists them. */
const areasOf = (role: OperatorRole, locale: LocaleCode) => openTo(role).map((area) => say(locale, area.key));

/** Nothing sideways and nothing serious for axe, in the light theme and the dark one. */
const looksRight = (page: Page) => fitsInBothThemes(page, { inTheme: themeTaken(page) });

const menuOf = (page: Page) => page.locator('[data-console-menu]');
const toggleOf = (page: Page) => page.locator('[data-console-menu-toggle]');

for (const role of ['support', 'admin'] as const) {
  test(`on a phone, the ${role}'s menu waits behind a button the keyboard opens and Escape closes, listing only the role's areas`, async ({
    page,
  }, testInfo) => {
    test.slow();
    await page.setViewportSize({ width: 390, height: 844 });
    const locale: LocaleCode = 'ja';
    await signInToConsole(page, role, locale);
    await expect(page.locator('.site-header, .site-footer, .main-nav')).toHaveCount(0);
    const toggle = toggleOf(page);
    const menu = menuOf(page);
    await expect(toggle).toBeVisible();
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAccessibleName(say(locale, 'console.nav.menu'));
    await looksRight(page);

    // The keyboard, from the top of a fresh page: the skip link first, to the area; then the name, then the menu's button.
    await page.reload();
    await expect(page.locator('[data-console-who]')).toBeAttached();
    await page.keyboard.press('Tab');
    await expect(page.locator('.skip-link')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('#main')).toBeFocused();
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(menu).toBeVisible();
    const links = menu.locator('[data-console-menu-areas] a');
    await expect(links).toHaveText(areasOf(role, locale));
    await expect(links.first()).toHaveAttribute('aria-current', 'page');
    await expect(menu.locator('[data-console-who]')).toContainText(say(locale, `console.role.${role}`));
    await expect(menu.getByRole('button', { name: say(locale, 'console.signOut') })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(links.first()).toBeFocused();
    if (role === 'support') {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.screenshot({ path: testInfo.outputPath('shell-ja-390-light-menu-open.png') });
    }
    await looksRight(page);
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();

    // Space opens it again, and Escape on the button closes it too; choosing an area goes there, the menu closed.
    await page.keyboard.press(' ');
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await page.keyboard.press(' ');
    await expect(menu).toBeVisible();
    const last = openTo(role).at(-1)!;
    await menu.getByRole('link', { name: say(locale, last.key), exact: true }).press('Enter');
    await expect(page).toHaveURL(new RegExp(`${localizePath(locale, last.path)}$`));
    await expect(page.locator('[data-console-who]')).toBeAttached();
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu.locator('[data-console-menu-areas] a[aria-current="page"]')).toHaveText(say(locale, last.key));
    await looksRight(page);
  });
}

test('on a wide screen the menu is a column beside the area; the language and theme controls work there', async ({ page }, testInfo) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  const locale: LocaleCode = 'ru';
  await signInToConsole(page, 'support', locale);
  await expect(page.locator('.site-header, .site-footer, .main-nav')).toHaveCount(0);
  await expect(toggleOf(page)).toBeHidden();
  const menu = menuOf(page);
  await expect(menu.locator('[data-console-menu-areas] a')).toHaveText(areasOf('support', locale));
  const column = await page.locator('.console-side').boundingBox();
  const main = await page.locator('#main').boundingBox();
  expect(column).toMatchObject({ x: 0, y: 0, height: 900 });
  expect(main!.x).toBeGreaterThanOrEqual(column!.width);
  // The column stays where it is while a long area scrolls.
  await page.evaluate(() => document.getElementById('main')!.append(Object.assign(document.createElement('div'), { id: 'tall', style: 'height: 3000px' })));
  await page.mouse.wheel(0, 1500);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  expect((await page.locator('.console-side').boundingBox())?.y).toBe(0);
  await page.evaluate(() => {
    document.getElementById('tall')!.remove();
    window.scrollTo(0, 0);
  });
  await looksRight(page);

  // The theme by the keyboard: the dark one chosen stays chosen whatever the system's.
  await page.emulateMedia({ colorScheme: 'light' });
  await menu.locator('input[name="theme"][value="dark"]').check();
  await expect(page.locator('body')).toHaveClass(/body-warp-dark/);
  await page.screenshot({ path: testInfo.outputPath('shell-ru-1440-dark.png') });
  await menu.locator('input[name="theme"][value="auto"]').check();

  // Another language: the same area, still signed in.
  await menu.locator('[data-language-switcher] summary').click();
  await menu.locator('[data-language-switcher] a[data-locale="en"]').click();
  await expect(page).toHaveURL(/\/en\/admin$/);
  await expect(menu.locator('[data-console-menu-areas] a')).toHaveText(areasOf('support', 'en'));
});

test('a minute before the idle end the console warns; "stay" keeps the session, and letting the time run out goes to sign-in with a notice', async ({
  page,
}, testInfo) => {
  test.slow();
  const { idleMs, idleWarningMs, lastUseSlackMs } = consoleSessionLimits;
  await page.setViewportSize({ width: 1440, height: 900 });
  const locale: LocaleCode = 'en';
  const t = (key: string, params?: Record<string, string>) => say(locale, key, params);
  await signInToConsole(page, 'support', locale);
  // An area that calls only when asked, on the page's own clock from its first call on.
  await page.clock.install();
  await page.goto(localizePath(locale, '/admin/orders'));
  await expect(page.locator('[data-console-who]')).toBeVisible();
  // Nothing in flight when the clock jumps: a call's own time limit would end it.
  await settled(page);
  await page.waitForLoadState('networkidle');
  const warning = page.getByRole('alertdialog');
  await expect(warning).toBeHidden();

  // Just before the warning nothing shows; then it does, with the seconds left, its button focused.
  const quiet = idleMs - lastUseSlackMs - idleWarningMs;
  await page.clock.fastForward(quiet - 5_000);
  await page.clock.runFor(2_000);
  await expect(warning).toBeHidden();
  await page.clock.runFor(5_000);
  await expect(warning).toBeVisible();
  await expect(warning).toHaveAccessibleName(t('console.idle.title'));
  await expect(warning).toContainText(/\d+/);
  const stay = warning.getByRole('button', { name: t('console.idle.stay') });
  await expect(stay).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath('shell-idle-warning.png') });
  expect(await seriousAxeProblems(page)).toEqual([]);

  // Staying makes a call; the warning goes, the area stays, and the next warning is a whole idle period on.
  const call = page.waitForRequest((request) => request.url().endsWith('/api/console/session'));
  await page.keyboard.press('Enter');
  await call;
  await expect(warning).toBeHidden();
  await page.clock.runFor(2 * idleWarningMs);
  await expect(warning).toBeHidden();
  await expect(page.locator('[data-console-who]')).toBeVisible();

  // Left alone: the warning again, then the sign-in with a notice.
  await page.clock.runFor(quiet - 2 * idleWarningMs + 2_000);
  await expect(warning).toBeVisible();
  await page.clock.runFor(idleWarningMs);
  await expect(warning).toBeHidden();
  await expect(page.getByRole('heading', { name: t('console.signIn.title') })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(t('console.idle.ended'));
  await expect(page.locator('[data-console-menu-areas]')).toHaveCount(0);
  await expect(page.locator('#main')).toBeFocused();
});
