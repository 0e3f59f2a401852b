/**
 * A page as a reader sees it, before anything checks it: `settled`. And what
 * every page with an island must pass, in both themes: axe with no serious
 * finding, and no horizontal overflow at 1440 px and 320 px.
 */
import { expect, type Page } from '@playwright/test';
import { seriousAxeProblems } from './axe.ts';
import { overflowOf } from './overflow.ts';

/**
 * Waits until the page has loaded, every island that does not wait to be
 * scrolled to has hydrated (Astro drops an island's `ssr` attribute then), and
 * no hydrated island still shows that it is loading its data (`data-loading`;
 * one not scrolled to yet shows its server render until it is). An island that
 * never gets there fails the test that waits.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.waitForFunction(
    () =>
      !document.querySelector('astro-island[ssr]:not([client="visible"])') &&
      ![...document.querySelectorAll('[data-loading]')].some((loading) => !loading.closest('astro-island[ssr]')),
  );
}

/** Waits until the page has taken `theme` (the theme left on auto follows the system's, as a new visitor's does). */
export const themeTaken = (page: Page) => (theme: 'light' | 'dark') =>
  expect(page.locator('body')).toHaveClass(theme === 'dark' ? /body-warp-dark/ : /^(?!.*body-warp-dark)/);

/**
 * Nothing sideways and no serious axe finding on the page as it is, in the light theme and the dark one
 * (axe only in `axeIn`, where a test shares its themes out); `inTheme` checks more once each theme is set.
 */
export async function fitsInBothThemes(
  page: Page,
  { axeIn = ['light', 'dark'], inTheme }: { axeIn?: Array<'light' | 'dark'>; inTheme?: (theme: 'light' | 'dark') => Promise<void> } = {},
): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await inTheme?.(theme);
    expect(await overflowOf(page), `${page.url()} in the ${theme} theme`).toEqual({ page: 0, elements: [] });
    if (axeIn.includes(theme)) expect(await seriousAxeProblems(page), `${page.url()} in the ${theme} theme`).toEqual([]);
  }
}

/**
 * The pages (each with a selector that shows when it is ready, and one to
 * scroll into view first for an island that loads when seen) and what is
 * wrong with them; an empty list when nothing is.
 */
export async function pageProblems(page: Page, pages: Array<{ url: string; ready: string; reveal?: string }>): Promise<string[]> {
  const problems: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const { url, ready, reveal } of pages) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(url);
      if (reveal) await page.locator(reveal).scrollIntoViewIfNeeded();
      await expect(page.locator(ready).first()).toBeVisible();
      await settled(page);
      problems.push(...(await seriousAxeProblems(page)).map((problem) => `${url} (${theme}): ${problem}`));
      for (const width of [1440, 320]) {
        await page.setViewportSize({ width, height: 900 });
        const overflow = await overflowOf(page);
        if (overflow.page > 0 || overflow.elements.length) problems.push(`${url} @${width}px: page +${overflow.page}px; ${overflow.elements.join(', ')}`);
      }
    }
  }
  return problems;
}
