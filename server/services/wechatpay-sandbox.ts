/**
 * The payment sandbox's credentials: a merchant and a platform key pair and an
 * APIv3 key, made once per process. The sandbox (modules/dev) plays WeChat Pay
 * with the platform side; the payment adapter (modules/commerce) talks to it
 * with the merchant side, exactly as it talks to the real provider.
 */
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

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
