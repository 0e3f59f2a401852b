/**
 * Runs before `npm start`: builds the site when dist/ is missing, older than
 * anything it is built from, or built with other build-time settings (the
 * site's address, an API on another origin, the API a build reads the sponsor
 * list from), so a fresh clone needs no separate build step. Nothing of a
 * server — its keys, its data folder — goes into a build: one build serves them all.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const siteDir = path.resolve(root, process.env.SITE_DIR ?? 'dist');
// The site, and what writes the nginx maps of it (the pages' policies) after the build.
const inputs = ['src', 'contract', 'content', 'public', 'astro.config.mjs', 'package-lock.json', 'server/site/nginx-maps.ts', 'server/site/csp.ts'];
const buildSettings = ['SITE_URL', 'PUBLIC_API_ORIGIN', 'BUILD_API_URL'] as const;

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

const settings = JSON.stringify(Object.fromEntries(buildSettings.map((name) => [name, process.env[name] ?? ''])));
const stamp = path.join(siteDir, '.build-settings.json');
const settingsBefore = statSync(stamp, { throwIfNoEntry: false }) ? readFileSync(stamp, 'utf8') : null;

// A build is complete once Pagefind's index and the nginx maps, its last steps, are written.
const built = Math.min(
  ...[path.join('pagefind', 'pagefind-entry.json'), '.nginx-maps.conf'].map(
    (file) => statSync(path.join(siteDir, file), { throwIfNoEntry: false })?.mtimeMs ?? 0,
  ),
);
const source = Math.max(...inputs.map((input) => newestMtime(path.join(root, input))));

if (built < source || settingsBefore !== settings) {
  console.log(
    !built
      ? 'No built site yet: building it (a minute or two)…'
      : built < source
        ? 'The site is older than its sources: rebuilding…'
        : `A build setting changed (${buildSettings.join(', ')}): rebuilding the site…`,
  );
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, settings);
}
