/**
 * `npm run release -- <folder>`: what a production host holds, copied from a
 * built checkout into `<folder>` (docs/deploy.md, Installing). The host then
 * installs the runtime packages with `npm ci --omit=dev`: the site is built
 * here, so nothing of the build or the tests goes there.
 */
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The release's files: the package files (npm ci --omit=dev and `npm run admin` read them), the
 * server and the contract it imports, the two content files the contract imports, the
 * dictionaries (the server reads its part and the shared messages of each), the deployment's
 * files (the unit, nginx's configuration, the settings' example) and the built site.
 */
export const releaseContents = [
  'package.json',
  'package-lock.json',
  'server',
  'contract',
  'content/facts.json',
  'content/plugins/catalogue.json',
  'content/i18n',
  'deploy',
  'dist',
] as const;

/** Copies the release of the checkout at `root` into `folder`, a new one (so nothing of an older release stays); refuses when the site is not built. */
export function copyRelease(root: string, folder: string): void {
  if (!existsSync(path.join(root, 'dist', '.nginx-maps.conf'))) throw new Error(`${path.join(root, 'dist')} holds no built site: run npm run build first`);
  if (existsSync(folder)) throw new Error(`${folder} exists already: a release goes into a new folder`);
  mkdirSync(folder, { recursive: true });
  for (const entry of releaseContents) cpSync(path.join(root, entry), path.join(folder, entry), { recursive: true });
}

if (import.meta.main) {
  const folder = process.argv[2];
  if (!folder) {
    console.error('Usage: npm run release -- <folder>');
    process.exit(1);
  }
  try {
    copyRelease(path.resolve(import.meta.dirname, '..'), path.resolve(folder));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  console.log(
    `The release is in ${path.resolve(folder)}: copy it to a new folder on the server, run npm ci --omit=dev there and point /srv/beacon at it (docs/deploy.md).`,
  );
}
