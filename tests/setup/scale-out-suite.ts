/**
 * The deployment of several instances, tested as it runs: the API integration
 * files whose outcome depends on the database a second time against a real
 * PostgreSQL server (so the one migration set, every query, lock and race is
 * proven on both PGlite and PostgreSQL), and the scale-out tests — two app
 * instances sharing PostgreSQL and Redis. Both servers are Debian's, installed
 * and started by ./postgres.ts and ./redis.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startPostgres } from './postgres.ts';
import { startRedis } from './redis.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Money, keys, raffles, reviews, sessions and accounts: transactions, row locks,
 * unique indexes and parallel races, which PostgreSQL runs with real
 * concurrency where PGlite has one connection. The other API files (the
 * contract's checks, hostile input refused before any query, the store, status
 * and game-list calls) prove nothing more a second time.
 */
const databaseSensitive = [
  'account',
  'activation',
  'admin',
  'agreements',
  'alipay',
  'bindorder',
  'commerce',
  'dashboard',
  'device-login',
  'donation',
  'identity',
  'message-faults',
  'operators',
  'payment-faults',
  'console',
  'plugins',
  'quick-login',
  'raffle',
  'raffle-messages',
  'refunds',
  'server-keys',
].map((name) => `tests/integration/api/${name}.test.ts`);
// A file renamed away must not quietly leave the PostgreSQL run.
for (const file of databaseSensitive) if (!existsSync(path.join(root, file))) throw new Error(`${file} is listed as database-sensitive but does not exist`);
const postgres = await startPostgres();
const redis = await startRedis();
console.log(`PostgreSQL: ${postgres.url}\nRedis: ${redis.url}`);
const result = spawnSync(path.join(root, 'node_modules/.bin/vitest'), ['run', ...databaseSensitive, 'tests/integration/scale-out'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_POSTGRES_URL: postgres.url, TEST_REDIS_URL: redis.url },
});
await redis.stop();
await postgres.stop();
process.exit(result.status ?? 1);
