/**
 * The payment provider, `app.payments`: WeChat Pay with the merchant's files
 * (read and checked at start), or the development sandbox, which this server
 * itself plays on its loopback address (modules/dev) with the same protocol.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { commerceCalls } from '#contract/commerce.ts';
import { apiOrigin, siteOrigin, ConfigError, type Config } from '../config.ts';
import { sandboxBasePath, sandboxCredentials, sandboxPhonePagePath } from '../services/wechatpay-sandbox.ts';
import type { OutboundFetch } from '../services/outbound-http.ts';
import { wechatPay, type PaymentProvider } from '../services/wechatpay-adapter.ts';

declare module 'fastify' {
  interface FastifyInstance {
    payments: Payments;
  }
}

export interface Payments {
  /** Null until the server listens, for the sandbox (which it reaches through its own address). */
  provider(): PaymentProvider | null;
  notifyUrl(): string;
  /** What the customer scans: the provider's code URL, or for the sandbox its phone page on this site. */
  scanTarget(codeUrl: string): string;
  /** Where the phone's browser goes to pay in WeChat: the provider's h5_url, or for the sandbox its own page for it on this server. */
  phoneTarget(h5Url: string): string;
}

function readPem(file: string, setting: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${setting}=${file} cannot be read: ${(error as Error).message}`);
  }
}

/** WeChat Pay as configured; also what the operators' command uses when it runs without a server. */
export function realProvider(config: Config, fetch: OutboundFetch): Payments {
  const required = <K extends keyof Config>(key: K) => config[key] as NonNullable<Config[K]>;
  let merchantKey, platformKey;
  try {
    merchantKey = createPrivateKey(readPem(required('WECHATPAY_MERCHANT_KEY_FILE'), 'WECHATPAY_MERCHANT_KEY_FILE'));
    platformKey = createPublicKey(readPem(required('WECHATPAY_PLATFORM_CERT_FILE'), 'WECHATPAY_PLATFORM_CERT_FILE'));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`The WeChat Pay key files are not a PEM private key and a PEM certificate or public key: ${(error as Error).message}`);
  }
  const provider = wechatPay(
    {
      baseUrl: config.WECHATPAY_URL,
      appid: required('WECHATPAY_APPID'),
      merchant: { mchid: required('WECHATPAY_MCHID'), serial: required('WECHATPAY_MERCHANT_SERIAL'), privateKey: merchantKey },
      platform: { serial: required('WECHATPAY_PLATFORM_SERIAL'), publicKey: platformKey },
      apiV3Key: required('WECHATPAY_APIV3_KEY'),
    },
    fetch,
    config.PROVIDER_TIMEOUT_MS,
  );
  return { provider: () => provider, notifyUrl: () => required('WECHATPAY_NOTIFY_URL'), scanTarget: (codeUrl) => codeUrl, phoneTarget: (h5Url) => h5Url };
}

function loopbackOrigin(address: AddressInfo): string {
  const host =
    address.family === 'IPv6' ? (address.address === '::' ? '[::1]' : `[${address.address}]`) : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `http://${host}:${address.port}`;
}

function sandbox(app: FastifyInstance): Payments {
  let origin: string | null = null;
  let provider: PaymentProvider | null = null;
  app.server.once('listening', () => {
    const address = app.server.address();
    if (address && typeof address !== 'string') origin = loopbackOrigin(address);
  });
  return {
    // Made on the first payment, not at start: the sandbox's keys take a moment to generate and most runs never pay.
    provider() {
      if (!origin) return null;
      if (!provider) {
        const credentials = sandboxCredentials();
        provider = wechatPay(
          {
            baseUrl: `${origin}/api${sandboxBasePath}`,
            appid: credentials.appid,
            merchant: { mchid: credentials.mchid, serial: credentials.merchantSerial, privateKey: credentials.merchantPrivateKey },
            platform: { serial: credentials.platformSerial, publicKey: credentials.platformPublicKey },
            apiV3Key: credentials.apiV3Key,
          },
          app.outbound,
          app.config.PROVIDER_TIMEOUT_MS,
        );
      }
      return provider;
    },
    notifyUrl: () => `${origin}/api${commerceCalls.notify.path}`,
    scanTarget: (codeUrl) => `${siteOrigin(app.config)}/wechatpay?pr=${encodeURIComponent(new URL(codeUrl).searchParams.get('pr') ?? '')}`,
    // The sandbox's h5_url names WeChat's own page, as the real one does; its stand-in for that page answers on this server.
    phoneTarget: (h5Url) => `${apiOrigin(app.config)}/api${sandboxPhonePagePath}${new URL(h5Url).search}`,
  };
}

export default fp(
  async (app) => {
    app.decorate('payments', app.config.PAYMENT_PROVIDER === 'wechatpay' ? realProvider(app.config, app.outbound) : sandbox(app));
  },
  { name: 'payments', dependencies: ['config', 'outbound'] },
);
