import { defineConfig } from '@playwright/test';
import browserTests from '../../playwright.config.ts';

/**
 * The deployment test (`npm run test:production`): one worker, its steps in
 * order, against the deployment its spec starts (./deployment.ts) — no web
 * server of Playwright's own — then the deployment's edges (TLS, Host names,
 * the systemd sandbox), and the production install (`npm ci --omit=dev`) it
 * runs from; and nginx with instances that stop answering. Same Chromium as
 * the browser tests.
 */
export default defineConfig({
  testDir: '.',
  testMatch: ['deployment.spec.ts', 'hardening.spec.ts', 'release.spec.ts', 'nginx-failover.spec.ts'],
  workers: 1,
  // A test that fails once has failed: a retry would turn a flake into a pass.
  retries: 0,
  reporter: [['list']],
  timeout: 120_000,
  use: { locale: 'en-US', launchOptions: browserTests.use?.launchOptions },
});
