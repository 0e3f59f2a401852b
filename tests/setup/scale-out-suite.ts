/**
 * The deployment of several instances, tested as it runs: the API integration
 * suite a second time against a real PostgreSQL server (so the one migration
 * set and every query are proven on both PGlite and PostgreSQL), and the
 * scale-out tests — two app instances sharing PostgreSQL and Redis. Both
 * servers are Debian's, installed and started by ./postgres.ts and ./redis.ts.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { startPostgres } from './postgres.ts';
import { startRedis } from './redis.ts';

const root = path.resolve(import.meta.dirname, '../..');
const postgres = await startPostgres();
const redis = await startRedis();
console.log(`PostgreSQL: ${postgres.url}\nRedis: ${redis.url}`);
const result = spawnSync(path.join(root, 'node_modules/.bin/vitest'), ['run', 'tests/integration/api', 'tests/integration/scale-out'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_POSTGRES_URL: postgres.url, TEST_REDIS_URL: redis.url },
});
await redis.stop();
await postgres.stop();
process.exit(result.status ?? 1);
