/**
 * Runs before `npm start`: builds the site when dist/ is missing, older than
 * anything it is built from, or built with other build-time settings (the
 * site's address, an API on another origin, the API a build reads the sponsor
 * list from), so a fresh clone needs no separate build step; when only what
 * the nginx maps are written from changed, it writes those again alone.
 * Nothing of a server — its keys, its data folder — goes into a build: one
 * build serves them all.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const siteDir = path.resolve(root, process.env.SITE_DIR ?? 'dist');
const siteInputs = ['src', 'contract', 'content', 'public', 'astro.config.mjs', 'package-lock.json'];
// What writes the nginx maps after the build (the pages' policies, the API's answer in every language when no instance
// answers): a change there writes the maps again, not the whole site.
const mapsInputs = ['server/site/nginx-maps.ts', 'server/site/nginx-api-unavailable.ts', 'server/site/csp.ts', 'server/i18n'];
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

const builtAt = (file: string) => statSync(path.join(siteDir, file), { throwIfNoEntry: false })?.mtimeMs ?? 0;
const newestOf = (inputs: string[]) => Math.max(...inputs.map((input) => newestMtime(path.join(root, input))));
// Pagefind's index is the site's last step; the nginx maps are written after it.
const siteBuilt = builtAt(path.join('pagefind', 'pagefind-entry.json'));
const mapsBuilt = builtAt('.nginx-maps.conf');

if (siteBuilt < newestOf(siteInputs) || settingsBefore !== settings) {
  console.log(
    !siteBuilt
      ? 'No built site yet: building it (a minute or two)…'
      : siteBuilt < newestOf(siteInputs)
        ? 'The site is older than its sources: rebuilding…'
        : `A build setting changed (${buildSettings.join(', ')}): rebuilding the site…`,
  );
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, settings);
} else if (mapsBuilt < Math.max(siteBuilt, newestOf(mapsInputs))) {
  console.log('The nginx maps are older than what they are written from: writing them again…');
  const result = spawnSync(process.execPath, [path.join(root, 'server/site/nginx-maps.ts'), siteDir], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
