/**
 * The payment sandbox's credentials: a merchant and a platform key pair and an
 * APIv3 key, made once per process. The sandbox (modules/dev) plays WeChat Pay
 * with the platform side; the payment adapter (modules/commerce) talks to it
 * with the merchant side, exactly as it talks to the real provider.
 */
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface SandboxCredentials {
  mchid: string;
  appid: string;
  merchantSerial: string;
  merchantPrivateKey: KeyObject;
  merchantPublicKey: KeyObject;
  platformSerial: string;
  platformPrivateKey: KeyObject;
  platformPublicKey: KeyObject;
  apiV3Key: string;
}

/** Where the sandbox answers, under the API base. */
export const sandboxBasePath = '/dev/wechatpay';

/** The sandbox's stand-in for WeChat Pay's H5 page (its h5_url), where a phone's browser pays or declines. */
export const sandboxPhonePagePath = `${sandboxBasePath}/checkmweb`;

let credentials: SandboxCredentials | undefined;

export function sandboxCredentials(): SandboxCredentials {
  if (!credentials) {
    const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
    credentials = {
      mchid: '1900000109',
      appid: 'wxd0000000sandbox',
      merchantSerial: randomBytes(20).toString('hex').toUpperCase(),
      merchantPrivateKey: merchant.privateKey,
      merchantPublicKey: merchant.publicKey,
      platformSerial: randomBytes(20).toString('hex').toUpperCase(),
      platformPrivateKey: platform.privateKey,
      platformPublicKey: platform.publicKey,
      apiV3Key: randomBytes(16).toString('hex'),
    };
  }
  return credentials;
}

/**
 * The sandbox of this process as a shop's merchant account, for a production
 * server in another process to pay through it as through WeChat Pay (the
 * payment benchmark, the deployment test): writes the merchant's private key
 * and the platform's public key as PEM files into `folder`, and gives the
 * WECHATPAY_* settings an operator would set, but the notification URL (the
 * server's own). `sandboxOrigin` is where this process's app listens.
 */
export function sandboxMerchantSettings(folder: string, sandboxOrigin: string): Record<string, string> {
  const credentials = sandboxCredentials();
  mkdirSync(folder, { recursive: true });
  const merchantKeyFile = path.join(folder, 'merchant.pem');
  const platformKeyFile = path.join(folder, 'platform.pem');
  writeFileSync(merchantKeyFile, credentials.merchantPrivateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(platformKeyFile, credentials.platformPublicKey.export({ type: 'spki', format: 'pem' }));
  return {
    PAYMENT_PROVIDER: 'wechatpay',
    WECHATPAY_URL: `${sandboxOrigin}/api${sandboxBasePath}`,
    WECHATPAY_MCHID: credentials.mchid,
    WECHATPAY_APPID: credentials.appid,
    WECHATPAY_MERCHANT_SERIAL: credentials.merchantSerial,
    WECHATPAY_MERCHANT_KEY_FILE: merchantKeyFile,
    WECHATPAY_PLATFORM_SERIAL: credentials.platformSerial,
    WECHATPAY_PLATFORM_CERT_FILE: platformKeyFile,
    WECHATPAY_APIV3_KEY: credentials.apiV3Key,
  };
}
