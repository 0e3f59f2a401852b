/**
 * The payment providers, `app.payments`: WeChat Pay and Alipay as the
 * settings name them (their files read and checked at start), or in
 * development both sandboxes, which this server itself plays on its loopback
 * address (modules/dev) with the providers' own protocols. The pay page
 * offers the configured ones, in the order PAYMENT_PROVIDER lists them.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { commerceCalls } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { apiOrigin, siteOrigin, ConfigError, type Config } from '../config.ts';
import { ApiError } from '../http/api-error.ts';
import { alipay, type AlipayProvider } from '../services/alipay-adapter.ts';
import { alipaySandboxCredentials, alipaySandboxGatewayPath, alipaySandboxScanTarget } from '../services/alipay-sandbox.ts';
import { alipayFromSettings } from '../services/alipay-settings.ts';
import type { OutboundFetch } from '../services/outbound-http.ts';
import { providerMethods, type PaymentProvider, type ProviderMethod } from '../services/payment-provider.ts';
import { sandboxBasePath, sandboxCredentials, sandboxPhonePagePath } from '../services/wechatpay-sandbox.ts';
import { wechatPay, type WechatPayProvider } from '../services/wechatpay-adapter.ts';

declare module 'fastify' {
  interface FastifyInstance {
    payments: Payments;
  }
}

/** One provider as this server reaches it. */
export interface PaymentChannel<P> {
  /** Null until the server listens, for a sandbox (which it reaches through its own address). */
  provider(): P | null;
  notifyUrl(): string;
  /** What the customer scans: the provider's code, or for a sandbox its page for the scanning phone. */
  scanTarget(code: string): string;
  /** Where the phone's browser goes to pay: the provider's address, or for a sandbox its own page for it on this server. */
  phoneTarget(url: string): string;
}

interface Channels {
  wechatpay: PaymentChannel<WechatPayProvider>;
  alipay: PaymentChannel<AlipayProvider>;
}

export interface Payments {
  /** The providers customers may pay with here, in the order offered (the wallet comes after them). */
  readonly methods: readonly ProviderMethod[];
  /** A configured provider; refuses one this server does not take as an unsupported payment type. */
  channel<M extends ProviderMethod>(method: M): Channels[M];
  /** A configured provider's adapter, or null (not configured, or a sandbox not listening yet). */
  provider(method: ProviderMethod): PaymentProvider | null;
}

function readPem(file: string, setting: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${setting}=${file} cannot be read: ${(error as Error).message}`);
  }
}

/** WeChat Pay as configured. */
function realWechatPay(config: Config, fetch: OutboundFetch): PaymentChannel<WechatPayProvider> {
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
  return { provider: () => provider, notifyUrl: () => required('WECHATPAY_NOTIFY_URL'), scanTarget: (code) => code, phoneTarget: (url) => url };
}

/** Alipay as configured. */
function realAlipay(config: Config, fetch: OutboundFetch): PaymentChannel<AlipayProvider> {
  const provider = alipayFromSettings(config, fetch);
  return { provider: () => provider, notifyUrl: () => config.ALIPAY_NOTIFY_URL!, scanTarget: (code) => code, phoneTarget: (url) => url };
}

function loopbackOrigin(address: AddressInfo): string {
  const host =
    address.family === 'IPv6' ? (address.address === '::' ? '[::1]' : `[${address.address}]`) : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `http://${host}:${address.port}`;
}

/** This server's loopback address once it listens: the sandboxes are reached through it. */
function ownOrigin(app: FastifyInstance): () => string | null {
  let origin: string | null = null;
  app.server.once('listening', () => {
    const address = app.server.address();
    if (address && typeof address !== 'string') origin = loopbackOrigin(address);
  });
  return () => origin;
}

/** Made on the first payment, not at start: the sandbox's keys take a moment to generate and most runs never pay. */
function onFirstUse<P>(origin: () => string | null, make: (origin: string) => P): () => P | null {
  let made: P | null = null;
  return () => {
    const reached = origin();
    if (!reached) return null;
    made ??= make(reached);
    return made;
  };
}

function wechatPaySandbox(app: FastifyInstance, origin: () => string | null): PaymentChannel<WechatPayProvider> {
  return {
    provider: onFirstUse(origin, (reached) => {
      const credentials = sandboxCredentials();
      return wechatPay(
        {
          baseUrl: `${reached}/api${sandboxBasePath}`,
          appid: credentials.appid,
          merchant: { mchid: credentials.mchid, serial: credentials.merchantSerial, privateKey: credentials.merchantPrivateKey },
          platform: { serial: credentials.platformSerial, publicKey: credentials.platformPublicKey },
          apiV3Key: credentials.apiV3Key,
        },
        app.outbound,
        app.config.PROVIDER_TIMEOUT_MS,
      );
    }),
    notifyUrl: () => `${origin()}/api${commerceCalls.notify.path}`,
    scanTarget: (code) => `${siteOrigin(app.config)}/wechatpay?pr=${encodeURIComponent(new URL(code).searchParams.get('pr') ?? '')}`,
    // The sandbox's h5_url names WeChat's own page, as the real one does; its stand-in for that page answers on this server.
    phoneTarget: (url) => `${apiOrigin(app.config)}/api${sandboxPhonePagePath}${new URL(url).search}`,
  };
}

function alipaySandbox(app: FastifyInstance, origin: () => string | null): PaymentChannel<AlipayProvider> {
  return {
    provider: onFirstUse(origin, (reached) => {
      const credentials = alipaySandboxCredentials();
      return alipay(
        {
          gateway: `${reached}/api${alipaySandboxGatewayPath}`,
          appId: credentials.appId,
          sellerId: credentials.sellerId,
          appPrivateKey: credentials.appPrivateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          alipayPublicKey: credentials.alipayPublicKey.export({ type: 'spki', format: 'pem' }).toString(),
        },
        app.outbound,
        app.config.PROVIDER_TIMEOUT_MS,
      );
    }),
    notifyUrl: () => `${origin()}/api${commerceCalls.notifyAlipay.path}`,
    scanTarget: (code) => alipaySandboxScanTarget(code, apiOrigin(app.config)),
    // The wap.pay address names the gateway at this server's loopback address; the phone reaches the same page at its public one.
    phoneTarget: (url) => `${apiOrigin(app.config)}/api${alipaySandboxGatewayPath}${new URL(url).search}`,
  };
}

/** The configured providers: the real ones the settings name, or both sandboxes. */
function paymentsOf(app: FastifyInstance): Payments {
  const configured: Partial<Channels> = {};
  const settings = app.config.PAYMENT_PROVIDER;
  if (settings.includes('sandbox')) {
    const origin = ownOrigin(app);
    configured.wechatpay = wechatPaySandbox(app, origin);
    configured.alipay = alipaySandbox(app, origin);
  } else {
    if (settings.includes('wechatpay')) configured.wechatpay = realWechatPay(app.config, app.outbound);
    if (settings.includes('alipay')) configured.alipay = realAlipay(app.config, app.outbound);
  }
  const methods = providerMethods.filter((method) => configured[method]).sort((a, b) => settings.indexOf(a) - settings.indexOf(b));
  function channel<M extends ProviderMethod>(method: M): Channels[M] {
    const found = configured[method];
    if (!found) throw new ApiError(ErrorCode.PayMethodUnsupported, 'payMethodUnsupported');
    return found as Channels[M];
  }
  return { methods, channel, provider: (method) => configured[method]?.provider() ?? null };
}

export default fp(
  async (app) => {
    app.decorate('payments', paymentsOf(app));
  },
  { name: 'payments', dependencies: ['config', 'outbound'] },
);
