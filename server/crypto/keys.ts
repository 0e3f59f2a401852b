/**
 * The server's long-lived secrets, made on first start and kept in the data
 * folder: the RSA key pairs of encrypted calls (keyring.ts, which `keys
 * rotate` replaces while the server runs) and the HMAC secret of signed
 * tokens, cdkeys and code hashes (never rotated: cdkeys are derived from it).
 * Instances that share a database must share this folder's keys.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createFileOnce } from '../services/whole-file.ts';
import { Keyring } from './keyring.ts';

export interface ServerKeys {
  /** The RSA key pairs that open sealed calls, and the public key to serve. */
  keyring: Keyring;
  /** HMAC secret for hub, store and customer-service tokens, and what cdkeys and codes are derived from. */
  secret: Buffer;
}

export function keysFolder(dataDir: string): string {
  const folder = path.resolve(dataDir, 'keys');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

/** The HMAC secret in `<dataDir>/keys`, made when missing; an instance starting at the same moment that made it first wins. */
export function loadSecret(dataDir: string): Buffer {
  const file = path.join(keysFolder(dataDir), 'token-secret');
  if (!existsSync(file)) createFileOnce(file, randomBytes(32).toString('hex'));
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}

/** The keys in `<dataDir>/keys`, made when missing; `progress` hears when that happens (first start only). */
export async function loadKeys(dataDir: string, progress: (step: string) => void = () => {}): Promise<ServerKeys> {
  return { keyring: await Keyring.open(keysFolder(dataDir), { progress }), secret: loadSecret(dataDir) };
}
