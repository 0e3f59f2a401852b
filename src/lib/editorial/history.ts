/**
 * When each file last changed, and each version of it, from git's history:
 * what decides whether a translation has fallen behind its source
 * (status.ts, dictionary-history.ts). A file changed in the working tree and
 * not yet committed changed "now", so an editor sees the effect of an edit
 * before committing it. Without git, or outside a repository, there is no
 * history: `available` is false, nothing counts as changed and no file has
 * versions.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Seconds since the epoch, as git records a commit's time. */
export type Seconds = number;

/** A file as one commit (or the working tree) left it: null where the file was deleted. */
export interface Version {
  time: Seconds;
  text: string | null;
}

export interface History {
  available: boolean;
  /** When the file (a path relative to the repository) last changed, or undefined when git never saw it. */
  fileChanged(path: string): Seconds | undefined;
  /** Every version of the file that git recorded, oldest first, then the working tree's when it differs from the last commit. */
  versions(path: string): Version[];
}

/** A commit header line in the log below: a separator no path can start with, then the commit and its time. */
const commitMark = '\u0001';

function git(root: string, args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
}

/**
 * The texts of `objects` (`<commit>:<path>`), read by one `git cat-file
 * --batch`: null for one that does not exist (the commit deleted the file).
 */
function objectTexts(root: string, objects: string[]): (string | null)[] {
  if (!objects.length) return [];
  const output = execFileSync('git', ['-C', root, 'cat-file', '--batch'], {
    input: `${objects.join('\n')}\n`,
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const texts: (string | null)[] = [];
  let at = 0;
  // Each answer is a header line, "<object> missing" or "<hash> <type> <size>", then that many bytes and a newline.
  while (at < output.length) {
    const end = output.indexOf(0x0a, at);
    const header = output.subarray(at, end).toString('utf8');
    if (header.endsWith(' missing')) {
      texts.push(null);
      at = end + 1;
      continue;
    }
    const size = Number(header.split(' ')[2]);
    texts.push(output.subarray(end + 1, end + 1 + size).toString('utf8'));
    at = end + 1 + size + 1;
  }
  return texts;
}

/** The history of `paths` (folders or files) in the repository at `root`. */
export function gitHistory(root: string, paths: string[]): History {
  let log: string;
  let pending: string;
  try {
    log = git(root, ['log', `--format=${commitMark}%H %ct`, '--name-only', '--no-renames', '--', ...paths]);
    pending = git(root, ['status', '--porcelain', '--untracked-files=all', '--', ...paths]);
  } catch {
    return { available: false, fileChanged: () => undefined, versions: () => [] };
  }
  const now = Math.floor(Date.now() / 1000);
  // `git status` names a changed path after two status letters and a space.
  const uncommitted = new Set(
    pending
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3)),
  );
  // The commits that changed each file, newest first, as the log lists them.
  const commits = new Map<string, { hash: string; time: Seconds }[]>();
  let commit = { hash: '', time: 0 };
  for (const line of log.split('\n')) {
    if (line.startsWith(commitMark)) {
      const [hash, time] = line.slice(1).split(' ');
      commit = { hash, time: Number(time) };
    } else if (line) {
      const list = commits.get(line);
      if (list) list.push(commit);
      else commits.set(line, [commit]);
    }
  }

  const fileChanged = (file: string) => (uncommitted.has(file) ? now : commits.get(file)?.[0].time);
  const versions = (file: string): Version[] => {
    const oldestFirst = (commits.get(file) ?? []).toReversed();
    const texts = objectTexts(
      root,
      oldestFirst.map(({ hash }) => `${hash}:${file}`),
    );
    const recorded = oldestFirst.map(({ time }, index) => ({ time, text: texts[index] }));
    if (!uncommitted.has(file)) return recorded;
    const working = path.join(root, file);
    return [...recorded, { time: now, text: existsSync(working) ? readFileSync(working, 'utf8') : null }];
  };
  return { available: true, fileChanged, versions };
}
