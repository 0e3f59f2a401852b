import { defineConfig } from '@playwright/test';
import browserTests from '../../playwright.config.ts';

/**
 * The deployment test (`npm run test:production`): its steps in order, in a
 * worker of their own, against the deployment its spec starts
 * (./deployment.ts) — no web server of Playwright's own — and, in a second
 * worker meanwhile, the deployment's edges (TLS, Host names, the systemd
 * sandbox), the production install (`npm ci --omit=dev`) it runs from, and
 * nginx with stand-in instances that stop answering. The deployment's steps
 * spend most of their time waiting out the faults they make, so the others
 * fit beside them. Same Chromium as the browser tests.
 */
export default defineConfig({
  testDir: '.',
  testMatch: ['deployment.spec.ts', 'hardening.spec.ts', 'release.spec.ts', 'nginx-failover.spec.ts', 'messages.spec.ts'],
  // nginx, installed once before the workers that run it start.
  globalSetup: './global-setup.ts',
  // Each file in one worker, its tests in order (Playwright's default); the deployment's file alone takes the longest.
  workers: 2,
  // A test that fails once has failed: a retry would turn a flake into a pass.
  retries: 0,
  reporter: [['list']],
  timeout: 120_000,
  use: { locale: 'en-US', launchOptions: browserTests.use?.launchOptions },
});
