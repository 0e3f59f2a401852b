/**
 * Sealing the server's keys for the database (KEYS_SEALING_KEY): AES-256-GCM
 * from node:crypto, a random 12-byte nonce for every sealing, and the row's
 * name as additional data, so a sealed value opens only under the name it was
 * sealed for: rows swapped in the table (a retired key made current, the secret
 * given a key pair's name) fail to open instead of being taken for another.
 * A sealed value is the nonce, the ciphertext and the 16-byte tag, one after
 * the other (what WebCrypto's AES-GCM takes as iv and data).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { StartupError } from '../startup-error.ts';

const nonceBytes = 12;
const tagBytes = 16;

/** A row the sealing key does not open: sealed with another key, for another name, or changed. */
export class SealingKeyError extends StartupError {
  constructor(name: string) {
    super(
      `KEYS_SEALING_KEY does not open the server key "${name}" in the database (table server_keys): it was sealed with another KEYS_SEALING_KEY, or changed. ` +
        'Start with the KEYS_SEALING_KEY the keys were sealed with; no new keys are made over them (docs/keys.md).',
    );
  }
}

/** `plaintext` sealed under `sealingKey` for the row `name`. */
export function sealKey(sealingKey: Buffer, name: string, plaintext: Buffer): Buffer {
  const nonce = randomBytes(nonceBytes);
  const cipher = createCipheriv('aes-256-gcm', sealingKey, nonce, { authTagLength: tagBytes });
  cipher.setAAD(Buffer.from(name, 'utf8'));
  return Buffer.concat([nonce, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

/** What `sealKey` sealed for the row `name`; SealingKeyError when this key did not seal it for that name. */
export function openKey(sealingKey: Buffer, name: string, sealed: Buffer): Buffer {
  if (sealed.length < nonceBytes + tagBytes) throw new SealingKeyError(name);
  const decipher = createDecipheriv('aes-256-gcm', sealingKey, sealed.subarray(0, nonceBytes), { authTagLength: tagBytes });
  decipher.setAAD(Buffer.from(name, 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - tagBytes));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(nonceBytes, sealed.length - tagBytes)), decipher.final()]);
  } catch {
    throw new SealingKeyError(name);
  }
}
