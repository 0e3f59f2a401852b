import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  // The site's `@/` alias (tsconfig.json); `#contract/*` resolves through package.json's imports.
  resolve: { alias: { '@/': fileURLToPath(new URL('./src/', import.meta.url)) } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    // The scale-out tests need the PostgreSQL and Redis that `npm run test:scale-out` starts for them.
    exclude: [...configDefaults.exclude, ...(process.env.TEST_REDIS_URL ? [] : ['tests/integration/scale-out/**'])],
    environment: 'node',
    // Integration tests start a real database and server on a 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
