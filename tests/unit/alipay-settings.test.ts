/** Alipay's settings: what the configuration refuses (and says so), and the key and certificate files read and checked at start. */
import { execFileSync } from 'node:child_process';
import { createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { alipayFromSettings } from '../../server/services/alipay-settings.ts';
import type { OutboundFetch } from '../../server/services/outbound-http.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'beacon-alipay-settings-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const written = path.join(folder, name);
  writeFileSync(written, content);
  return written;
};
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' });

const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
const alipayKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pemOf = (key: KeyObject) =>
  (key.type === 'private' ? key.export({ type: 'pkcs8', format: 'pem' }) : key.export({ type: 'spki', format: 'pem' })).toString();
const appKeyFile = file('app.key', pemOf(app.privateKey));
const alipayKeyFile = file('alipay.pub', pemOf(alipayKeys.publicKey));

const publicKeyMode = {
  PAYMENT_PROVIDER: 'alipay',
  ALIPAY_APP_ID: '2021000122671080',
  ALIPAY_SELLER_ID: '2088101122136241',
  ALIPAY_APP_KEY_FILE: appKeyFile,
  ALIPAY_PUBLIC_KEY_FILE: alipayKeyFile,
  ALIPAY_NOTIFY_URL: 'https://api.beacon.test/api/commerce/v1/notify/alipay',
};

/** Certificates as Alipay's open platform gives them, made by openssl: the app's (for `appKey`) and Alipay's, issued by a root. */
function certificateFiles(appKey = appKeyFile) {
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key', '-out', 'root.crt', '-days', '30', '-subj', '/C=CN/O=Test/CN=Root');
  const issue = (name: string, key: string) => {
    openssl('req', '-new', '-key', key, '-subj', `/C=CN/O=Test/CN=${name}`, '-out', `${name}.csr`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'root.crt', '-CAkey', 'root.key', '-set_serial', '0x1234', '-days', '30', '-out', `${name}.crt`);
    return path.join(folder, `${name}.crt`);
  };
  return {
    ALIPAY_APP_CERT_FILE: issue('app', appKey),
    ALIPAY_PUBLIC_CERT_FILE: issue('alipay', file('alipay.key', pemOf(alipayKeys.privateKey))),
    ALIPAY_ROOT_CERT_FILE: path.join(folder, 'root.crt'),
  };
}

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

const noFetch: OutboundFetch = () => Promise.reject(new Error('no call is made here'));
const fromSettings = (env: Record<string, string>) => alipayFromSettings(loadConfig(env), noFetch);
const startRefusal = (env: Record<string, string>) => {
  try {
    fromSettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the files were accepted');
};

describe('PAYMENT_PROVIDER', () => {
  it('is sandbox alone by default, or a list of real providers in the order given', () => {
    expect(loadConfig({}).PAYMENT_PROVIDER).toEqual(['sandbox']);
    expect(loadConfig({ ...publicKeyMode, PAYMENT_PROVIDER: 'alipay' }).PAYMENT_PROVIDER).toEqual(['alipay']);
    const both = {
      ...publicKeyMode,
      PAYMENT_PROVIDER: 'alipay, wechatpay',
      WECHATPAY_MCHID: '1900000109',
      WECHATPAY_APPID: 'wx0000000000000001',
      WECHATPAY_MERCHANT_SERIAL: 'MERCHANT-SERIAL',
      WECHATPAY_MERCHANT_KEY_FILE: appKeyFile,
      WECHATPAY_PLATFORM_SERIAL: 'PLATFORM-SERIAL',
      WECHATPAY_PLATFORM_CERT_FILE: alipayKeyFile,
      WECHATPAY_APIV3_KEY: 'an-apiv3-key-of-32-characters-xx',
      WECHATPAY_NOTIFY_URL: 'https://api.beacon.test/api/commerce/v1/notify/wechatpay',
    };
    expect(loadConfig(both).PAYMENT_PROVIDER).toEqual(['alipay', 'wechatpay']);
  });

  it('refuses the sandbox beside a real provider, a provider twice, an unknown one and none', () => {
    expect(refusal({ ...publicKeyMode, PAYMENT_PROVIDER: 'sandbox,alipay' })).toMatch(
      /sandbox stands in for every provider: it goes alone[\s\S]*→ at PAYMENT_PROVIDER/,
    );
    expect(refusal({ ...publicKeyMode, PAYMENT_PROVIDER: 'alipay,alipay' })).toMatch(/names a provider twice/);
    expect(refusal({ PAYMENT_PROVIDER: 'unionpay' })).toMatch(/must be sandbox, wechatpay or alipay/);
    expect(refusal({ PAYMENT_PROVIDER: ' , ' })).toMatch(/must name sandbox, or wechatpay, alipay or both/);
    expect(refusal({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' })).toMatch(
      /PAYMENT_PROVIDER=sandbox lets anyone approve their own payments: set PAYMENT_PROVIDER to wechatpay, alipay or both/,
    );
  });
});

describe("Alipay's settings", () => {
  it('names every missing setting when alipay is listed', () => {
    const message = refusal({ PAYMENT_PROVIDER: 'alipay' });
    for (const key of ['ALIPAY_APP_ID', 'ALIPAY_SELLER_ID', 'ALIPAY_APP_KEY_FILE', 'ALIPAY_NOTIFY_URL'])
      expect(message).toMatch(new RegExp(`required when PAYMENT_PROVIDER lists alipay\\n.*→ at ${key}`));
    expect(message).toMatch(
      /unless the app uses certificate mode: then set ALIPAY_APP_CERT_FILE, ALIPAY_PUBLIC_CERT_FILE, ALIPAY_ROOT_CERT_FILE instead\n.*→ at ALIPAY_PUBLIC_KEY_FILE/,
    );
    // Unlisted, Alipay's settings are not asked for.
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'sandbox' })).not.toThrow();
  });

  it('takes exactly one mode, and certificate mode whole', () => {
    const { ALIPAY_PUBLIC_KEY_FILE: _, ...neither } = publicKeyMode;
    expect(refusal(neither)).toMatch(/unless the app uses certificate mode[\s\S]*→ at ALIPAY_PUBLIC_KEY_FILE/);
    expect(refusal({ ...publicKeyMode, ALIPAY_ROOT_CERT_FILE: '/etc/beacon/alipay/alipayRootCert.crt' })).toMatch(
      /public-key mode \(ALIPAY_PUBLIC_KEY_FILE\) and certificate mode \(ALIPAY_ROOT_CERT_FILE\) exclude each other[\s\S]*→ at ALIPAY_PUBLIC_KEY_FILE/,
    );
    const partial = refusal({ ...neither, ALIPAY_APP_CERT_FILE: '/etc/beacon/alipay/appCertPublicKey.crt' });
    for (const key of ['ALIPAY_PUBLIC_CERT_FILE', 'ALIPAY_ROOT_CERT_FILE'])
      expect(partial).toMatch(new RegExp(`required with ALIPAY_APP_CERT_FILE: certificate mode needs all three certificates\\n.*→ at ${key}`));
    expect(partial).not.toMatch(/at ALIPAY_APP_CERT_FILE/);
  });

  it('refuses a seller that is not a partner id, an app id that is not one, and a notify URL that is not a URL', () => {
    expect(refusal({ ...publicKeyMode, ALIPAY_SELLER_ID: '2021000122671080' })).toMatch(
      /partner id \(PID\): 16 digits beginning with 2088[\s\S]*→ at ALIPAY_SELLER_ID/,
    );
    expect(refusal({ ...publicKeyMode, ALIPAY_SELLER_ID: '20881011221362411' })).toMatch(/→ at ALIPAY_SELLER_ID/);
    expect(refusal({ ...publicKeyMode, ALIPAY_APP_ID: 'app-2021' })).toMatch(/APPID, digits only[\s\S]*→ at ALIPAY_APP_ID/);
    expect(refusal({ ...publicKeyMode, ALIPAY_NOTIFY_URL: 'notify/alipay' })).toMatch(/→ at ALIPAY_NOTIFY_URL/);
  });

  it('takes a good configuration in either mode, with the gateway by default Alipay’s', () => {
    expect(loadConfig(publicKeyMode)).toMatchObject({ ALIPAY_URL: 'https://openapi.alipay.com/gateway.do', ALIPAY_SELLER_ID: '2088101122136241' });
    const { ALIPAY_PUBLIC_KEY_FILE: _, ...certificateMode } = publicKeyMode;
    expect(() =>
      loadConfig({ ...certificateMode, ALIPAY_APP_CERT_FILE: 'a.crt', ALIPAY_PUBLIC_CERT_FILE: 'b.crt', ALIPAY_ROOT_CERT_FILE: 'c.crt' }),
    ).not.toThrow();
  });
});

describe("Alipay's files, read at start", () => {
  /** Whether the wap.pay address the provider signs verifies under the app's public key: the key file was read as it is. */
  const signs = async (env: Record<string, string>) => {
    const address = await fromSettings(env).createPhone({
      outTradeNo: '20260201000000000001',
      description: 'Beacon',
      total: 100,
      expiresAt: new Date(Date.now() + 600_000),
      notifyUrl: publicKeyMode.ALIPAY_NOTIFY_URL,
      payerClientIp: '203.0.113.9',
      returnUrl: 'https://beacon.test/pay',
    });
    const params = Object.fromEntries(new URL(address).searchParams);
    const signed = Object.keys(params)
      .filter((name) => name !== 'sign')
      .sort()
      .map((name) => `${name}=${params[name]}`)
      .join('&');
    return createVerify('RSA-SHA256').update(signed).verify(app.publicKey, params.sign, 'base64');
  };

  it('reads PEM keys, and keys in the bare base64 Alipay’s tools write (PKCS#8 or PKCS#1)', async () => {
    expect(fromSettings(publicKeyMode).method).toBe('alipay');
    expect(await signs(publicKeyMode)).toBe(true);
    const bare = (der: Buffer) => der.toString('base64');
    const pkcs1 = file('app-pkcs1.txt', bare(app.privateKey.export({ type: 'pkcs1', format: 'der' })));
    const pkcs8 = file('app-pkcs8.txt', bare(app.privateKey.export({ type: 'pkcs8', format: 'der' })));
    const alipayBare = file('alipay-public.txt', `${bare(alipayKeys.publicKey.export({ type: 'spki', format: 'der' }))}\n`);
    expect(await signs({ ...publicKeyMode, ALIPAY_APP_KEY_FILE: pkcs1, ALIPAY_PUBLIC_KEY_FILE: alipayBare })).toBe(true);
    expect(await signs({ ...publicKeyMode, ALIPAY_APP_KEY_FILE: pkcs8 })).toBe(true);
    const rsaPem = file('app-pkcs1.pem', app.privateKey.export({ type: 'pkcs1', format: 'pem' }));
    expect(await signs({ ...publicKeyMode, ALIPAY_APP_KEY_FILE: rsaPem })).toBe(true);
  });

  it('refuses a file that cannot be read, is not a key, or holds a key of another kind, naming the setting and the file', () => {
    const missing = path.join(folder, 'nowhere.pem');
    expect(startRefusal({ ...publicKeyMode, ALIPAY_APP_KEY_FILE: missing })).toMatch(new RegExp(`^ALIPAY_APP_KEY_FILE=${missing} cannot be read: ENOENT`));
    const garbage = file('garbage.pem', 'not a key at all');
    expect(startRefusal({ ...publicKeyMode, ALIPAY_APP_KEY_FILE: garbage })).toMatch(
      new RegExp(`^ALIPAY_APP_KEY_FILE=${garbage} is not the app's private key \\(PEM, or the base64 Alipay shows\\)`),
    );
    // The public key where the private one belongs, and the other way round.
    expect(startRefusal({ ...publicKeyMode, ALIPAY_APP_KEY_FILE: alipayKeyFile })).toMatch(/^ALIPAY_APP_KEY_FILE=.* is not the app's private key/);
    expect(startRefusal({ ...publicKeyMode, ALIPAY_PUBLIC_KEY_FILE: appKeyFile })).toMatch(
      /^ALIPAY_PUBLIC_KEY_FILE=.* holds a private key, not Alipay's public key/,
    );
    const ec = file('ec.key', pemOf(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey));
    expect(startRefusal({ ...publicKeyMode, ALIPAY_APP_KEY_FILE: ec })).toMatch(
      /^ALIPAY_APP_KEY_FILE=.* is a ec key, not the app's private key as RSA2 needs it/,
    );
  });

  it('reads certificate mode’s files, and refuses an app certificate for another key or a file with no certificate', async () => {
    const { ALIPAY_PUBLIC_KEY_FILE: _, ...common } = publicKeyMode;
    const certificates = certificateFiles();
    expect(await signs({ ...common, ...certificates })).toBe(true);
    expect(startRefusal({ ...common, ...certificates, ALIPAY_ROOT_CERT_FILE: alipayKeyFile })).toMatch(/^ALIPAY_ROOT_CERT_FILE=.* holds no PEM certificate/);
    expect(startRefusal({ ...common, ...certificates, ALIPAY_APP_CERT_FILE: path.join(folder, 'nowhere.crt') })).toMatch(
      /^ALIPAY_APP_CERT_FILE=.* cannot be read/,
    );
    const other = certificateFiles(file('other.key', pemOf(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)));
    expect(startRefusal({ ...common, ...other })).toMatch(/^ALIPAY_APP_CERT_FILE=.* is not the certificate of the key in ALIPAY_APP_KEY_FILE=/);
  });
});
