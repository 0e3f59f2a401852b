import { defineConfig } from '@playwright/test';
import { e2eDataDir, e2ePort as port } from './tests/e2e/server-place.ts';

/** Browser tests run the real one-process server on the built site, in the system Chromium. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  // A test that fails once has failed: a retry would turn a flake into a pass.
  retries: 0,
  reporter: [['list'], ['./tests/e2e/locale-reporter.ts']],
  timeout: 60_000,
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'zh-CN',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    { name: 'site', testIgnore: /server-wide\.spec\.ts$/ },
    // What switches something for the whole shared server (maintenance pauses every payment) runs
    // alone, after every other test: a test paying meanwhile would meet it.
    { name: 'server-wide', testMatch: /server-wide\.spec\.ts$/, dependencies: ['site'] },
  ],
  webServer: {
    command: 'node server/main.ts',
    // The browser tests get their own in-memory database and keys, and every test comes from
    // 127.0.0.1, so the per-address login limit is raised; the accounts tests make through the API
    // come through a "proxy" from addresses of their own (session.ts `signInFresh`), as new users
    // do, so the daily SMS limit per address holds.
    env: {
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: 'memory://',
      DATA_DIR: e2eDataDir,
      IDENTITY_RATE_LIMIT_PER_MINUTE: '1000',
      // Nor does a code from 127.0.0.1 need a proof of work (login.spec.ts runs a server of its own that asks for one).
      CODE_CHALLENGE_TARGETS_PER_HOUR: '100000',
      CODE_CHALLENGE_CODES_PER_HOUR: '100000',
      CODE_CHALLENGE_SHOP_CODES_PER_HOUR: '100000',
      TRUST_PROXY: 'true',
    },
    // The readiness check answers once the server has started and its database answers.
    url: `http://localhost:${port}/api/ready`,
    reuseExistingServer: false,
    // Playwright needs a limit; this one is far beyond a start on a busy machine (seconds), so only a stuck start meets it.
    timeout: 300_000,
  },
});
