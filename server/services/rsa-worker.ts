/**
 * What the RSA pool's threads run (rsa-pool.ts): the private-key operations,
 * each a plain function of its inputs. Keys arrive as KeyObjects, which Node
 * clones between threads.
 */
import { constants, createSign, privateDecrypt, type KeyObject } from 'node:crypto';

/** RSA-OAEP with SHA-256 (the sealed calls' key wrapping); throws when the data was not wrapped for this key. */
export function decryptOaep({ key, data }: { key: KeyObject; data: Uint8Array }): Uint8Array {
  return privateDecrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, data);
}

/** An RSA-SHA256 (PKCS #1 v1.5) signature in base64, as WeChat Pay signs and expects requests signed. */
export function signSha256({ key, message }: { key: KeyObject; message: string }): string {
  return createSign('RSA-SHA256').update(message).sign(key, 'base64');
}
