/**
 * Runs the API integration suite a second time against a real PostgreSQL
 * server (Debian's, installed and started by ./postgres.ts), so the one
 * migration set and every query are proven on both PGlite and PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { startPostgres } from './postgres.ts';

const root = path.resolve(import.meta.dirname, '../..');
const server = await startPostgres();
console.log(`PostgreSQL for the API suite: ${server.url}`);
const result = spawnSync(path.join(root, 'node_modules/.bin/vitest'), ['run', 'tests/integration/api'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_POSTGRES_URL: server.url },
});
await server.stop();
process.exit(result.status ?? 1);
