/**
 * A production host's install works (issue 44, point 9): the release installed
 * with `npm ci --omit=dev` (./install.ts) holds no development package, runs
 * Node 24 from its `node` dependency, starts an instance as
 * deploy/systemd/beacon-api@.service does — its ExecStart, WorkingDirectory and
 * Environment with /srv/beacon being the release — in production mode, and the
 * operators' command (`npm run admin`) works in it with the server up and down.
 */
import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { productionSettings } from '../integration/production-settings.ts';
import { installRelease } from './install.ts';
import { startReleaseInstance } from './release-instance.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

test('the release installed with npm ci --omit=dev starts a production instance from the unit file, and npm run admin works in it', async () => {
  // A first install runs npm ci (from npm's cache when it holds the packages); later runs reuse it.
  test.setTimeout(300_000);
  const started = Date.now();
  const release = await installRelease(root);
  console.log(`  · the release is in ${release} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  const { dependencies } = JSON.parse(readFileSync(path.join(release, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const { stdout: version } = await run(path.join(release, 'node_modules/.bin/node'), ['--version']);
  expect(version.trim()).toBe(`v${dependencies.node}`);

  const instance = await startReleaseInstance(release, productionSettings);
  const { settings } = instance;

  try {
    expect((await (await fetch(`${instance.origin}/api/ready`)).json()) as unknown).toMatchObject({ data: { Database: 'up', Jobs: 'up' } });
    expect((await fetch(`${instance.origin}/en/`)).status).toBe(200);

    // As an operator runs it on the host: npm run admin in the release folder, with the instances' settings.
    const admin = async (...words: string[]) =>
      (await run('npm', ['run', '--silent', 'admin', '--', ...words], { cwd: release, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...settings } }))
        .stdout;
    expect(await admin('product', 'list')).toContain('No products yet.');

    expect(await instance.stop(), instance.output()).toBe(0);
    // With no server up, the command opens the database itself.
    expect(await admin('users', 'list')).toContain('No users.');
  } finally {
    instance.remove();
  }
});
