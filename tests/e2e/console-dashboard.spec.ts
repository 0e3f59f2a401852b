/**
 * The console's dashboard in a browser, on a phone and on a wide screen: a support operator signs in and sees the
 * period's totals as cards and a chart of each figure drawn (a canvas with something on it, and its table for
 * screen readers); switching to 30 and 90 days changes the address and the figures, and a link with the period
 * opens it; a change of theme redraws the charts; nothing sticks out sideways and axe finds nothing serious, in
 * both themes. And uPlot, the charting library, is in no public page's code, only the console's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { seriousAxeProblems } from './axe.ts';
import { signInToConsole } from './console-sign-in.ts';
import { overflowOf } from './overflow.ts';
import { localizePath, say } from './routes.ts';

const sizes = [
  { name: 'phone', viewport: { width: 390, height: 844 }, locale: 'ru' as LocaleCode },
  { name: 'wide screen', viewport: { width: 1440, height: 900 }, locale: 'ja' as LocaleCode },
];

/** The charts' canvases as data URLs, and how many of their pixels are painted. */
const canvases = (page: Page) =>
  page.locator('[data-chart] canvas').evaluateAll((elements) =>
    (elements as HTMLCanvasElement[]).map((canvas) => {
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let painted = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) painted++;
      return { width: canvas.width, painted, image: canvas.toDataURL() };
    }),
  );

/** The rows of the first chart's table for screen readers: one per day of the period. */
const tableRows = (page: Page) => page.locator('[data-chart="accounts"] [data-figures] tbody tr');

for (const size of sizes) {
  test(`a support operator reads the dashboard, switches the period and the theme, on a ${size.name}`, async ({ page }) => {
    test.slow();
    await page.setViewportSize(size.viewport);
    const t = (key: string, params?: Record<string, string>) => say(size.locale, key, params);
    // The operator's own account and codes are today's figures.
    await signInToConsole(page, 'support', size.locale);
    await expect(page.locator('[data-dashboard="7"]')).toBeVisible();
    await expect(page.getByRole('heading', { name: t('console.dashboard.title') })).toBeVisible();
    await expect(page.getByRole('button', { name: t('console.dashboard.days', { days: '7' }) })).toHaveAttribute('aria-pressed', 'true');

    // Seven charts, each drawn at its card's width with something painted; each with a table of its figures.
    await expect(page.locator('[data-chart] canvas')).toHaveCount(7);
    for (const canvas of await canvases(page)) {
      expect(canvas.width).toBeGreaterThan(200);
      expect(canvas.painted).toBeGreaterThan(500);
    }
    await expect(tableRows(page)).toHaveCount(7);
    await expect(page.locator('[data-chart="accounts"] [data-figures] caption')).toHaveText(t('console.dashboard.accounts'));
    expect(Number(await page.locator('[data-total="accounts"] .dashboard-figure').innerText())).toBeGreaterThanOrEqual(1);
    await expect(page.locator('[data-chart="codes"] [data-figures] thead')).toContainText(t('console.dashboard.provider.dev'));
    await expect(page.locator('[data-total="hub"]')).toContainText(t('console.dashboard.hubServers', { servers: '1' }));

    // 30 days: the address keeps it, the figures are the month's.
    await page.getByRole('button', { name: t('console.dashboard.days', { days: '30' }) }).click();
    await expect(page).toHaveURL(/\?days=30$/);
    await expect(page.locator('[data-dashboard="30"]')).toBeVisible();
    await expect(tableRows(page)).toHaveCount(30);
    await expect(page.getByRole('button', { name: t('console.dashboard.days', { days: '30' }) })).toHaveAttribute('aria-pressed', 'true');
    // A link with the period opens it.
    await page.goto(`${localizePath(size.locale, '/admin')}?days=90`);
    await expect(page.locator('[data-dashboard="90"]')).toBeVisible();
    await expect(tableRows(page)).toHaveCount(90);
    await page.getByRole('button', { name: t('console.dashboard.days', { days: '7' }) }).click();
    await expect(page).not.toHaveURL(/days=/);
    await expect(tableRows(page)).toHaveCount(7);

    // Both themes: the charts are drawn anew in the theme's colours; nothing sticks out; axe finds nothing serious.
    let before: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect(page.locator('body')).toHaveClass(theme === 'dark' ? /body-warp-dark/ : /^(?!.*body-warp-dark)/);
      const drawn = (await canvases(page)).map((canvas) => canvas.image);
      if (before.length) expect(drawn.filter((image, index) => image === before[index])).toEqual([]);
      before = drawn;
      expect(await overflowOf(page), `${page.url()} in the ${theme} theme`).toEqual({ page: 0, elements: [] });
      expect(await seriousAxeProblems(page), `${page.url()} in the ${theme} theme`).toEqual([]);
    }

    // The narrowest phone: the charts shrink with their cards, and still nothing sticks out.
    if (size.viewport.width < 400) {
      const wide = (await canvases(page))[0].width;
      await page.setViewportSize({ width: 320, height: 700 });
      await expect.poll(async () => (await canvases(page))[0].width).toBeLessThan(wide);
      expect(await overflowOf(page), `${page.url()} at 320 px`).toEqual({ page: 0, elements: [] });
    }
  });
}

test('the charting library is only in the console’s code: no public page loads it', async () => {
  const dist = 'dist';
  const files = readdirSync(dist, { recursive: true, encoding: 'utf8' });
  const pages = files.filter((file) => file.endsWith('.html'));
  /** A script and every script it imports, statically or on demand. */
  const reached = (start: string, seen: Set<string>) => {
    if (seen.has(start)) return;
    seen.add(start);
    const code = readFileSync(path.join(dist, start), 'utf8');
    for (const [, imported] of code.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+\.js)["']/g))
      reached(path.posix.join(path.posix.dirname(start), imported), seen);
  };
  const scriptsOf = (page: string) => {
    const html = readFileSync(path.join(dist, page), 'utf8');
    const seen = new Set<string>();
    for (const [, url] of html.matchAll(/(?:src|component-url|renderer-url|href)="\/(_astro\/[^"]+\.js)"/g)) reached(url, seen);
    return seen;
  };
  const usesUplot = (script: string) => /uPlot|u-legend/.test(readFileSync(path.join(dist, script), 'utf8'));

  const consolePages = pages.filter((page) => /(^|\/)admin(\/|\.html$)/.test(page));
  const publicPages = pages.filter((page) => !consolePages.includes(page));
  expect(publicPages.length).toBeGreaterThan(100);
  // The dashboard's page does load it (so the check below looks for what is really there).
  expect([...scriptsOf(consolePages.find((page) => /admin\/index\.html$/.test(page))!)].some(usesUplot)).toBe(true);
  const leaks = publicPages.flatMap((page) => [...scriptsOf(page)].filter(usesUplot).map((script) => `${page} → ${script}`));
  expect(leaks).toEqual([]);
});
