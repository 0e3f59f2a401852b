/**
 * An island whose files do not come: it says so in the reader's language and offers a reload,
 * the spinner never keeps the rest of the page from being used, a new deployment's missing
 * files reload the page once (never in a loop), and the page's loading ends only once its
 * islands have started (src/components/island-loading.ts, src/stores/loading.ts).
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { identity } from '#contract/identity.ts';
import { chunkLoadTimeoutMs } from '../../src/stores/loading.ts';
import { seriousAxeProblems } from './axe.ts';
import { overflowOf } from './overflow.ts';
import { settled } from './page-checks.ts';
import { say } from './routes.ts';
import { signInAsDemo } from './session.ts';

/** The acceleration page's island: its component's file, with Astro's retry query when it asks again. */
const statusBoardFile = /\/_astro\/StatusBoard\.[\w-]+\.js(\?.*)?$/;

/** Holds back every request for the island's file until released. */
async function holdBack(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(statusBoardFile, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Counts the page's own loads (the first one and every reload). */
function countLoads(page: Page): () => number {
  let loads = 0;
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loads += 1;
  });
  return () => loads;
}

const spinnerShows = (page: Page) =>
  page.waitForFunction(() => {
    const spinner = document.querySelector('[data-page-spinner]');
    return spinner !== null && getComputedStyle(spinner).visibility === 'visible';
  });

test('an island whose script fails says so in Japanese, names the file, and loads again with Reload once the file is there', async ({ page }) => {
  await page.route(statusBoardFile, (route) => route.abort('connectionfailed'));
  await page.goto('/ja/accelerate');
  const failure = page.getByRole('alert');
  await expect(failure).toContainText(say('ja', 'common.islandFailed'));
  await expect(failure).toContainText(/スクリプト：StatusBoard\.[\w-]+\.js/);
  // The spinner and the loading line went with the rest of the fallback.
  await expect(page.locator('[data-page-spinner]')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: say('ja', 'common.loading') })).toHaveCount(0);
  // Read as any part of the page is: no serious accessibility problem, nothing sticking out on the narrowest phone.
  expect(await seriousAxeProblems(page)).toEqual([]);
  await page.setViewportSize({ width: 320, height: 800 });
  expect(await overflowOf(page)).toEqual({ page: 0, elements: [] });

  await page.unroute(statusBoardFile);
  await failure.getByRole('button', { name: say('ja', 'common.reload') }).click();
  await settled(page);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('astro-island[data-island-failed]')).toHaveCount(0);
});

test('a stylesheet that fails is reported in Russian above the island, which still runs', async ({ page }) => {
  await page.route(/\/_astro\/Header\.[\w-]+\.css$/, (route) => route.abort('connectionfailed'));
  await page.goto('/ru/accelerate');
  await settled(page);
  const failure = page.getByRole('alert');
  await expect(failure).toContainText(say('ru', 'common.islandFailed'));
  await expect(failure).toContainText(/Таблица стилей: Header\.[\w-]+\.css/);
  await expect(failure.getByRole('button', { name: say('ru', 'common.reload') })).toBeVisible();
  // Outside the island, so the island's own render did not take it away.
  await expect(page.locator('astro-island [data-island-failure]')).toHaveCount(0);
});

test('while an island’s script is held back, the spinner shows and the header’s and footer’s links still work', async ({ page }) => {
  await holdBack(page);
  await page.goto('/en/accelerate', { waitUntil: 'commit' });
  await spinnerShows(page);
  await page
    .locator('header.site-header')
    .getByRole('link', { name: say('en', 'nav.download'), exact: true })
    .click({ timeout: 10_000 });
  await expect(page).toHaveURL(/\/en\/download$/);

  await page.goto('/en/accelerate', { waitUntil: 'commit' });
  await spinnerShows(page);
  await page
    .locator('footer.site-footer')
    .getByRole('link', { name: say('en', 'footer.contact'), exact: true })
    .click({ timeout: 10_000 });
  await expect(page).toHaveURL(/\/en\/contact$/);
});

test('an island whose script has not arrived after the time-out says so', async ({ page }) => {
  // The page's clock stands still from its start, so the time-out counts only the time the test moves it on.
  await page.clock.install({ time: 0 });
  await page.clock.pauseAt(1_000);
  await holdBack(page);
  await page.goto('/en/accelerate', { waitUntil: 'domcontentloaded' });
  const failure = page.getByRole('alert');
  await page.clock.fastForward(chunkLoadTimeoutMs - 1_000);
  await expect(failure).toHaveCount(0);
  await page.clock.fastForward(1_000);
  await expect(failure).toContainText(say('en', 'common.islandFailed'));
  await expect(failure).toContainText(/Script: StatusBoard\.[\w-]+\.js/);
});

test('a file a new deployment removed reloads the page once, and the page works', async ({ page }) => {
  const loads = countLoads(page);
  // The page's first version names a file the server no longer has; the reloaded page gets the file.
  await page.route(statusBoardFile, (route: Route) => (loads() < 2 ? route.fulfill({ status: 404 }) : route.continue()));
  await page.goto('/en/accelerate');
  await expect.poll(loads).toBe(2);
  await settled(page);
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(loads()).toBe(2);
});

test('a file still missing after that reload is reported, with no second reload', async ({ page }) => {
  const loads = countLoads(page);
  await page.route(statusBoardFile, (route) => route.fulfill({ status: 404 }));
  await page.goto('/en/accelerate');
  // The message shows only where a reload was refused: the page has loaded twice, and stays.
  await expect(page.getByRole('alert')).toContainText(say('en', 'common.islandFailed'));
  expect(loads()).toBe(2);
});

/** The paths of the pages on which the header asked the server for the user info, as it does to refresh a login. */
function userInfoRefreshes(page: Page): string[] {
  const refreshed: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith(`/api${identity.refreshUserInfo.path}`)) refreshed.push(new URL(page.url()).pathname);
  });
  return refreshed;
}

test('the header refreshes the login only once the page’s islands have started', async ({ page }) => {
  await signInAsDemo(page);
  const refreshed = userInfoRefreshes(page);
  const release = await holdBack(page);
  await page.goto('/en/accelerate');
  await spinnerShows(page);
  // Two idle periods of the page have passed: a refresh waiting only for the page to be idle would have started.
  await page.evaluate(() => new Promise((done) => requestIdleCallback(() => requestIdleCallback(done))));
  expect(refreshed).toEqual([]);
  release();
  await settled(page);
  await expect.poll(() => refreshed).toEqual(['/en/accelerate']);
});

test('on a page without islands, the header refreshes the login once the page has loaded', async ({ page }) => {
  await signInAsDemo(page);
  const refreshed = userInfoRefreshes(page);
  await page.goto('/en/faq');
  await expect.poll(() => refreshed).toEqual(['/en/faq']);
});
