/**
 * Alipay as the ALIPAY_* settings describe it. The key and certificate files
 * are read and checked when the server starts, so a wrong file stops it with
 * a message naming the setting and the file, not the first customer who pays.
 * Keys may be PEM, or the bare base64 Alipay's key tool writes and its open
 * platform shows; certificates are the PEM files the open platform gives.
 */
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError, type Config } from '../config.ts';
import { alipay, type AlipayCredentials, type AlipayProvider } from './alipay-adapter.ts';
import type { OutboundFetch } from './outbound-http.ts';

type FileSetting = 'ALIPAY_APP_KEY_FILE' | 'ALIPAY_PUBLIC_KEY_FILE' | 'ALIPAY_APP_CERT_FILE' | 'ALIPAY_PUBLIC_CERT_FILE' | 'ALIPAY_ROOT_CERT_FILE';

/** A setting's value, or a ConfigError saying it is missing. */
function required<K extends keyof Config>(config: Config, key: K): NonNullable<Config[K]> {
  const value = config[key];
  if (value === undefined || value === null || value === '') throw new ConfigError(`${key} is required when PAYMENT_PROVIDER lists alipay`);
  return value;
}

/** The file a setting names, as text, and where it came from for messages. */
function readSetting(config: Config, setting: FileSetting): { text: string; source: string } {
  const file = required(config, setting);
  const source = `${setting}=${file}`;
  try {
    return { text: readFileSync(file, 'utf8'), source };
  } catch (error) {
    throw new ConfigError(`${source} cannot be read: ${(error as Error).message}`);
  }
}

/** A key written as PEM, or as the bare base64 of its DER: that is read as PEM under each label in turn. */
function keyOf(text: string, labels: readonly string[], make: (pem: string) => KeyObject): KeyObject {
  if (text.includes('-----BEGIN')) return make(text);
  const body = (text.replace(/\s+/g, '').match(/.{1,64}/g) ?? []).join('\n');
  let failure: unknown;
  for (const label of labels) {
    try {
      return make(`-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`);
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

/** The RSA key in a setting's file: Alipay's RSA2 signs with RSA (SHA256withRSA). */
function rsaKey(config: Config, setting: 'ALIPAY_APP_KEY_FILE' | 'ALIPAY_PUBLIC_KEY_FILE'): KeyObject {
  const { text, source } = readSetting(config, setting);
  const kind = setting === 'ALIPAY_APP_KEY_FILE' ? "the app's private key" : "Alipay's public key";
  // Node would derive a public key from a private one: the app's own key here would pass, and no answer would ever verify.
  if (setting === 'ALIPAY_PUBLIC_KEY_FILE' && /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text))
    throw new ConfigError(`${source} holds a private key, not ${kind}: take Alipay's public key from the open platform`);
  let key: KeyObject;
  try {
    key = setting === 'ALIPAY_APP_KEY_FILE' ? keyOf(text, ['PRIVATE KEY', 'RSA PRIVATE KEY'], createPrivateKey) : keyOf(text, ['PUBLIC KEY'], createPublicKey);
  } catch (error) {
    throw new ConfigError(`${source} is not ${kind} (PEM, or the base64 Alipay shows): ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'rsa') throw new ConfigError(`${source} is a ${key.asymmetricKeyType} key, not ${kind} as RSA2 needs it: an RSA key`);
  return key;
}

/** The certificates in a setting's PEM file, each checked; the first is the one the file is for (a file may carry its issuers after it). */
function certificates(
  config: Config,
  setting: 'ALIPAY_APP_CERT_FILE' | 'ALIPAY_PUBLIC_CERT_FILE' | 'ALIPAY_ROOT_CERT_FILE',
): { pem: string; first: X509Certificate } {
  const { text, source } = readSetting(config, setting);
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new ConfigError(`${source} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  try {
    const [first] = blocks.map((block) => new X509Certificate(block));
    return { pem: text, first };
  } catch (error) {
    throw new ConfigError(`${source} holds a certificate that cannot be read: ${(error as Error).message}`);
  }
}

/** The Alipay adapter as configured, its files read and checked; also what the operators' command uses when it runs without a server. */
export function alipayFromSettings(config: Config, fetch: OutboundFetch): AlipayProvider {
  const appKey = rsaKey(config, 'ALIPAY_APP_KEY_FILE');
  const credentials: AlipayCredentials = {
    gateway: config.ALIPAY_URL,
    appId: required(config, 'ALIPAY_APP_ID'),
    sellerId: required(config, 'ALIPAY_SELLER_ID'),
    appPrivateKey: appKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  if (config.ALIPAY_PUBLIC_KEY_FILE) {
    credentials.alipayPublicKey = rsaKey(config, 'ALIPAY_PUBLIC_KEY_FILE').export({ type: 'spki', format: 'pem' }).toString();
  } else {
    const [appCert, alipayPublicCert, alipayRootCert] = [
      certificates(config, 'ALIPAY_APP_CERT_FILE'),
      certificates(config, 'ALIPAY_PUBLIC_CERT_FILE'),
      certificates(config, 'ALIPAY_ROOT_CERT_FILE'),
    ];
    // Alipay checks requests against the key in the app's certificate: one for another key would have every request refused.
    if (!appCert.first.checkPrivateKey(appKey))
      throw new ConfigError(
        `ALIPAY_APP_CERT_FILE=${config.ALIPAY_APP_CERT_FILE} is not the certificate of the key in ALIPAY_APP_KEY_FILE=${config.ALIPAY_APP_KEY_FILE}: ` +
          "download the app's public-key certificate issued for that key from Alipay's open platform",
      );
    if (alipayPublicCert.first.publicKey.asymmetricKeyType !== 'rsa')
      throw new ConfigError(
        `ALIPAY_PUBLIC_CERT_FILE=${config.ALIPAY_PUBLIC_CERT_FILE} is not Alipay's RSA2 public-key certificate (alipayCertPublicKey_RSA2.crt)`,
      );
    credentials.certificates = { appCert: appCert.pem, alipayPublicCert: alipayPublicCert.pem, alipayRootCert: alipayRootCert.pem };
  }
  try {
    return alipay(credentials, fetch, config.PROVIDER_TIMEOUT_MS);
  } catch (error) {
    // What alipay-sdk could not take: it reads the certificates' serial numbers with a parser of its own.
    throw new ConfigError(`alipay-sdk cannot use the ALIPAY_* key or certificate files: ${(error as Error).message}`);
  }
}
