/**
 * Runs the editor's checks (src/lib/editorial/checks.ts) where editors work:
 * `npm run build` stops before building anything when content/ has a
 * problem, listing each with its file, line and what to write instead;
 * `astro dev` prints them in its terminal at start and again whenever a file
 * under content/ changes.
 */
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import { checkContent, formatProblem, type Problem } from '../lib/editorial/checks.ts';

const summary = (problems: Problem[]) =>
  `content/ has ${problems.length} problem${problems.length === 1 ? '' : 's'} to fix:\n${problems.map((problem) => `  ${formatProblem(problem)}`).join('\n')}`;

export function editorialChecks(): AstroIntegration {
  return {
    name: 'editorial-checks',
    hooks: {
      'astro:config:setup': ({ command }) => {
        if (command !== 'build') return;
        const problems = checkContent();
        if (problems.length) throw new Error(summary(problems));
      },
      'astro:server:setup': ({ server, logger }) => {
        const report = () => {
          const problems = checkContent();
          if (problems.length) logger.error(summary(problems));
        };
        report();
        const contentFolder = `${path.sep}content${path.sep}`;
        for (const event of ['add', 'change', 'unlink'] as const) server.watcher.on(event, (file: string) => file.includes(contentFolder) && report());
      },
    },
  };
}
