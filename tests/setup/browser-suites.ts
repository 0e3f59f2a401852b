/**
 * The browser tests and the deployment test at once, as `npm test` runs them
 * (`npm run test:browsers`): the site is built once (tests/e2e/setup.ts), then
 * both Playwright runs start together. The deployment test spends most of its
 * time waiting out the faults it makes (a database away for seconds, Redis
 * for half a minute, an instance frozen), which the browser tests fill; run
 * one after the other they would leave the machine idle that long. Each run's
 * lines are prefixed with its name; the exit status is the first failure's.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

const root = path.resolve(import.meta.dirname, '../..');
const node = process.execPath;
const playwright = path.join(root, 'node_modules/.bin/playwright');

const setup = spawnSync(node, [path.join(root, 'tests/e2e/setup.ts')], { cwd: root, stdio: 'inherit' });
if (setup.status !== 0) process.exit(setup.status ?? 1);

/** Runs Playwright with `args`, each line of its output prefixed with `name`; resolves to its exit status. */
function run(name: string, args: string[]): Promise<number> {
  const child = spawn(playwright, ['test', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
  }
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const statuses = await Promise.all([run('browser', []), run('deployment', ['-c', 'tests/production/playwright.config.ts'])]);
process.exit(statuses.find((status) => status !== 0) ?? 0);
