/** What every page with an island must pass, in both themes: axe with no serious finding, and no horizontal overflow at 1440 px and 320 px. */
import { expect, type Page } from '@playwright/test';
import { seriousAxeProblems } from './axe.ts';
import { overflowOf } from './overflow.ts';

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
