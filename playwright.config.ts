import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4399);

/** Browser tests run the real one-process server on the built site, in the system Chromium. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
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
    env: { PORT: String(port), LOG_LEVEL: 'warn' },
    url: `http://localhost:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
