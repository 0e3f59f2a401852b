/**
 * The server's RSA key pairs for sealed calls (contract/crypto.ts): the
 * current one, whose public key callers wrap their AES key with, and those
 * that `keys rotate` retired less than `keyRotationWindowMs` ago, which still
 * open what a page seals with a key it fetched before the rotation.
 *
 * They are kept in a `KeyStore`: the keys folder (key-folder.ts) or, with
 * KEYS_SEALING_KEY, the database (key-table.ts). An instance notices a
 * rotation by itself, whichever process made it: when asked for the public
 * key, and when an envelope opens with none of the keys it holds, it looks
 * whether the current key changed (the store's stamp: one stat, or one small
 * query) and reads the keys again if so. Nothing here makes a key inside a
 * request: key generation runs on libuv's thread pool, off the event loop.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
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

/** The key pairs as a store keeps them: PEM text (PKCS#8), and when each retired one was retired. */
export interface StoredKeyPairs {
  /** Changes whenever the current key is replaced: a keyring compares it to tell that a rotation happened. */
  stamp: string;
  current: string;
  /** Retired keys, of any age (the keyring uses those still in their window). */
  retired: Array<{ pem: string; retiredAt: number }>;
}

/** Where the key pairs are kept, read and rotated: the keys folder (key-folder.ts) or the database (key-table.ts). */
export interface KeyStore {
  /** The current key's stamp alone: the cheap look a keyring takes before reading everything again. */
  stamp(): Promise<string>;
  /** Every key pair, the stamp read first (a rotation between the reads is then seen at the next look). */
  read(): Promise<StoredKeyPairs>;
  /**
   * Makes `pem` the current key, keeps the one it replaces as retired at `now`,
   * and deletes retired keys whose window has ended; how many it deleted.
   * A reader at any moment finds every key it needs.
   */
  rotate(pem: string, now: number): Promise<{ removed: number }>;
}

interface KeyPair {
  privateKey: KeyObject;
  /** The public key as base64 DER SubjectPublicKeyInfo: what WebCrypto imports as 'spki'. */
  publicSpki: string;
  /** When `keys rotate` retired it; null for the current key. */
  retiredAt: number | null;
}

interface Ring {
  /** The store's stamp when it was read. */
  stamp: string;
  current: KeyPair;
  /** Retired keys still in their window when the store was read, newest first. */
  previous: KeyPair[];
}

/** A key as operators see it: the SHA-256 of its public key (DER) and until when it opens envelopes (null: the current key). */
export interface KeyInUse {
  fingerprint: string;
  acceptedUntil: number | null;
}

/** A new RSA-2048 private key as PKCS#8 PEM, made off the event loop. */
export const newPrivateKeyPem = async (): Promise<string> =>
  (await promisify(generateKeyPair)('rsa', { modulusLength: 2048 })).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

function keyPair(pem: string, retiredAt: number | null): KeyPair {
  const privateKey = createPrivateKey(pem);
  return { privateKey, publicSpki: createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64'), retiredAt };
}

/** Whether a key retired at `retiredAt` still opens envelopes at `now`. */
export const inRotationWindow = (retiredAt: number, now: number): boolean => retiredAt + keyRotationWindowMs > now;

async function readRing(store: KeyStore, now: number): Promise<Ring> {
  const stored = await store.read();
  const current = keyPair(stored.current, null);
  const previous = stored.retired
    .filter(({ retiredAt }) => inRotationWindow(retiredAt, now))
    .map(({ pem, retiredAt }) => keyPair(pem, retiredAt))
    // Mid-rotation of a folder, the retired copy of the current key is there before its successor.
    .filter((key) => key.publicSpki !== current.publicSpki)
    .sort((a, b) => b.retiredAt! - a.retiredAt!);
  return { stamp: stored.stamp, current, previous };
}

const fingerprint = (publicSpki: string) => createHash('sha256').update(Buffer.from(publicSpki, 'base64')).digest('hex');

const describe = (key: KeyPair): KeyInUse => ({
  fingerprint: fingerprint(key.publicSpki),
  acceptedUntil: key.retiredAt === null ? null : key.retiredAt + keyRotationWindowMs,
});

export class Keyring {
  private readonly store: KeyStore;
  private ring: Ring;
  private readonly now: () => number;
  private checking: Promise<boolean> | undefined;

  private constructor(store: KeyStore, ring: Ring, now: () => number) {
    this.store = store;
    this.ring = ring;
    this.now = now;
  }

  /** The keys in `store`, which holds a current key (its opening made the first one). */
  static async open(store: KeyStore, { now = Date.now }: { now?: () => number } = {}): Promise<Keyring> {
    return new Keyring(store, await readRing(store, now()), now);
  }

  /** The current public key (base64 SPKI), after picking up a rotation. */
  async publicSpki(): Promise<string> {
    await this.refresh();
    return this.ring.current.publicSpki;
  }

  /** The AES key a caller wrapped for the current key or one still in its window; SealError when none opens it. */
  async unwrapKey(wrappedHex: string | undefined): Promise<KeyObject> {
    const key = (await this.unwrapWithKeysInUse(wrappedHex)) ?? ((await this.refresh()) ? await this.unwrapWithKeysInUse(wrappedHex) : null);
    if (!key) throw new SealError();
    return key;
  }

  /**
   * `keys rotate`: a new current key pair in the store, the old one kept as
   * retired (it opens envelopes for `keyRotationWindowMs` more), and retired
   * keys past their window deleted; the keys in use after it. Every keyring on
   * the store, this one too, picks the new key up by itself.
   */
  async rotate(): Promise<{ keys: KeyInUse[]; removed: number }> {
    const now = this.now();
    const { removed } = await this.store.rotate(await newPrivateKeyPem(), now);
    const ring = await readRing(this.store, now);
    return { keys: [ring.current, ...ring.previous].map(describe), removed };
  }

  /** The keys that open envelopes now: the current one, then the retired ones in their window, newest first. */
  private usable(): KeyPair[] {
    const now = this.now();
    return [this.ring.current, ...this.ring.previous.filter((key) => inRotationWindow(key.retiredAt!, now))];
  }

  private async unwrapWithKeysInUse(wrappedHex: string | undefined): Promise<KeyObject | null> {
    for (const { privateKey } of this.usable()) {
      try {
        return await unwrapKey(privateKey, wrappedHex);
      } catch (error) {
        if (!(error instanceof SealError)) throw error;
      }
    }
    return null;
  }

  /** Reads the store again when the current key changed; true when it did. Concurrent callers share one check. */
  private refresh(): Promise<boolean> {
    this.checking ??= this.reloadIfChanged().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async reloadIfChanged(): Promise<boolean> {
    if ((await this.store.stamp()) === this.ring.stamp) return false;
    this.ring = await readRing(this.store, this.now());
    return true;
  }
}
