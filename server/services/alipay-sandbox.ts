/**
 * The Alipay sandbox's credentials and addresses: an app's key pair and
 * Alipay's, made once per process. The sandbox (modules/dev/alipay) plays
 * Alipay's gateway with Alipay's side; the shop's Alipay adapter talks to it
 * with the app's side, exactly as it talks to the real gateway.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface AlipaySandboxCredentials {
  appId: string;
  /** The merchant's Alipay user id (seller_id): 16 digits starting 2088. */
  sellerId: string;
  appPrivateKey: KeyObject;
  appPublicKey: KeyObject;
  alipayPrivateKey: KeyObject;
  alipayPublicKey: KeyObject;
}

/** Where the sandbox answers, under the API base. */
export const alipaySandboxBasePath = '/dev/alipay';

/** The sandbox's gateway (Alipay's `https://openapi.alipay.com/gateway.do`). */
export const alipaySandboxGatewayPath = `${alipaySandboxBasePath}/gateway.do`;

/** The page a scanned code opens: the customer's phone in the Alipay app. */
export const alipaySandboxScanPath = `${alipaySandboxBasePath}/scan`;

/** The sandbox's codes, shaped as Alipay's (`https://qr.alipay.com/bax0…`): the id is the last segment. */
const qrCodePattern = /^https:\/\/qr\.alipay\.com\/(bax0[a-z0-9]+)$/;

let credentials: AlipaySandboxCredentials | undefined;

/** The sandbox's app and Alipay keys, made on first use and kept for the process. */
export function alipaySandboxCredentials(): AlipaySandboxCredentials {
  if (!credentials) {
    const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
    credentials = {
      appId: '2021000000000001',
      sellerId: '2088000000000001',
      appPrivateKey: app.privateKey,
      appPublicKey: app.publicKey,
      alipayPrivateKey: alipay.privateKey,
      alipayPublicKey: alipay.publicKey,
    };
  }
  return credentials;
}

/** The `qr_code` the sandbox answers for the id of a precreated trade. */
export const alipaySandboxQrCode = (id: string): string => `https://qr.alipay.com/${id}`;

/** The id in a sandbox `qr_code`, or null for any other text. */
export const alipaySandboxQrId = (qrCode: string): string | null => qrCodePattern.exec(qrCode)?.[1] ?? null;

/**
 * What the pay page's code shows in development: the sandbox's scan page for
 * the code (`apiOrigin` is where phones reach the API), which plays the
 * customer's phone after scanning. Any other code is left as it is.
 */
export function alipaySandboxScanTarget(qrCode: string, apiOrigin: string): string {
  const id = alipaySandboxQrId(qrCode);
  return id ? `${apiOrigin}/api${alipaySandboxScanPath}?code=${id}` : qrCode;
}

/**
 * The sandbox of this process as a shop's Alipay app, for a server in another
 * process to pay through it as through Alipay (the payment benchmark, the
 * deployment test): writes the app's private key (PKCS#8) and Alipay's public
 * key (SPKI) as PEM files into `folder`, and gives the ALIPAY_* settings an
 * operator would set, but the notification URL (the server's own).
 * `sandboxOrigin` is where this process's app listens.
 */
export function alipaySandboxMerchantSettings(folder: string, sandboxOrigin: string): Record<string, string> {
  const credentials = alipaySandboxCredentials();
  mkdirSync(folder, { recursive: true });
  const appKeyFile = path.join(folder, 'alipay-app-private.pem');
  const alipayKeyFile = path.join(folder, 'alipay-public.pem');
  writeFileSync(appKeyFile, credentials.appPrivateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(alipayKeyFile, credentials.alipayPublicKey.export({ type: 'spki', format: 'pem' }));
  return {
    ALIPAY_URL: `${sandboxOrigin}/api${alipaySandboxGatewayPath}`,
    ALIPAY_APP_ID: credentials.appId,
    ALIPAY_SELLER_ID: credentials.sellerId,
    ALIPAY_APP_KEY_FILE: appKeyFile,
    ALIPAY_PUBLIC_KEY_FILE: alipayKeyFile,
  };
}
