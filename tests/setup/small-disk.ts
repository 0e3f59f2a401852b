/**
 * A real, small file system for tests of a full disk: a tmpfs mounted over a folder (an
 * instance's DATA_DIR/uploads), which `fill()` fills to its last byte and `free()` empties
 * again. Mounting needs root, as CI has; elsewhere `mountSmallDisk` answers null and the test
 * that needs it is skipped. Mount it before the instance starts: it hides what the folder held.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface SmallDisk {
  /** Writes a file until the disk has no byte left (a preallocation would be refused whole, leaving room). */
  fill(): void;
  /** Removes that file: there is room again. */
  free(): void;
  unmount(): void;
}

/** Mounts a tmpfs of `size` (`256k`, `1m`) over `folder`, made if missing; null where this process may not mount. */
export function mountSmallDisk(folder: string, size: string): SmallDisk | null {
  if (process.getuid?.() !== 0) return null;
  mkdirSync(folder, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', folder], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const filler = path.join(folder, '.filler');
  return {
    fill() {
      try {
        writeFileSync(filler, Buffer.alloc(64 * 1024 * 1024));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    },
    free: () => rmSync(filler, { force: true }),
    unmount: () => execFileSync('umount', [folder]),
  };
}
