/**
 * Where the API is and the key its encrypted calls use. The site and the API
 * share an origin unless PUBLIC_API_URL says otherwise at build time; the
 * server's public key is baked in at build time (PUBLIC_API_PUBLIC_KEY) and
 * fetched from the server when the build has none.
 */
import { system } from '../../../contract/identity.ts';
import { importPublicKey } from './crypto.ts';

export const apiBase = `${(import.meta.env.PUBLIC_API_URL ?? '').replace(/\/$/, '')}/api`;

/** The HTTP timeout of spec §9. */
export const requestTimeoutMs = 100_000;

let publicKey: Promise<CryptoKey> | undefined;

async function fetchPublicKey(): Promise<string> {
  const response = await fetch(`${apiBase}${system.publicKey.path}`, { credentials: 'include' });
  const body = (await response.json()) as { data: { Spki: string } };
  return body.data.Spki;
}

export function serverPublicKey(): Promise<CryptoKey> {
  publicKey ??= Promise.resolve(import.meta.env.PUBLIC_API_PUBLIC_KEY || fetchPublicKey())
    .then(importPublicKey)
    .catch((error: unknown) => {
      publicKey = undefined;
      throw error;
    });
  return publicKey;
}
