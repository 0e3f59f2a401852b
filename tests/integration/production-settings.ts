/**
 * Everything a production start needs besides its database: the SMS and
 * e-mail gateways, and a merchant's WeChat Pay files as an operator keeps them
 * (made once per test run, with keys of their own).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const payFiles = mkdtempSync(path.join(tmpdir(), 'beacon-pay-'));
writeFileSync(path.join(payFiles, 'merchant.pem'), generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
writeFileSync(path.join(payFiles, 'platform.pem'), generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }));

export const productionSettings = {
  PAYMENT_PROVIDER: 'wechatpay',
  WECHATPAY_MCHID: '1900000109',
  WECHATPAY_APPID: 'wx0000000000000001',
  WECHATPAY_MERCHANT_SERIAL: 'MERCHANT-SERIAL',
  WECHATPAY_MERCHANT_KEY_FILE: path.join(payFiles, 'merchant.pem'),
  WECHATPAY_PLATFORM_SERIAL: 'PLATFORM-SERIAL',
  WECHATPAY_PLATFORM_CERT_FILE: path.join(payFiles, 'platform.pem'),
  WECHATPAY_APIV3_KEY: 'an-apiv3-key-of-32-characters-xx',
  WECHATPAY_NOTIFY_URL: 'https://api.beacon.test/api/commerce/v1/notify/wechatpay',
  SMS_PROVIDER: 'http',
  SMS_GATEWAY_URL: 'http://127.0.0.1:9/sms',
  SMS_GATEWAY_SECRET: 'a-secret-of-sixteen-chars',
  EMAIL_PROVIDER: 'http',
  EMAIL_GATEWAY_URL: 'http://127.0.0.1:9/email',
  EMAIL_GATEWAY_SECRET: 'a-secret-of-sixteen-chars',
  STORE_URL: 'https://store.beacon.test',
  STORE_INTROSPECTION_SECRET: 'a-store-secret-of-thirty-two-chars',
  SELLER_NAME: 'Beacon Test Ltd.',
};
