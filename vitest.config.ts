import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// The scale-out tests need the PostgreSQL and Redis that `npm run test:scale-out` starts for them.
const scaleOut = Boolean(process.env.TEST_REDIS_URL);
if (!scaleOut) console.log('tests/integration/scale-out/ is left out: it needs PostgreSQL and Redis, which `npm run test:scale-out` starts for it.');

export default defineConfig({
  // The site's `@/` alias (tsconfig.json); `#contract/*` resolves through package.json's imports.
  resolve: { alias: { '@/': fileURLToPath(new URL('./src/', import.meta.url)) } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(scaleOut ? [] : ['tests/integration/scale-out/**'])],
    environment: 'node',
    // One file more than the cores: the integration tests wait on sockets, child processes and the database as much as they
    // compute, so two files on a 2-core machine left the cores idle an eighth of the time. Measured back to back on 2 cores:
    // 397 s of wall time with 2 files at once, 352 s with 3, the same CPU time (Vitest's default, one fewer than the cores,
    // runs one file at a time there).
    maxWorkers: availableParallelism() + 1,
    // Integration tests start a real database and server on a 2-core machine, three files at once. A shared machine
    // can run them at half its usual speed (a race of 200 redeemers: 10 s alone, over 20 s beside two other files on
    // 8 December 2026): the limits are there to end a test that hangs, not to judge how fast one runs.
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
