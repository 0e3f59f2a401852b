/** The sealed-body format of contract/crypto.ts, on node:crypto. */
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { encryption } from '#contract/crypto.ts';
import { decryptOaep } from '../services/rsa-pool.ts';

/** One error for every way opening can fail, so failures tell an attacker nothing. */
export class SealError extends Error {
  constructor() {
    super('sealed body could not be opened');
  }
}

const hexPattern = /^[0-9a-f]+$/i;

/**
 * Unwraps the request's AES key from its RSA-OAEP-SHA256 header, on the RSA pool's threads. The key is
 * a KeyObject, as `seal` and `open` take it: node:crypto tells a Buffer key from a KeyObject by
 * catching a thrown error, some 8 µs of CPU for every cipher made with a Buffer.
 */
export async function unwrapKey(privateKey: KeyObject, wrappedHex: string | undefined): Promise<KeyObject> {
  if (!wrappedHex || wrappedHex.length % 2 !== 0 || !hexPattern.test(wrappedHex)) throw new SealError();
  let key: Buffer;
  try {
    key = await decryptOaep(privateKey, Buffer.from(wrappedHex, 'hex'));
  } catch {
    throw new SealError();
  }
  if (key.length !== encryption.aesKeyBytes) throw new SealError();
  return createSecretKey(key);
}

/** base64(iv ‖ ciphertext) → plaintext. */
export function open(key: KeyObject, sealed: string): string {
  try {
    const bytes = Buffer.from(sealed, 'base64');
    if (bytes.length < encryption.ivBytes + 16) throw new SealError();
    const decipher = createDecipheriv('aes-256-cbc', key, bytes.subarray(0, encryption.ivBytes));
    return Buffer.concat([decipher.update(bytes.subarray(encryption.ivBytes)), decipher.final()]).toString('utf8');
  } catch {
    throw new SealError();
  }
}

/** plaintext → base64(iv ‖ ciphertext), with a fresh IV. */
export function seal(key: KeyObject, plaintext: string, iv: Buffer = randomBytes(encryption.ivBytes)): string {
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final()]).toString('base64');
}

/** The same format hex-encoded, for values that travel in a URL (the external login's token and outcome). */
export const sealHex = (key: KeyObject, plaintext: string): string => Buffer.from(seal(key, plaintext), 'base64').toString('hex');

export function openHex(key: KeyObject, hex: string): string {
  if (hex.length % 2 !== 0 || !hexPattern.test(hex)) throw new SealError();
  return open(key, Buffer.from(hex, 'hex').toString('base64'));
}
