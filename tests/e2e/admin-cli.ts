/** The operators' command line, run against the browser tests' server (it finds the running server and asks it). */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { e2eDataDir } from './server-place.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** `npm run admin -- …`; answers what it printed. */
export async function admin(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(path.join(root, 'node_modules/.bin/node'), ['server/cli/admin.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: 'memory://', DATA_DIR: e2eDataDir, LOG_LEVEL: 'warn' },
  });
  return stdout;
}

/** The keys of a new cdkey batch, as `cdkey create` printed them. */
export async function newCdkeys(batch: string, grant: string, count = 1, ...more: string[]): Promise<string[]> {
  const printed = await admin('cdkey', 'create', '--batch', batch, '--count', String(count), '--grants', grant, ...more);
  return printed.match(/^[2-9A-HJ-NP-Z]{5}(-[2-9A-HJ-NP-Z]{5}){3}$/gm) ?? [];
}
