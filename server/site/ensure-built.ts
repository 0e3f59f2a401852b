/**
 * Runs before `npm start`: builds the site when dist/ is missing, older than
 * anything it is built from, or baked with another server key or SITE_URL, so
 * a fresh clone needs no separate build step. The server's public key (made here on
 * first run) is baked into the build for the encrypted API calls.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { loadKeys } from '../crypto/keys.ts';

const root = path.resolve(import.meta.dirname, '../..');
const siteDir = path.resolve(root, process.env.SITE_DIR ?? 'dist');
const inputs = ['src', 'contract', 'content', 'public', 'astro.config.mjs', 'package-lock.json'];

function newestMtime(target: string): number {
  const info = statSync(target, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(target, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const config = loadConfig();
const publicKey = loadKeys(path.resolve(root, config.DATA_DIR)).publicSpki;
/** What the build bakes in besides its sources: the key for sealed calls, and the site's address for canonical URLs. */
const baked = JSON.stringify({ publicKey, siteUrl: process.env.SITE_URL ?? '' });
const stamp = path.join(siteDir, '.build-settings.json');
const bakedBefore = statSync(stamp, { throwIfNoEntry: false }) ? readFileSync(stamp, 'utf8') : null;

const built = statSync(path.join(siteDir, 'pagefind', 'pagefind-entry.json'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
const source = Math.max(...inputs.map((input) => newestMtime(path.join(root, input))));

if (built < source || bakedBefore !== baked) {
  console.log(
    !built
      ? 'No built site yet: building it (about a minute)…'
      : built < source
        ? 'The site is older than its sources: rebuilding…'
        : 'The server key or SITE_URL changed: rebuilding the site…',
  );
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, PUBLIC_API_PUBLIC_KEY: publicKey } });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, baked);
}
