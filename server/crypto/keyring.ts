/**
 * The server's RSA key pairs for sealed calls (contract/crypto.ts): the
 * current one, whose public key callers wrap their AES key with, and those
 * that `keys rotate` retired less than `keyRotationWindowMs` ago, which still
 * open what a page seals with a key it fetched before the rotation.
 *
 * In the keys folder (`<DATA_DIR>/keys`, shared by every instance):
 * - `rsa-private.pem`: the current private key (PKCS#8 PEM);
 * - `rsa-retired-<ms>.pem`: a previous one, retired at <ms> since the epoch.
 *
 * An instance notices a rotation by itself, whichever process made it: when
 * asked for the public key, and when an envelope opens with none of the keys
 * it holds, it looks whether the current key's file changed (one stat) and
 * reads the folder again if so. Nothing here makes a key inside a request:
 * key generation runs on libuv's thread pool, off the event loop.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { createFileOnce, replaceFile } from '../services/whole-file.ts';
import { SealError, unwrapKey } from './sealed.ts';

/**
 * How long a retired key still opens envelopes. Pages fetch the public key
 * once and keep it while they stay open, and browsers keep it for
 * `publicKeyCacheMs`: a day covers every page opened before the rotation
 * except one left open all that time, which then gets EncryptionInvalid and
 * resends its call once with a fresh key (src/lib/api/client.ts).
 */
export const keyRotationWindowMs = 24 * 3600_000;

/** How long browsers and caches may keep the public key: a visit asks about once, and a rotation reaches every new page within minutes. */
export const publicKeyCacheMs = 5 * 60_000;

const currentFile = 'rsa-private.pem';
const retiredFile = /^rsa-retired-(\d+)\.pem$/;
const retiredName = (at: number) => `rsa-retired-${at}.pem`;

interface KeyPair {
  privateKey: KeyObject;
  /** The public key as base64 DER SubjectPublicKeyInfo: what WebCrypto imports as 'spki'. */
  publicSpki: string;
  /** When `keys rotate` retired it; null for the current key. */
  retiredAt: number | null;
}

interface Ring {
  /** The current key's file when it was read (inode, modification time, size): a rotation replaces the file, so changes this. */
  stamp: string;
  current: KeyPair;
  /** Retired keys still in their window when the folder was read, newest first. */
  previous: KeyPair[];
}

/** A key as operators see it: the SHA-256 of its public key (DER) and until when it opens envelopes (null: the current key). */
export interface KeyInUse {
  fingerprint: string;
  acceptedUntil: number | null;
}

const newPrivateKeyPem = async (): Promise<string> =>
  (await promisify(generateKeyPair)('rsa', { modulusLength: 2048 })).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

function keyPair(pem: string, retiredAt: number | null): KeyPair {
  const privateKey = createPrivateKey(pem);
  return { privateKey, publicSpki: createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64'), retiredAt };
}

const inWindow = (retiredAt: number, now: number) => retiredAt + keyRotationWindowMs > now;

/** The retirement time a file name gives, or null for a file that is not a retired key. */
const retiredAtOf = (name: string): number | null => {
  const match = retiredFile.exec(name);
  return match ? Number(match[1]) : null;
};

async function stampOf(folder: string): Promise<string> {
  const info = await stat(path.join(folder, currentFile), { bigint: true });
  return `${info.ino}:${info.mtimeNs}:${info.size}`;
}

const readIfThere = (file: string): Promise<string | null> =>
  readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });

async function readRing(folder: string, now: number): Promise<Ring> {
  // The stamp first: a rotation between the two reads is then seen at the next check.
  const stamp = await stampOf(folder);
  const current = keyPair(await readFile(path.join(folder, currentFile), 'utf8'), null);
  const previous: KeyPair[] = [];
  for (const name of await readdir(folder)) {
    const retiredAt = retiredAtOf(name);
    if (retiredAt === null || !inWindow(retiredAt, now)) continue;
    // A later rotation may have removed it since the listing.
    const pem = await readIfThere(path.join(folder, name));
    if (pem === null) continue;
    const key = keyPair(pem, retiredAt);
    // Mid-rotation, the retired copy of the current key is there before its successor.
    if (key.publicSpki !== current.publicSpki) previous.push(key);
  }
  previous.sort((a, b) => b.retiredAt! - a.retiredAt!);
  return { stamp, current, previous };
}

const fingerprint = (publicSpki: string) => createHash('sha256').update(Buffer.from(publicSpki, 'base64')).digest('hex');

const describe = (key: KeyPair): KeyInUse => ({
  fingerprint: fingerprint(key.publicSpki),
  acceptedUntil: key.retiredAt === null ? null : key.retiredAt + keyRotationWindowMs,
});

export class Keyring {
  private readonly folder: string;
  private ring: Ring;
  private readonly now: () => number;
  private checking: Promise<boolean> | undefined;

  private constructor(folder: string, ring: Ring, now: () => number) {
    this.folder = folder;
    this.ring = ring;
    this.now = now;
  }

  /** The keys in `folder`, making the first key pair when there is none (a first start); `progress` hears when that happens. */
  static async open(folder: string, { now = Date.now, progress = () => {} }: { now?: () => number; progress?: (step: string) => void } = {}): Promise<Keyring> {
    const file = path.join(folder, currentFile);
    if (!existsSync(file)) {
      progress(`Making the server's keys in ${folder} (first start only)…`);
      createFileOnce(file, await newPrivateKeyPem());
    }
    return new Keyring(folder, await readRing(folder, now()), now);
  }

  /** The current public key (base64 SPKI), after picking up a rotation. */
  async publicSpki(): Promise<string> {
    await this.refresh();
    return this.ring.current.publicSpki;
  }

  /** The AES key a caller wrapped for the current key or one still in its window; SealError when none opens it. */
  async unwrapKey(wrappedHex: string | undefined): Promise<Buffer> {
    const key = (await this.unwrapWithKeysInUse(wrappedHex)) ?? ((await this.refresh()) ? await this.unwrapWithKeysInUse(wrappedHex) : null);
    if (!key) throw new SealError();
    return key;
  }

  /** The keys that open envelopes now: the current one, then the retired ones in their window, newest first. */
  private usable(): KeyPair[] {
    const now = this.now();
    return [this.ring.current, ...this.ring.previous.filter((key) => inWindow(key.retiredAt!, now))];
  }

  private async unwrapWithKeysInUse(wrappedHex: string | undefined): Promise<Buffer | null> {
    for (const { privateKey } of this.usable()) {
      try {
        return await unwrapKey(privateKey, wrappedHex);
      } catch (error) {
        if (!(error instanceof SealError)) throw error;
      }
    }
    return null;
  }

  /** Reads the folder again when the current key's file changed; true when it did. Concurrent callers share one check. */
  private refresh(): Promise<boolean> {
    this.checking ??= this.reloadIfChanged().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async reloadIfChanged(): Promise<boolean> {
    if ((await stampOf(this.folder)) === this.ring.stamp) return false;
    this.ring = await readRing(this.folder, this.now());
    return true;
  }
}

/**
 * `keys rotate`: a new current key pair, the old one kept as retired (it opens
 * envelopes for `keyRotationWindowMs` more), and retired keys past their
 * window deleted. Each file is replaced whole (services/whole-file.ts), the retired copy
 * before the current key, so a reader at any moment finds every key it needs.
 */
export async function rotateKeys(folder: string, now = Date.now()): Promise<{ keys: KeyInUse[]; removed: number }> {
  const pem = await newPrivateKeyPem();
  const current = await readIfThere(path.join(folder, currentFile));
  if (current !== null) await replaceFile(path.join(folder, retiredName(now)), current);
  await replaceFile(path.join(folder, currentFile), pem);

  let removed = 0;
  for (const name of await readdir(folder)) {
    const retiredAt = retiredAtOf(name);
    if (retiredAt === null || inWindow(retiredAt, now)) continue;
    // Another rotation at the same moment may have removed it already.
    await unlink(path.join(folder, name)).then(
      () => (removed += 1),
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      },
    );
  }
  const ring = await readRing(folder, now);
  return { keys: [ring.current, ...ring.previous].map(describe), removed };
}
