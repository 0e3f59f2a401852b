/**
 * Runs before `npm start`: builds the site when dist/ is missing or older than
 * anything it is built from, so a fresh clone needs no separate build step.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const siteDir = path.resolve(root, process.env.SITE_DIR ?? 'dist');
const inputs = ['src', 'content', 'public', 'astro.config.mjs', 'package-lock.json'];

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

const built = statSync(path.join(siteDir, 'pagefind', 'pagefind-entry.json'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
const source = Math.max(...inputs.map((input) => newestMtime(path.join(root, input))));

if (built < source) {
  console.log(built ? 'The site is older than its sources: rebuilding…' : 'No built site yet: building it (about a minute)…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
