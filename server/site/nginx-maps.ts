/**
 * After the build: writes `.nginx-maps.conf` into the built site, the part of
 * the reference nginx configuration (deploy/nginx/) that depends on what was
 * built — so nginx serves the site with the answers this server gives
 * (plugins/site.ts), with no list of pages or locales written by hand:
 *
 * - `$beacon_page_policy`: each page's Content-Security-Policy, with the
 *   hashes of its own inline scripts (site/csp.ts);
 * - `$beacon_not_found`: the locale's not-found page (the account centre's
 *   under /account), as resolve.ts picks it;
 * - `$beacon_raffle_page`: the raffle page that answers anything below
 *   /raffle/ (its catch-all child);
 * - `$beacon_hidden_page`: 1 for the development stand-ins' pages, which a
 *   production site answers as not found;
 * - `$beacon_api_unavailable`: the API's envelope nginx answers when no
 *   instance does, in the reader's language (nginx-api-unavailable.ts).
 *
 * The file starts with a dot, so the configuration's rule for hidden files
 * keeps it (and .build-settings.json) from being served.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { standInPages } from '#contract/dev.ts';
import { localeCodes, localeSegment } from '#contract/locales.ts';
import { pagePolicy } from './csp.ts';
import { apiUnavailableMaps } from './nginx-api-unavailable.ts';

const root = path.resolve(import.meta.dirname, '../..');
const siteDir = path.resolve(root, process.argv[2] ?? 'dist');
/** The origin the pages call when the API is elsewhere (the build's own setting, as src/lib/api/config.ts reads it). */
const connectSources = process.env.PUBLIC_API_ORIGIN ? [new URL(process.env.PUBLIC_API_ORIGIN).origin] : [];

/** Quoted for nginx: a value holds single quotes and spaces, never a double quote or a backslash. */
function quoted(value: string): string {
  if (/["\\]/.test(value)) throw new Error(`cannot quote ${value} for nginx`);
  return `"${value}"`;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const entries = await readdir(siteDir, { recursive: true, withFileTypes: true });
const pages = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.html')).map((entry) => path.join(entry.parentPath, entry.name));
const relative = (file: string) => `/${path.relative(siteDir, file).split(path.sep).join('/')}`;
/** The folders of the locales other than the default one, which has none. */
const localeFolders = localeCodes.map(localeSegment).filter(Boolean);
const localePrefix = `(?<beacon_locale>/(?:${localeFolders.map(escapeRegex).join('|')}))?`;

const policies = await Promise.all(
  pages.map(async (file) => `  ${quoted(relative(file))} ${quoted(pagePolicy(await readFile(file, 'utf8'), connectSources))};`),
);

// nginx keeps a map's keys in a hash whose buckets must hold the longest of them (page paths run past the
// default 64 bytes) and whose size must have room for every page (past the default 2048 slots).
const powerOfTwoAtLeast = (n: number) => 2 ** Math.ceil(Math.log2(n));
const bucketSize = powerOfTwoAtLeast(Math.max(64, ...pages.map((file) => relative(file).length + 32)));
const hashSize = powerOfTwoAtLeast(Math.max(2048, pages.length * 4));

const lines = [
  `# Written by server/site/nginx-maps.ts for this build of the site; included at the http level (deploy/nginx/beacon.conf).`,
  `map_hash_bucket_size ${bucketSize};`,
  `map_hash_max_size ${hashSize};`,
  ``,
  `map $uri $beacon_page_policy {`,
  `  default ${quoted(pagePolicy('', connectSources))};`,
  ...policies.sort(),
  `}`,
  ``,
  `map $uri $beacon_not_found {`,
  ...localeFolders.flatMap((folder) => [
    `  "~^/${escapeRegex(folder)}/account(/|$)" /${folder}/account/not-found/index.html;`,
    `  "~^/${escapeRegex(folder)}/" /${folder}/not-found/index.html;`,
  ]),
  `  "~^/account(/|$)" /account/not-found/index.html;`,
  `  default /not-found/index.html;`,
  `}`,
  ``,
  `map $uri $beacon_raffle_page {`,
  `  "~^${localePrefix}/raffle/." $beacon_locale/raffle/index.html;`,
  `  default "";`,
  `}`,
  ``,
  // Asked again after the redirect to the not-found page, which is not hidden (nginx keeps a map's first answer unless volatile).
  `map $uri $beacon_hidden_page {`,
  `  volatile;`,
  `  "~^${localePrefix}/(?:${standInPages.map(escapeRegex).join('|')})(/|$)" 1;`,
  `  default 0;`,
  `}`,
  ``,
  ...apiUnavailableMaps(),
];
await writeFile(path.join(siteDir, '.nginx-maps.conf'), lines.join('\n'));
console.log(`Wrote the nginx maps for ${pages.length} pages in ${localeFolders.length + 1} locales.`);
