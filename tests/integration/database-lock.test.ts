/**
 * The embedded database folder's lock: a second process is refused while the
 * first lives, and a lock left by a process that died is taken over at once,
 * so a supervisor can restart a crashed server immediately.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseLockedError, lockFolder } from '../../server/db/folder-lock.ts';

const newFolder = () => path.join(mkdtempSync(path.join(tmpdir(), 'beacon-lock-')), 'db');

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

describe('the database folder lock', () => {
  it('records its owner, refuses a second taker while the owner lives, and is gone after release', () => {
    const folder = newFolder();
    const release = lockFolder(folder, () => {});
    expect(JSON.parse(readFileSync(`${folder}.lock`, 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    expect(() => lockFolder(folder, () => {})).toThrow(
      new DatabaseLockedError(`The database folder ${folder} is in use by process ${process.pid} on ${hostname()} (is the server running?).`),
    );
    release();
    expect(existsSync(`${folder}.lock`)).toBe(false);
  });

  it('takes over at once, with a log line, a lock whose owner is gone', () => {
    const folder = newFolder();
    const gone = deadPid();
    writeFileSync(`${folder}.lock`, JSON.stringify({ pid: gone, host: hostname() }));
    const lines: string[] = [];
    // The old lock counted as live for 10 s after its owner died; taking it over now waits for nothing.
    // Timed on the lock alone: opening the database after it takes as long as the machine is busy.
    const started = performance.now();
    const release = lockFolder(folder, (line) => lines.push(line));
    try {
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(lines).toEqual([`The database folder ${folder} was locked by process ${gone}, which is gone: taking the lock over.`]);
      expect(JSON.parse(readFileSync(`${folder}.lock`, 'utf8')).pid).toBe(process.pid);
    } finally {
      release();
    }
  });

  it('leaves a lock held on another host alone', () => {
    const folder = newFolder();
    writeFileSync(`${folder}.lock`, JSON.stringify({ pid: deadPid(), host: 'another-host' }));
    expect(() => lockFolder(folder, () => {})).toThrow(DatabaseLockedError);
  });
});
