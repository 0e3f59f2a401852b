/**
 * A production host's install works (issue 44, point 9): the release installed
 * with `npm ci --omit=dev` (./install.ts) holds no development package, runs
 * Node 24 from its `node` dependency, starts an instance as
 * deploy/systemd/beacon-api@.service does — its ExecStart, WorkingDirectory and
 * Environment with /srv/beacon being the release — in production mode, and the
 * operators' command (`npm run admin`) works in it with the server up and down.
 */
import { expect, test } from '@playwright/test';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { productionSettings } from '../integration/production-settings.ts';
import { freePort } from '../setup/free-port.ts';
import { installRelease } from './install.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
/** systemd's PATH for a service: nothing of the project's is on it, so the unit must name its Node. */
const systemdPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

test('the release installed with npm ci --omit=dev starts a production instance from the unit file, and npm run admin works in it', async () => {
  // A first install runs npm ci (from npm's cache when it holds the packages); later runs reuse it.
  test.setTimeout(300_000);
  const started = Date.now();
  const release = await installRelease(root);
  console.log(`  · the release is in ${release} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  const { dependencies } = JSON.parse(readFileSync(path.join(release, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const { stdout: version } = await run(path.join(release, 'node_modules/.bin/node'), ['--version']);
  expect(version.trim()).toBe(`v${dependencies.node}`);

  const unit = readFileSync(path.join(release, 'deploy/systemd/beacon-api@.service'), 'utf8');
  const directive = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((match) => match[1].replaceAll('/srv/beacon', release));
  const port = await freePort();
  const data = mkdtempSync(path.join(tmpdir(), 'beacon-instance-data-'));
  const settings = {
    ...productionSettings,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: data,
    DATABASE_URL: `file://${path.join(data, 'db')}`,
    DEMO_DATA: 'false',
    SITE_DIR: path.join(release, 'dist'),
    SITE_URL: `http://127.0.0.1:${port}`,
  };
  const [command, ...args] = directive('ExecStart')[0].split(/\s+/);
  const environment = Object.fromEntries(directive('Environment').map((pair) => pair.replace('%i', String(port)).split('=', 2)));
  const instance = spawn(command, args, { cwd: directive('WorkingDirectory')[0], env: { PATH: systemdPath, ...settings, ...environment } });
  let output = '';
  instance.stdout.on('data', (chunk) => (output += chunk));
  instance.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => instance.on('exit', resolve));

  try {
    // A first start creates the database: no fixed length on a busy machine.
    for (;;) {
      if (instance.exitCode !== null) throw new Error(`The instance ended (${instance.exitCode}) while starting:\n${output}`);
      const answer = await fetch(`http://127.0.0.1:${port}/api/ready`).catch(() => null);
      if (answer?.ok) {
        expect((await answer.json()) as unknown).toMatchObject({ data: { Database: 'up', Jobs: 'up' } });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await fetch(`http://127.0.0.1:${port}/en/`)).status).toBe(200);

    // As an operator runs it on the host: npm run admin in the release folder, with the instances' settings.
    const admin = async (...words: string[]) =>
      (await run('npm', ['run', '--silent', 'admin', '--', ...words], { cwd: release, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...settings } }))
        .stdout;
    expect(await admin('product', 'list')).toContain('No products yet.');

    instance.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    // With no server up, the command opens the database itself.
    expect(await admin('users', 'list')).toContain('No users yet.');
  } finally {
    instance.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  }
});
