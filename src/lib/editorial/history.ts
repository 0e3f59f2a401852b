/**
 * When each file, and each key of a flat JSON dictionary, last changed, from
 * git's history: what decides whether a translation has fallen behind its
 * source (translation-status.ts). A file or key changed in the working tree
 * and not yet committed changed "now", so an editor sees the effect of an
 * edit before committing it. Without git, or outside a repository, there is no
 * history: `available` is false and nothing counts as changed.
 */
import { execFileSync } from 'node:child_process';

/** Seconds since the epoch, as git records a commit's time. */
export type Seconds = number;

export interface History {
  available: boolean;
  /** When the file (a path relative to the repository) last changed, or undefined when git never saw it. */
  fileChanged(path: string): Seconds | undefined;
  /** When a key of the dictionary at `path` last changed value. */
  keyChanged(path: string, key: string): Seconds | undefined;
}

/** A commit header line in the logs below: a separator no path or JSON line can start with, then the commit time. */
const commitMark = '\u0001';

function git(root: string, args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
}

/** Nothing for a question git cannot answer (a repository without commits has no HEAD to compare with). */
function gitOrEmpty(root: string, args: string[]): string {
  try {
    return git(root, args);
  } catch {
    return '';
  }
}

/** A dictionary line's key and value, as prettier writes flat JSON (one `"key": "value",` per line). */
const dictionaryLine = /^\s*"((?:[^"\\]|\\.)*)"\s*:\s*(.*?),?\s*$/;

/**
 * The keys each commit's diff of a dictionary changed, newest first. A line
 * whose value only gained or lost its trailing comma (a key appended after
 * it) is no change.
 */
function keysChangedIn(diff: string, now: Seconds | undefined): Map<string, Seconds> {
  const changed = new Map<string, Seconds>();
  let time = now;
  let removed = new Map<string, string>();
  for (const line of diff.split('\n')) {
    if (line.startsWith(commitMark)) {
      time = Number(line.slice(1));
      continue;
    }
    if (line.startsWith('@@')) removed = new Map();
    if (line.startsWith('---') || line.startsWith('+++')) continue;
    const entry = dictionaryLine.exec(line.slice(1));
    if (!entry || time === undefined) continue;
    const [, key, value] = entry;
    if (line.startsWith('-')) removed.set(key, value);
    else if (line.startsWith('+') && removed.get(key) !== value && !changed.has(key)) changed.set(key, time);
  }
  return changed;
}

/** The history of `paths` (folders or files) in the repository at `root`. */
export function gitHistory(root: string, paths: string[]): History {
  let log: string;
  let pending: string;
  try {
    log = git(root, ['log', `--format=${commitMark}%ct`, '--name-only', '--no-renames', '--', ...paths]);
    pending = git(root, ['status', '--porcelain', '--untracked-files=all', '--', ...paths]);
  } catch {
    return { available: false, fileChanged: () => undefined, keyChanged: () => undefined };
  }
  const now = Math.floor(Date.now() / 1000);
  const files = new Map<string, Seconds>();
  // `git status` names a changed path after two status letters and a space.
  const uncommitted = new Set(
    pending
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3)),
  );
  for (const path of uncommitted) files.set(path, now);
  let time = 0;
  for (const line of log.split('\n')) {
    if (line.startsWith(commitMark)) time = Number(line.slice(1));
    else if (line && !files.has(line)) files.set(line, time);
  }

  const dictionaries = new Map<string, Map<string, Seconds>>();
  const keysOf = (path: string) => {
    let keys = dictionaries.get(path);
    if (!keys) {
      // Uncommitted changes first (they are the newest), then every commit's, newest first.
      const working = uncommitted.has(path) ? keysChangedIn(gitOrEmpty(root, ['diff', '-U0', 'HEAD', '--', path]), now) : new Map<string, Seconds>();
      const committed = keysChangedIn(gitOrEmpty(root, ['log', '-p', '-U0', `--format=${commitMark}%ct`, '--no-renames', '--', path]), undefined);
      keys = new Map([...committed, ...working]);
      dictionaries.set(path, keys);
    }
    return keys;
  };
  return { available: true, fileChanged: (path) => files.get(path), keyChanged: (path, key) => keysOf(path).get(key) };
}
