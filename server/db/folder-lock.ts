/**
 * The embedded database folder's lock (two processes opening one
 * PGlite folder corrupt it). The lock is a file beside the folder, created
 * exclusively, that names its owner process. A lock whose owner is gone — a
 * killed or crashed server — is taken over at once, so a supervisor can restart
 * the server immediately; a live owner, or one on another host (a shared
 * disk), keeps it.
 */
import { hostname } from 'node:os';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { StartupError } from '../startup-error.ts';

/** Thrown when another live process holds the embedded database folder. */
export class DatabaseLockedError extends StartupError {}

interface Owner {
  pid: number;
  host: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(file: string): Owner | null {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<Owner>;
    return Number.isInteger(owner.pid) && typeof owner.host === 'string' ? (owner as Owner) : null;
  } catch {
    return null;
  }
}

/** Takes the lock of `folder` and returns its release; `log` hears of a lock taken over from a process that is gone. */
export function lockFolder(folder: string, log: (line: string) => void): () => void {
  const file = `${folder}.lock`;
  const me: Owner = { pid: process.pid, host: hostname() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify(me)}\n`, { flag: 'wx' });
      return () => {
        if (readOwner(file)?.pid === me.pid) rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(file);
    if (owner && (owner.host !== me.host || isAlive(owner.pid))) {
      throw new DatabaseLockedError(`The database folder ${folder} is in use by process ${owner.pid} on ${owner.host} (is the server running?).`);
    }
    log(`The database folder ${folder} was locked by ${owner ? `process ${owner.pid}, which is gone` : 'an unreadable lock file'}: taking the lock over.`);
    rmSync(file, { force: true, recursive: true });
  }
  throw new DatabaseLockedError(`The database folder ${folder} is being locked by another process starting at the same time.`);
}
