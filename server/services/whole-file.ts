/**
 * Writing files so that no reader ever sees half of one: each is written
 * whole under a temporary name (a dot file, which readers pass over), flushed
 * to disk, and only then given its real name. The keys folder, which several
 * instances may share and start or rotate in at any moment, and backups, which
 * must never leave a cut-off file under the name asked for, are written so.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

const temporaryName = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);

/**
 * Makes `file` with this content unless it exists (another instance made it
 * first, which is then the one everybody uses). Linking the whole temporary
 * file into place fails when the name is taken, unlike a rename, which would
 * replace it. Synchronous: only a starting server makes files this way.
 */
export function createFileOnce(file: string, content: string): void {
  const temporary = temporaryName(file);
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/** Writes `file` whole, replacing what was there in one step (rename); a write that fails (a full disk) leaves nothing behind. */
export async function replaceFile(file: string, content: string | Uint8Array): Promise<void> {
  const temporary = temporaryName(file);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary);
    throw error;
  }
}
