/**
 * The server's keys in the keys folder (`<DATA_DIR>/keys`), where they live
 * unless KEYS_SEALING_KEY keeps them in the database (key-table.ts). Every
 * instance of a deployment must read the same folder.
 * - `rsa-private.pem`: the current private key of sealed calls (PKCS#8 PEM);
 * - `rsa-retired-<ms>.pem`: a previous one, retired at <ms> since the epoch;
 * - `token-secret`: the HMAC secret (hex).
 * Each file is written whole under a temporary name (services/whole-file.ts),
 * so an instance starting or reading during a rotation never sees half a key.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createFileOnce, replaceFile } from '../services/whole-file.ts';
import { inRotationWindow, newPrivateKeyPem, type KeyStore, type StoredKeyPairs } from './keyring.ts';

const currentFile = 'rsa-private.pem';
const secretFile = 'token-secret';
const retiredFile = /^rsa-retired-(\d+)\.pem$/;
const retiredName = (at: number) => `rsa-retired-${at}.pem`;

/** `<dataDir>/keys`, as a path only. */
const folderOf = (dataDir: string) => path.resolve(dataDir, 'keys');

/** `<dataDir>/keys`, made (owner-only) when missing. */
export function keysFolder(dataDir: string): string {
  const folder = folderOf(dataDir);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

/** The retirement time a file name gives, or null for a file that is not a retired key. */
const retiredAtOf = (name: string): number | null => {
  const match = retiredFile.exec(name);
  return match ? Number(match[1]) : null;
};

const readIfThere = (file: string): Promise<string | null> =>
  readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });

/** The key pairs of a keys folder. Its stamp is the current key's file (inode, modification time, size): a rotation replaces the file, so changes it. */
export function folderKeyStore(folder: string): KeyStore {
  const stamp = async () => {
    const info = await stat(path.join(folder, currentFile), { bigint: true });
    return `${info.ino}:${info.mtimeNs}:${info.size}`;
  };
  return {
    stamp,
    async read(): Promise<StoredKeyPairs> {
      const stamped = await stamp();
      const current = await readFile(path.join(folder, currentFile), 'utf8');
      const retired: StoredKeyPairs['retired'] = [];
      for (const name of await readdir(folder)) {
        const retiredAt = retiredAtOf(name);
        if (retiredAt === null) continue;
        // A later rotation may have removed it since the listing.
        const pem = await readIfThere(path.join(folder, name));
        if (pem !== null) retired.push({ pem, retiredAt });
      }
      return { stamp: stamped, current, retired };
    },
    // The retired copy is written before the current key, so a reader at any moment finds every key it needs.
    async rotate(pem, now) {
      const current = await readIfThere(path.join(folder, currentFile));
      if (current !== null) await replaceFile(path.join(folder, retiredName(now)), current);
      await replaceFile(path.join(folder, currentFile), pem);
      let removed = 0;
      for (const name of await readdir(folder)) {
        const retiredAt = retiredAtOf(name);
        if (retiredAt === null || inRotationWindow(retiredAt, now)) continue;
        // Another rotation at the same moment may have removed it already.
        await unlink(path.join(folder, name)).then(
          () => (removed += 1),
          (error: NodeJS.ErrnoException) => {
            if (error.code !== 'ENOENT') throw error;
          },
        );
      }
      return { removed };
    },
  };
}

/** The HMAC secret in `<dataDir>/keys`, made when missing; an instance starting at the same moment that made it first wins. */
export function loadSecret(dataDir: string): Buffer {
  const file = path.join(keysFolder(dataDir), secretFile);
  if (!existsSync(file)) createFileOnce(file, randomBytes(32).toString('hex'));
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}

/** The key pairs of a keys folder, the first one made when there is none (a first start, which `progress` hears of). */
export async function openKeyFolder(folder: string, progress: (step: string) => void = () => {}): Promise<KeyStore> {
  const file = path.join(folder, currentFile);
  if (!existsSync(file)) {
    progress(`Making the server's keys in ${folder} (first start only)…`);
    createFileOnce(file, await newPrivateKeyPem());
  }
  return folderKeyStore(folder);
}

/** The token secret in `<dataDir>/keys`, read without making anything; null when there is none. */
export async function readFolderSecret(dataDir: string): Promise<Buffer | null> {
  const secret = await readIfThere(path.join(folderOf(dataDir), secretFile));
  return secret === null ? null : Buffer.from(secret.trim(), 'hex');
}

/** The key pairs in `<dataDir>/keys`, read without making anything; null when there is no current key. */
export async function readFolderKeyPairs(dataDir: string): Promise<StoredKeyPairs | null> {
  const folder = folderOf(dataDir);
  return existsSync(path.join(folder, currentFile)) ? folderKeyStore(folder).read() : null;
}
