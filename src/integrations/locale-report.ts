/**
 * At the end of a build, one line per locale: the pages built for it and its
 * translation status (pages and interface strings done / outdated /
 * missing), so CI's output shows each locale's state beside its browser
 * checks (tests/e2e/locale-reporter.ts).
 */
import type { AstroIntegration } from 'astro';
import { localeSegment, sourceLocale } from '#contract/locales.ts';
import { localeCodes } from '../lib/editorial/content-files.ts';
import { countsText, translationStatus } from '../lib/editorial/status.ts';

export function localeReport(): AstroIntegration {
  return {
    name: 'locale-report',
    hooks: {
      'astro:build:done': ({ pages, logger }) => {
        const segments = new Map(localeCodes.filter((code) => code !== sourceLocale).map((code) => [localeSegment(code), code]));
        const built = new Map(localeCodes.map((code) => [code, 0]));
        for (const { pathname } of pages) {
          const code = segments.get(pathname.split('/')[0]) ?? sourceLocale;
          built.set(code, built.get(code)! + 1);
        }
        const { summary } = translationStatus();
        const lines = localeCodes.map((code) => {
          const state = code === sourceLocale ? 'the source' : `pages ${countsText(summary[code].pages)}; strings ${countsText(summary[code].strings)}`;
          return `  ${code.padEnd(6)} ${String(built.get(code)).padStart(4)} pages built; translation: ${state}`;
        });
        logger.info(`Per locale:\n${lines.join('\n')}`);
      },
    },
  };
}
