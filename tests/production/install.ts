/**
 * A production host's install, made here: the release (scripts/release.ts)
 * copied into a folder of its own and its packages installed with
 * `npm ci --omit=dev`, as docs/deploy.md has an operator do on the host — so
 * the tests run the instances with nothing of the build or the tests at hand.
 *
 * Installed releases are kept in the system's temporary folder under a name
 * that hashes the package files and the release's files: a second run with
 * nothing changed takes the time of hashing them; a change of the code or the
 * site makes a new release whose packages are hard links to an earlier
 * install's of the same package files; a change of those runs npm ci again,
 * from npm's cache when it holds the packages. A release is made under another
 * name and renamed, so no run uses half of one; releases unused for an hour go.
 */
import { execFile } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { copyRelease, releaseContents } from '../../scripts/release.ts';

const run = promisify(execFile);
const prefix = 'beacon-release-';
const unusedFor = 60 * 60 * 1000;

/** The tools a production host must not carry, named so that a move of one of them to `dependencies` fails too. */
const tools = ['@playwright/test', 'playwright', 'playwright-core', 'lighthouse', 'vitest', 'drizzle-kit', 'astro', 'vite', 'typescript', 'eslint', 'prettier'];

/** Adds `entry` (a file, or a folder's files in order) to `hash`, each file by its path and contents. */
function hashEntry(hash: Hash, root: string, entry: string): void {
  const target = path.join(root, entry);
  if (!statSync(target).isDirectory()) {
    hash.update(`${entry}\0`).update(readFileSync(target)).update('\0');
    return;
  }
  for (const name of readdirSync(target).sort()) hashEntry(hash, root, path.join(entry, name));
}

const digest = (root: string, entries: readonly string[]) => {
  const hash = createHash('sha256');
  for (const entry of entries) hashEntry(hash, root, entry);
  return hash.digest('hex').slice(0, 16);
};

/** Fails when `npm ci --omit=dev` installed a package the lock file holds for development only, or one of the tools. */
function checkNoDevelopmentPackages(folder: string): void {
  const lock = JSON.parse(readFileSync(path.join(folder, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const developmentOnly = Object.entries(lock.packages)
    .filter(([, entry]) => entry.dev)
    .map(([where]) => where);
  const landed = new Set([...tools.map((name) => `node_modules/${name}`), ...developmentOnly].filter((where) => existsSync(path.join(folder, where))));
  if (landed.size === 0) return;
  const named = tools.filter((name) => landed.has(`node_modules/${name}`));
  throw new Error(
    `The production install in ${folder} holds ${landed.size} development packages, among them ${(named.length > 0 ? named : [...landed].slice(0, 10)).join(', ')}`,
  );
}

/** Removes other releases (and half-made ones) unused for an hour; one in use is touched on each use. */
function removeUnused(keep: string): void {
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(prefix) && entry !== keep)) {
    const folder = path.join(tmpdir(), name);
    // Another worker's half-made release may be renamed or removed meanwhile.
    const stat = statSync(folder, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > unusedFor) rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The production install of the checkout at `root` (its site built): a folder holding the release and
 * the packages `npm ci --omit=dev` installs, and no development package. Made once per change.
 */
export async function installRelease(root: string): Promise<string> {
  const packages = digest(root, ['package.json', 'package-lock.json']);
  const name = `${prefix}${packages}-${digest(root, releaseContents)}`;
  const folder = path.join(tmpdir(), name);
  if (!existsSync(folder)) {
    const part = `${folder}.${process.pid}.part`;
    rmSync(part, { recursive: true, force: true });
    copyRelease(root, part);
    const earlier = readdirSync(tmpdir()).find((entry) => entry.startsWith(`${prefix}${packages}-`) && !entry.endsWith('.part'));
    if (earlier) {
      await run('cp', ['-al', path.join(tmpdir(), earlier, 'node_modules'), path.join(part, 'node_modules')]);
    } else {
      console.log(`Installing the release's packages (npm ci --omit=dev) in ${part}…`);
      // Scripts run whatever npm's settings say: the node package's install script fetches Node 24 (node_modules/.bin/node).
      await run('npm', ['ci', '--omit=dev', '--ignore-scripts=false', '--prefer-offline', '--no-audit', '--no-fund'], {
        cwd: part,
        maxBuffer: 16 * 1024 * 1024,
      });
    }
    checkNoDevelopmentPackages(part);
    try {
      renameSync(part, folder);
    } catch (error) {
      // Another run made the same release meanwhile: either is the one.
      if (!existsSync(folder)) throw error;
      rmSync(part, { recursive: true, force: true });
    }
  }
  const now = new Date();
  utimesSync(folder, now, now);
  removeUnused(name);
  return folder;
}
