/**
 * The server's long-lived secrets, made on first start and kept in the data
 * folder: the RSA key pair of encrypted calls and the HMAC secret of signed
 * tokens. Instances that share a database must share this folder's keys.
 */
import { generateKeyPairSync, createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ServerKeys {
  privateKey: KeyObject;
  /** The public key as base64 DER SubjectPublicKeyInfo: what WebCrypto imports as 'spki'. */
  publicSpki: string;
  /** HMAC secret for hub, store and customer-service tokens. */
  secret: Buffer;
}

/** The file's content, made first when it is missing; an instance starting at the same moment that wrote it first wins. */
function readOrCreate(file: string, create: () => string): string {
  if (!existsSync(file)) {
    try {
      writeFileSync(file, create(), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8');
}

/** The keys in `<dataDir>/keys`, made when missing; `progress` hears when that happens (first start only). */
export function loadKeys(dataDir: string, progress: (step: string) => void = () => {}): ServerKeys {
  const folder = path.resolve(dataDir, 'keys');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const pem = readOrCreate(path.join(folder, 'rsa-private.pem'), () => {
    progress(`Making the server's keys in ${folder} (first start only)…`);
    return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  });
  const secret = readOrCreate(path.join(folder, 'token-secret'), () => randomBytes(32).toString('hex'));
  const privateKey = createPrivateKey(pem);
  return {
    privateKey,
    publicSpki: createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64'),
    secret: Buffer.from(secret.trim(), 'hex'),
  };
}
