/**
 * Password hashes: argon2id (node:crypto) at OWASP's recommended cost — 19 MiB,
 * two passes, one lane — stored in the PHC string format
 * (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`). Hashes of the scheme
 * before it (`scrypt$N$r$p$salt$hash`, N=2^14) still verify, and a login that
 * succeeds with one replaces it (`needsRehash`).
 */
import { argon2, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const cost = { m: 19_456, t: 2, p: 1 } as const;
const keyLength = 32;

/** PHC strings carry base64 without padding. */
const unpadded = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

function deriveArgon2(password: string, salt: Buffer, m: number, t: number, p: number): Promise<Buffer> {
  const parameters = { message: password.normalize('NFKC'), nonce: salt, memory: m, passes: t, parallelism: p, tagLength: keyLength };
  return new Promise((resolve, reject) => argon2('argon2id', parameters, (error, key) => (error ? reject(error) : resolve(key))));
}

function deriveScrypt(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyLength, { N, r, p, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await deriveArgon2(password, salt, cost.m, cost.t, cost.p);
  return `$argon2id$v=19$m=${cost.m},t=${cost.t},p=${cost.p}$${unpadded(salt)}$${unpadded(key)}`;
}

/** The key a stored hash expects for `password`, by the hash's own scheme and cost; null for a hash this server never wrote. */
async function keysOf(password: string, stored: string): Promise<{ key: Buffer; expected: Buffer } | null> {
  const argon = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
  if (argon) {
    const [, m, t, p, salt, hash] = argon;
    return { key: await deriveArgon2(password, Buffer.from(salt, 'base64'), Number(m), Number(t), Number(p)), expected: Buffer.from(hash, 'base64') };
  }
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return null;
  return { key: await deriveScrypt(password, Buffer.from(salt, 'base64'), Number(N), Number(r), Number(p)), expected: Buffer.from(hash, 'base64') };
}

/** A hash of nothing, so checking an unknown account costs as much as checking a real one. */
const decoy = await hashPassword(randomBytes(16).toString('hex'));

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const keys = await keysOf(password, stored ?? decoy);
  return stored !== null && keys !== null && keys.key.length === keys.expected.length && timingSafeEqual(keys.key, keys.expected);
}

/** Whether a hash that just verified should be replaced by one of today's scheme and cost. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(`$argon2id$v=19$m=${cost.m},t=${cost.t},p=${cost.p}$`);
}
