import { expect, test, type APIRequestContext } from '@playwright/test';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { overflowOf } from './overflow.ts';
import { settled } from './page-checks.ts';
import { localizePath, locales, routes } from './routes.ts';
import { signInAsDemo } from './session.ts';

/** The narrowest phones in use, and the common one. */
const widths = [320, 390];

/** Whether a page, as the server sends it, has an island outside the site header: what it shows may depend on who is logged in. */
async function hasOwnIsland(request: APIRequestContext, url: string): Promise<boolean> {
  const html = await (await request.get(url)).text();
  return /<astro-island\b/.test(html.replace(/<header\b[^>]*\bsite-header\b[\s\S]*?<\/header>/, ''));
}

/**
 * The routes a walk measures. A visitor: all but the account centre, which is
 * the login page then (a route of its own). A customer: the account centre,
 * every page with an island of its own (forms, entries, their orders), and
 * the first other page with the site header, for the customer's badge; the
 * rest look as they do to a visitor but for that same header.
 */
async function walk(request: APIRequestContext, locale: LocaleCode, signedIn: boolean) {
  if (!signedIn) return routes.filter((route) => !route.login);
  const island = await Promise.all(routes.map((route) => hasOwnIsland(request, localizePath(locale, route.path))));
  const header = routes.find((route, n) => !route.login && !island[n] && route.chrome !== false);
  return routes.filter((route, n) => route.login || island[n] || route === header);
}

// Every route in every locale, as a visitor and as a customer: nothing may stick out sideways.
for (const locale of locales) {
  for (const signedIn of [false, true]) {
    test(`no route overflows a phone in ${locale.code}${signedIn ? ', logged in' : ''}`, async ({ page, request }) => {
      test.slow();
      if (signedIn) await signInAsDemo(page);
      const problems: string[] = [];
      for (const route of await walk(request, locale.code, signedIn)) {
        const url = localizePath(locale.code, route.path);
        await page.setViewportSize({ width: widths[widths.length - 1], height: 800 });
        await page.goto(url);
        await settled(page);
        // The logged-in header fills in after load: it is measured with the customer's badge, which must come.
        if (signedIn && route.chrome !== false) await expect(page.locator('[data-session-badge]'), url).toBeVisible();
        for (const width of widths.toReversed()) {
          await page.setViewportSize({ width, height: 800 });
          const overflow = await overflowOf(page);
          if (overflow.page > 0 || overflow.elements.length) problems.push(`${url} @${width}px: page +${overflow.page}px; ${overflow.elements.join(', ')}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
}

// Issue 29, point 14: the spinner's 500 ms count from navigation, on every page whose island loads, even when its script is slow to come
// (issue 47: the profile and the cloud-idling page too).
for (const path of ['/en/accelerate', '/en/activate/cdkey', '/en/account/center/wallet', '/en/account/center/info', '/en/account/center/steam/cloudidea']) {
  test(`${path}: the loading spinner shows once loading has lasted 500 ms since navigation, and goes when the island renders`, async ({ page }) => {
    // A signed-out visitor sees a sign-in prompt on these, with the island hidden: there is nothing to wait for.
    if (path !== '/en/accelerate') await signInAsDemo(page);
    let release = () => {};
    const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_astro/*.js', async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goto(path, { waitUntil: 'commit' });
    const spinner = page.locator('[data-page-spinner]').first();
    await page.waitForFunction(() => {
      const element = document.querySelector('[data-page-spinner]');
      return element !== null && getComputedStyle(element).visibility === 'visible';
    });
    expect(await page.evaluate(() => performance.now())).toBeGreaterThanOrEqual(500);
    await expect(spinner).toBeVisible();
    release();
    await settled(page);
    await expect(page.locator('[data-page-spinner]')).toHaveCount(0);
  });
}

// A long line of code scrolls inside its block: the page keeps the phone's width (issue 29, point 25).
test('a long code line scrolls inside its block, not the page, at 320 and 390 px in both themes', async ({ page }) => {
  const problems: string[] = [];
  for (const locale of locales) {
    const url = localizePath(locale.code, '/article/verify-downloads');
    await page.setViewportSize({ width: widths[widths.length - 1], height: 800 });
    await page.goto(url);
    await settled(page);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const width of widths) {
        await page.setViewportSize({ width, height: 800 });
        const overflow = await overflowOf(page);
        if (overflow.page > 0 || overflow.elements.length)
          problems.push(`${url} @${width}px (${theme}): page +${overflow.page}px; ${overflow.elements.join(', ')}`);
        // The article has a line longer than a phone: its block scrolls, so the check above saw it.
        const scrolls = await page.locator('.prose pre').evaluateAll((blocks) => blocks.some((pre) => pre.scrollWidth > pre.clientWidth));
        if (!scrolls) problems.push(`${url} @${width}px: no code block is wider than the screen`);
      }
    }
  }
  expect(problems).toEqual([]);
});

// The main menu is one line on a 1280 px screen in every locale (Russian's is the longest).
test('the main navigation fits on one line at 1280 px in every locale', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const wrapped: string[] = [];
  for (const locale of locales) {
    await page.goto(localizePath(locale.code, '/download'));
    const tops = await page.locator('.main-nav li').evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
    if (new Set(tops).size !== 1) wrapped.push(`${locale.code}: ${new Set(tops).size} lines`);
  }
  expect(wrapped).toEqual([]);
});
