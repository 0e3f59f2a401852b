/**
 * The sealed-body format of contract/crypto.ts on WebCrypto: a fresh AES-256
 * key and IV per request, the key wrapped with the server's RSA-OAEP-SHA256
 * public key; the answer comes back sealed with the same AES key.
 */
import { encryption } from '#contract/crypto.ts';

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

export function importPublicKey(spkiBase64: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('spki', fromBase64(spkiBase64), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
}

export interface Sealer {
  /** Hex of the wrapped AES key, for the `encryption.keyHeader` header. */
  wrappedKey: string;
  /** The AES key itself (base64), for a caller that must read an answer after leaving the page (quick login). */
  rawKey: string;
  seal(plaintext: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

async function aesSeal(key: CryptoKey, plaintext: string): Promise<Uint8Array> {
  const iv = crypto.getRandomValues(new Uint8Array(encryption.ivBytes));
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, key, new TextEncoder().encode(plaintext)));
  const sealed = new Uint8Array(iv.length + ciphertext.length);
  sealed.set(iv);
  sealed.set(ciphertext, iv.length);
  return sealed;
}

async function aesOpen(key: CryptoKey, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const plaintext = await crypto.subtle.decrypt({ name: 'AES-CBC', iv: bytes.subarray(0, encryption.ivBytes) }, key, bytes.subarray(encryption.ivBytes));
  return new TextDecoder().decode(plaintext);
}

/** Makes the per-request key; seal the body with it and open the answer with it. */
export async function createSealer(publicKey: CryptoKey): Promise<Sealer> {
  const key = await crypto.subtle.generateKey({ name: 'AES-CBC', length: encryption.aesKeyBytes * 8 }, true, ['encrypt', 'decrypt']);
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', key));
  const wrapped = new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, raw));
  return {
    wrappedKey: toHex(wrapped),
    rawKey: toBase64(raw),
    seal: async (plaintext) => toBase64(await aesSeal(key, plaintext)),
    open: (sealed) => aesOpen(key, fromBase64(sealed)),
  };
}

/** The same format hex-encoded, under a key kept as `Sealer.rawKey`: for values that travel in a URL (the quick login's token and outcome). */
export async function hexSealer(rawKey: string): Promise<{ seal(plaintext: string): Promise<string>; open(hex: string): Promise<string> }> {
  const key = await crypto.subtle.importKey('raw', fromBase64(rawKey), { name: 'AES-CBC' }, false, ['encrypt', 'decrypt']);
  return {
    seal: async (plaintext) => toHex(await aesSeal(key, plaintext)),
    open: (hex) =>
      aesOpen(
        key,
        Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16)),
      ),
  };
}

/**
 * The headers and body of one call: sealed with `sealer` for encrypted calls,
 * plain JSON otherwise. The site's client and the tests both build requests here.
 */
export async function requestParts(
  options: { body?: unknown; token?: string | null; locale: string },
  sealer: Sealer | null,
): Promise<{ headers: Record<string, string>; body?: string }> {
  const headers: Record<string, string> = { 'accept-language': options.locale };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (sealer) headers[encryption.keyHeader] = sealer.wrappedKey;
  if (options.body === undefined) return { headers };
  const json = JSON.stringify(options.body);
  headers['content-type'] = sealer ? encryption.contentType : 'application/json';
  return { headers, body: sealer ? await sealer.seal(json) : json };
}
