import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4399);

/** Browser tests run the real one-process server on the built site, in the system Chromium. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  timeout: 60_000,
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'zh-CN',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    command: 'node server/main.ts',
    // The browser tests get their own in-memory database (the keys are the ones baked into the
    // build), and every test comes from 127.0.0.1, so the per-address login limit is raised; the
    // accounts tests make through the API come through a "proxy" from addresses of their own
    // (session.ts `signInFresh`), as new users do, so the daily SMS limit per address holds.
    env: { PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: 'memory://', IDENTITY_RATE_LIMIT_PER_MINUTE: '1000', TRUST_PROXY: 'true' },
    url: `http://localhost:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
