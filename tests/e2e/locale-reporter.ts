/**
 * A Playwright reporter that, at the end of a run, prints one line per locale
 * with its browser checks passed, failed and skipped, so CI's output shows
 * each locale's result beside the build's per-locale lines. A test belongs to
 * the locale its title names as the test titles name one: first ("ja: …")
 * or last after "in" ("… in ru", "… in ru, logged in"); the others check
 * every locale at once or none in particular.
 */
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { localeCodes } from '#contract/locales.ts';

type Outcome = 'passed' | 'failed' | 'skipped';

/** The locale a test's titles name ("it: …" is Italian; "… points to it" is not). */
function localeOf(titles: string[]): string {
  return localeCodes.find((code) => titles.some((title) => title.startsWith(`${code}: `) || new RegExp(`\\bin ${code}(,|$)`).test(title))) ?? 'any';
}

export default class LocaleReporter implements Reporter {
  readonly #counts = new Map<string, Record<Outcome, number>>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const locale = localeOf(test.titlePath());
    const counts = this.#counts.get(locale) ?? { passed: 0, failed: 0, skipped: 0 };
    counts[result.status === 'passed' ? 'passed' : result.status === 'skipped' ? 'skipped' : 'failed']++;
    this.#counts.set(locale, counts);
  }

  onEnd(): void {
    const lines = [...localeCodes, 'any'].flatMap((locale) => {
      const counts = this.#counts.get(locale);
      if (!counts) return [];
      const label = locale === 'any' ? 'no locale' : locale;
      return [`  ${label.padEnd(9)} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`];
    });
    console.log(`\nBrowser checks per locale:\n${lines.join('\n')}`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
