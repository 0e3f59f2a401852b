/**
 * WeChat Pay APIv3's message security, as its documentation defines it: the
 * merchant signs each request (`Authorization: WECHATPAY2-SHA256-RSA2048 …`),
 * the platform signs each answer and notification (`Wechatpay-*` headers), and
 * a notification's resource is sealed with AES-256-GCM under the APIv3 key.
 * The payment adapter uses one side, the development sandbox the other.
 */
import { createCipheriv, createDecipheriv, createSecretKey, createVerify, randomBytes, type KeyObject } from 'node:crypto';
import { signSha256 } from './rsa-pool.ts';

export const authorizationScheme = 'WECHATPAY2-SHA256-RSA2048';

/** A signed message older or newer than this is refused (the documentation's five minutes). */
export const maxClockSkewSeconds = 300;

export class SignatureError extends Error {}

const nonce = () => randomBytes(16).toString('hex').toUpperCase();
const now = () => Math.floor(Date.now() / 1000);

function verify(message: string, signature: string, key: KeyObject): boolean {
  try {
    return createVerify('RSA-SHA256').update(message).verify(key, signature, 'base64');
  } catch {
    return false;
  }
}

export interface MerchantKey {
  mchid: string;
  /** The serial number of the merchant's certificate, so the platform knows which key to check with. */
  serial: string;
  privateKey: KeyObject;
}

/** The Authorization header of a request: `pathAndQuery` as sent, `body` exactly as sent ('' for a GET). Signed on the RSA pool's threads. */
export async function requestAuthorization(method: string, pathAndQuery: string, body: string, merchant: MerchantKey): Promise<string> {
  const [timestamp, nonceStr] = [String(now()), nonce()];
  const signature = await signSha256(merchant.privateKey, `${method}\n${pathAndQuery}\n${timestamp}\n${nonceStr}\n${body}\n`);
  return `${authorizationScheme} mchid="${merchant.mchid}",nonce_str="${nonceStr}",signature="${signature}",timestamp="${timestamp}",serial_no="${merchant.serial}"`;
}

export interface RequestSignature {
  mchid: string;
  serial: string;
  timestamp: string;
  nonce: string;
  signature: string;
}

/** The parts of an Authorization header; null when it is not one. */
export function parseAuthorization(header: string | undefined): RequestSignature | null {
  if (!header?.startsWith(`${authorizationScheme} `)) return null;
  const fields = Object.fromEntries([...header.slice(authorizationScheme.length + 1).matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]));
  const { mchid, serial_no: serial, timestamp, nonce_str: nonceStr, signature } = fields;
  return mchid && serial && timestamp && nonceStr && signature ? { mchid, serial, timestamp, nonce: nonceStr, signature } : null;
}

/** Whether a request's signature holds for the merchant's public key. */
export function requestSignatureHolds(method: string, pathAndQuery: string, body: string, parsed: RequestSignature, publicKey: KeyObject): boolean {
  return fresh(parsed.timestamp) && verify(`${method}\n${pathAndQuery}\n${parsed.timestamp}\n${parsed.nonce}\n${body}\n`, parsed.signature, publicKey);
}

export interface PlatformKey {
  serial: string;
  privateKey: KeyObject;
}

/** The `Wechatpay-*` headers the platform sends with an answer or a notification. */
export async function platformHeaders(body: string, platform: PlatformKey): Promise<Record<string, string>> {
  const [timestamp, nonceStr] = [String(now()), nonce()];
  return {
    'wechatpay-timestamp': timestamp,
    'wechatpay-nonce': nonceStr,
    'wechatpay-signature': await signSha256(platform.privateKey, `${timestamp}\n${nonceStr}\n${body}\n`),
    'wechatpay-serial': platform.serial,
  };
}

function fresh(timestamp: string): boolean {
  return /^\d{1,12}$/.test(timestamp) && Math.abs(now() - Number(timestamp)) <= maxClockSkewSeconds;
}

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Checks what the platform signed: its certificate's serial, the signature, and
 * a timestamp within five minutes. Answers the nonce, which a notification's
 * receiver must accept only once. Throws SignatureError.
 */
export function verifyPlatformSignature(headers: Headers, body: string, platform: { serial: string; publicKey: KeyObject }): string {
  const [timestamp, nonceStr, signature, serial] = ['Wechatpay-Timestamp', 'Wechatpay-Nonce', 'Wechatpay-Signature', 'Wechatpay-Serial'].map((name) =>
    header(headers, name),
  );
  if (!timestamp || !nonceStr || !signature || !serial) throw new SignatureError('unsigned');
  if (serial !== platform.serial) throw new SignatureError('unknown platform certificate');
  if (!fresh(timestamp)) throw new SignatureError('stale timestamp');
  if (!verify(`${timestamp}\n${nonceStr}\n${body}\n`, signature, platform.publicKey)) throw new SignatureError('bad signature');
  return nonceStr;
}

/** A notification's sealed `resource` (AEAD_AES_256_GCM). */
export interface SealedResource {
  algorithm: 'AEAD_AES_256_GCM';
  ciphertext: string;
  nonce: string;
  associated_data: string;
  original_type: string;
}

/** The APIv3 key as a KeyObject: node:crypto takes a Buffer key only after catching a thrown error, some 8 µs a cipher (crypto/sealed.ts). */
const apiV3KeyObject = (apiV3Key: string): KeyObject => createSecretKey(apiV3Key, 'utf8');

export function sealResource(plaintext: string, apiV3Key: string, originalType: string): SealedResource {
  const gcmNonce = randomBytes(6).toString('hex');
  const associated = originalType;
  const cipher = createCipheriv('aes-256-gcm', apiV3KeyObject(apiV3Key), Buffer.from(gcmNonce, 'utf8'));
  cipher.setAAD(Buffer.from(associated, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
  return { algorithm: 'AEAD_AES_256_GCM', ciphertext, nonce: gcmNonce, associated_data: associated, original_type: originalType };
}

/** The resource's plaintext; throws SignatureError when it was not sealed under this key (the tag does not hold). */
export function openResource(resource: SealedResource, apiV3Key: string): string {
  try {
    const sealed = Buffer.from(resource.ciphertext, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', apiV3KeyObject(apiV3Key), Buffer.from(resource.nonce, 'utf8'));
    decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    throw new SignatureError('resource does not open');
  }
}
