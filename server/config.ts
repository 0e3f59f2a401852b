import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { localeSegment, type LocaleCode } from '#contract/locales.ts';
import { hubTiming } from '#contract/realtime.ts';
import { defaultSiteUrl } from '#contract/site.ts';
import { messageSettingIssues, messageSettings } from './messages/settings.ts';
import { StartupError } from './startup-error.ts';

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const list = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/** A network (`10.0.0.0/8`), an address (`127.0.0.1`, `[::1]`) or a host name. */
function isNetworkOrHost(entry: string): boolean {
  const bare = entry.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValidCIDR(bare) || ipaddr.isValid(bare) || /^[a-z\d-]+(\.[a-z\d-]+)*$/i.test(entry);
}

/** What PAYMENT_PROVIDER may list: the development sandbox (alone), or the real providers the shop takes, in the order the pay page offers them. */
const paymentProviders = ['sandbox', 'wechatpay', 'alipay'] as const;

const wechatPaySettings = [
  'WECHATPAY_MCHID',
  'WECHATPAY_APPID',
  'WECHATPAY_MERCHANT_SERIAL',
  'WECHATPAY_MERCHANT_KEY_FILE',
  'WECHATPAY_PLATFORM_SERIAL',
  'WECHATPAY_PLATFORM_CERT_FILE',
  'WECHATPAY_APIV3_KEY',
  'WECHATPAY_NOTIFY_URL',
] as const;

const alipaySettings = ['ALIPAY_APP_ID', 'ALIPAY_SELLER_ID', 'ALIPAY_APP_KEY_FILE', 'ALIPAY_NOTIFY_URL'] as const;
/** Alipay's certificate mode: all three files, instead of ALIPAY_PUBLIC_KEY_FILE. */
const alipayCertificateSettings = ['ALIPAY_APP_CERT_FILE', 'ALIPAY_PUBLIC_CERT_FILE', 'ALIPAY_ROOT_CERT_FILE'] as const;

/** The 32 bytes a KEYS_SEALING_KEY writes as hex or base64, or null when it is neither. */
function sealingKeyOf(value: string): Buffer | null {
  const trimmed = value.trim();
  if (/^[\da-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z\d+/]{43}=?$/.test(trimmed)) return Buffer.from(trimmed, 'base64');
  return null;
}

/** The settings of an uploads bucket; the optional ones only with the others. */
const bucketSettings = ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE'] as const;
const bucketOptional = new Set<string>(['S3_ENDPOINT', 'S3_FORCE_PATH_STYLE']);

/** One line of the seller's details on receipts; empty (as a settings file writes "not shown") is unset. */
const sellerDetail = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || undefined)
    .optional();

/** Whether DATABASE_URL names a PostgreSQL server (else an embedded PGlite). */
export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//.test(url);

/** DATABASE_CONNECT_TIMEOUT's default, in seconds. */
export const defaultConnectTimeoutSeconds = 30;

const schema = z
  .object({
    /** `production` refuses every development stand-in; anything else runs them and checks answers against the contract. */
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(4321),
    HOST: z.string().min(1).default('localhost'),
    /**
     * Serves Prometheus metrics (docs/metrics.md) at http://METRICS_HOST:METRICS_PORT/metrics, a listener of its own;
     * unset, there is none and nothing is counted. Several instances on one host each need their own port.
     */
    METRICS_PORT: z
      .string()
      .regex(/^\d{1,5}$/, 'must be a port number')
      .transform(Number)
      .pipe(z.number().max(65535))
      .optional(),
    /** Where the metrics listener binds: loopback by default, as the metrics are for the operators' Prometheus, not the public. */
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    /** The built site that is served (astro build output). */
    SITE_DIR: z.string().min(1).default('dist'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** `file://<folder>` (embedded PGlite), `memory://` (tests) or `postgres://…`. */
    DATABASE_URL: z
      .string()
      .regex(/^(file:\/\/.+|memory:\/\/|postgres(ql)?:\/\/.+)$/, 'must be file://<folder>, memory:// or postgres://…')
      .default('file://./data/db'),
    /** How long, in seconds, PostgreSQL may take to accept a connection before a start (or a request) fails saying so. */
    DATABASE_CONNECT_TIMEOUT: z.coerce.number().int().positive().default(defaultConnectTimeoutSeconds),
    /** Holds the generated keys (keys/, unless KEYS_SEALING_KEY keeps them in the database), shared by every instance of one deployment. */
    DATA_DIR: z.string().min(1).default('data'),
    /**
     * Keeps the server's keys in the database, sealed with this key, so instances on several hosts share them
     * without a shared folder (docs/keys.md): 32 bytes as 64 hex digits or base64 (`openssl rand -hex 32`).
     * Unset, they live in DATA_DIR/keys.
     */
    KEYS_SEALING_KEY: z
      .string()
      .refine((value) => sealingKeyOf(value) !== null, 'must be 32 bytes written as 64 hex digits or in base64: make one with `openssl rand -hex 32`')
      .transform((value) => sealingKeyOf(value)!)
      .optional(),
    /** Seeds a demo account on an empty database; by default only an embedded one outside production. */
    DEMO_DATA: flag.optional(),
    /** Origins of sites on other hosts allowed to call the API with credentials. */
    CORS_ORIGINS: list.default([]),
    /** Behind a reverse proxy, take the client address from X-Forwarded-For. */
    TRUST_PROXY: flag.default(false),
    /** Requests per minute and client address to the API as a whole. */
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
    /** The most a support user may bring one order's refunds to (everyone's that did not fail, theirs included), in fen; operators and admins have no limit. */
    SUPPORT_REFUND_LIMIT_FEN: z.coerce.number().int().min(0).default(10_000),
    /** The most one support user may refund in 24 hours (their own refunds that did not fail), in fen. */
    SUPPORT_REFUND_DAILY_LIMIT_FEN: z.coerce.number().int().min(0).default(50_000),
    /** Login attempts per minute and client address; code sends get a quarter of it. */
    IDENTITY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(4).default(20),
    /**
     * Codes (SMS and e-mail) sent in a day for one client address. Many customers of a mobile
     * carrier share one address (carrier-grade NAT), so this is a backstop sized for that; the
     * main guard is the cap per phone number or e-mail address (facts: verification.codesPerDay).
     */
    CODES_PER_ADDRESS_PER_DAY: z.coerce.number().int().positive().default(1000),
    /**
     * A login code is sent only after a proof of work (a challenge the browser solves, docs/security.md) to a
     * client address (IPv6 by its /64) that has asked in the last hour for codes to more than this many
     * different numbers or e-mail addresses…
     */
    CODE_CHALLENGE_TARGETS_PER_HOUR: z.coerce.number().int().min(0).default(5),
    /** …or for more than this many codes; */
    CODE_CHALLENGE_CODES_PER_HOUR: z.coerce.number().int().min(0).default(10),
    /** and to everyone once the shop has sent more than this many codes in the last hour (what stops pumping from many addresses). */
    CODE_CHALLENGE_SHOP_CODES_PER_HOUR: z.coerce.number().int().min(0).default(500),
    /** A challenge's work: the browser tries on average three quarters of this many keys (PBKDF2 of 1,000 rounds each). */
    CODE_CHALLENGE_WORK: z.coerce.number().int().min(2).max(1_000_000).default(10_000),
    /** Registration e-mail checks (they tell whether an address has an account) per hour and client address. */
    REGISTER_EMAIL_CHECKS_PER_HOUR: z.coerce.number().int().positive().default(20),
    /** Where `/basic/customer/service` sends a logged-in user (a signed user reference is appended). */
    CUSTOMER_SERVICE_URL: z.string().min(1).default('/contact'),
    /**
     * Who sells, as every receipt names them: the seller's (legal) name, address, tax number and how to reach them.
     * Unset outside production, all four are the demo shop's (demoSeller); production needs at least the name.
     */
    SELLER_NAME: sellerDetail(200),
    SELLER_ADDRESS: sellerDetail(300),
    SELLER_TAX_ID: sellerDetail(60),
    SELLER_CONTACT: sellerDetail(200),
    /** The external store's address; its OAuth verifier is at /oauth/verifier under it. Unset outside production: the development store at /api/dev/store. */
    STORE_URL: z.url().optional(),
    /** What the store sends (as a bearer token) to check a store token; unset outside production: derived from the server secret, known to the development store. */
    STORE_INTROSPECTION_SECRET: z.string().min(32).optional(),
    /** The site's public address (as for the build); every absolute link the server makes leads there (see `siteOrigin`). */
    SITE_URL: z.url().optional(),
    /** Set when the site calls an API on another origin, as `https://api.example.com` (also set for the site build, which calls it). */
    PUBLIC_API_ORIGIN: z
      .url()
      .refine((value) => new URL(value).origin === value.replace(/\/$/, ''), 'must be an origin only, such as https://api.example.com (no path)')
      .transform((value) => new URL(value).origin)
      .optional(),
    /** Several instances share rate limits and realtime pushes through this Redis (`redis://…`). */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\/.+/, 'must be redis://… or rediss://…')
      .optional(),
    /** The hub pings a connection it has sent nothing to for this long. */
    HUB_KEEP_ALIVE_MS: z.coerce.number().int().min(50).default(hubTiming.keepAliveMs),
    /** The hub drops a connection it has heard nothing from for this long (clients ping every 15 s). */
    HUB_TIMEOUT_MS: z.coerce.number().int().min(100).default(hubTiming.timeoutMs),
    /** A long poll with nothing to deliver is answered empty after this long. */
    HUB_LONG_POLL_MS: z.coerce.number().int().min(50).max(99_000).default(hubTiming.longPollMs),
    /** How long an outbound HTTP call (services/outbound-http.ts) may take, from connecting to the answer's last byte. */
    OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    /** How long a call to WeChat Pay, Alipay or the SMS and e-mail providers may take (a customer waits on most): a slow provider is given up on sooner; at most OUTBOUND_TIMEOUT_MS. */
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
    /** The most an outside service's answer may hold; reading stops past it. */
    OUTBOUND_MAX_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
    /** Networks (CIDR or one address) and host names outbound calls may reach in production although they are not public, such as a gateway on the private network. */
    OUTBOUND_ALLOWED_NETWORKS: list
      .pipe(z.array(z.string().refine(isNetworkOrHost, 'must be networks (10.0.0.0/8), addresses or host names, separated by commas')))
      .default([]),
    // Uploads (avatars, raffle covers; services/file-store.ts): DATA_DIR/uploads, or an S3-compatible bucket when S3_BUCKET is set.
    /** The bucket that holds the uploads, so instances on several hosts need no shared disk; with S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY. */
    S3_BUCKET: z
      .string()
      .regex(/^[a-z\d][a-z\d.-]{1,61}[a-z\d]$/, 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens')
      .optional(),
    /** The bucket's region, as its service names it (`us-east-1`, `cn-hangzhou` for Aliyun OSS, `ap-guangzhou` for Tencent COS; MinIO takes any). */
    S3_REGION: z.string().min(1).optional(),
    /** The service's address (`https://s3.oss-cn-hangzhou.aliyuncs.com`, `https://cos.ap-guangzhou.myqcloud.com`, `http://minio.internal:9000`); unset, Amazon S3's. */
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    /** `true` puts the bucket in the path (`endpoint/bucket/key`), as MinIO and most servers of one's own want; else in the host name. */
    S3_FORCE_PATH_STYLE: flag.optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** How long one call to the bucket may take, from connecting to the last byte: a bucket slower than this is answered as unavailable (503). */
    S3_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
    // SMS and e-mail (messages/settings.ts, docs/operators.md "Messages").
    ...messageSettings,
    // Quick login (contract/external-login.ts). Outside production an unconfigured provider is the development one at /api/dev/idp.
    /** Steam's OpenID 2.0 identifier; Steam needs no registration, so production uses Steam's own when this is unset. */
    STEAM_OPENID_URL: z.url().optional(),
    /** A Steam Web API key, to show persona names instead of Steam ids. */
    STEAM_API_KEY: z.string().min(1).optional(),
    STEAM_WEB_API_URL: z.url().default('https://api.steampowered.com'),
    /** Microsoft's issuer for personal accounts (the Xbox network's); the app registration gives the client id and secret. */
    MICROSOFT_ISSUER: z.url().default('https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0'),
    MICROSOFT_CLIENT_ID: z.string().min(1).optional(),
    MICROSOFT_CLIENT_SECRET: z.string().min(1).optional(),
    QQ_URL: z.url().default('https://graph.qq.com'),
    QQ_APP_ID: z.string().min(1).optional(),
    QQ_APP_KEY: z.string().min(1).optional(),
    // Payments (contract/commerce.ts). `sandbox` is the development stand-ins at /api/dev/wechatpay and /api/dev/alipay, which speak the providers' protocols.
    /** `sandbox` alone, or one or more of `wechatpay` and `alipay` separated by commas (`wechatpay,alipay`): the providers the pay page offers, in this order. */
    PAYMENT_PROVIDER: list
      .pipe(
        z
          .array(z.enum(paymentProviders, 'must be sandbox, wechatpay or alipay'))
          .min(1, 'must name sandbox, or wechatpay, alipay or both separated by a comma')
          .refine((names) => new Set(names).size === names.length, 'names a provider twice')
          .refine(
            (names) => !names.includes('sandbox') || names.length === 1,
            'sandbox stands in for every provider: it goes alone, never with wechatpay or alipay',
          ),
      )
      .readonly()
      .default(['sandbox']),
    WECHATPAY_URL: z.url().default('https://api.mch.weixin.qq.com'),
    WECHATPAY_MCHID: z
      .string()
      .regex(/^\d{6,20}$/)
      .optional(),
    WECHATPAY_APPID: z.string().min(1).optional(),
    /** The merchant API certificate's serial number and the file of its private key (PEM). */
    WECHATPAY_MERCHANT_SERIAL: z.string().min(1).optional(),
    WECHATPAY_MERCHANT_KEY_FILE: z.string().min(1).optional(),
    /** The platform certificate (or WeChat Pay public key) notifications and answers are checked against: its serial and PEM file. */
    WECHATPAY_PLATFORM_SERIAL: z.string().min(1).optional(),
    WECHATPAY_PLATFORM_CERT_FILE: z.string().min(1).optional(),
    /** The APIv3 key notifications are sealed with: 32 characters. */
    WECHATPAY_APIV3_KEY: z.string().length(32).optional(),
    /** Where WeChat Pay sends notifications: this API's /api/commerce/v1/notify/wechatpay on its public HTTPS address. */
    WECHATPAY_NOTIFY_URL: z.url().optional(),
    /** Alipay's open-platform gateway. */
    ALIPAY_URL: z.url().default('https://openapi.alipay.com/gateway.do'),
    /** The app's APPID on Alipay's open platform. */
    ALIPAY_APP_ID: z
      .string()
      .regex(/^\d{1,32}$/, "must be the app's APPID, digits only, as Alipay's open platform shows it")
      .optional(),
    /** The merchant's partner id (PID), which every notification must name as the seller. */
    ALIPAY_SELLER_ID: z
      .string()
      .regex(/^2088\d{12}$/, "must be the merchant's partner id (PID): 16 digits beginning with 2088")
      .optional(),
    /** The app's private key (PEM, or the base64 Alipay's key tool writes): requests are signed with it. */
    ALIPAY_APP_KEY_FILE: z.string().min(1).optional(),
    /** Public-key mode: Alipay's public key (PEM, or the base64 the open platform shows), which answers and notifications are checked against. */
    ALIPAY_PUBLIC_KEY_FILE: z.string().min(1).optional(),
    /** Certificate mode (which Alipay requires of new apps): the app's public-key certificate, Alipay's public-key certificate and Alipay's root certificate, PEM files as the open platform gives them. */
    ALIPAY_APP_CERT_FILE: z.string().min(1).optional(),
    ALIPAY_PUBLIC_CERT_FILE: z.string().min(1).optional(),
    ALIPAY_ROOT_CERT_FILE: z.string().min(1).optional(),
    /** Where Alipay sends notifications: this API's /api/commerce/v1/notify/alipay on its public HTTPS address. */
    ALIPAY_NOTIFY_URL: z.url().optional(),
  })
  .superRefine((config, context) => {
    if (config.NODE_ENV === 'production') {
      if (config.PAYMENT_PROVIDER.includes('sandbox'))
        context.addIssue({
          code: 'custom',
          path: ['PAYMENT_PROVIDER'],
          message:
            'PAYMENT_PROVIDER=sandbox lets anyone approve their own payments: set PAYMENT_PROVIDER to wechatpay, alipay or both (wechatpay,alipay) with their WECHATPAY_* and ALIPAY_* settings',
        });
      for (const key of ['STORE_URL', 'STORE_INTROSPECTION_SECRET'] as const) {
        if (!config[key])
          context.addIssue({
            code: 'custom',
            path: [key],
            message: 'required in production (unset, the store would be the development one, which does not run there)',
          });
      }
      if (!config.SELLER_NAME)
        context.addIssue({
          code: 'custom',
          path: ['SELLER_NAME'],
          message:
            'required in production: receipts name the seller (unset, they would name the demo shop); set SELLER_NAME, and SELLER_ADDRESS, SELLER_TAX_ID and SELLER_CONTACT as your receipts must show them',
        });
      if (config.DEMO_DATA)
        context.addIssue({ code: 'custom', path: ['DEMO_DATA'], message: 'DEMO_DATA=true seeds an account whose password is published: set DEMO_DATA=false' });
    }
    for (const [id, secret] of [
      ['MICROSOFT_CLIENT_ID', 'MICROSOFT_CLIENT_SECRET'],
      ['QQ_APP_ID', 'QQ_APP_KEY'],
    ] as const) {
      if (!config[id] !== !config[secret]) context.addIssue({ code: 'custom', path: [config[id] ? secret : id], message: `${id} and ${secret} go together` });
    }
    if (config.PAYMENT_PROVIDER.includes('wechatpay')) {
      for (const key of wechatPaySettings) {
        if (!config[key]) context.addIssue({ code: 'custom', path: [key], message: 'required when PAYMENT_PROVIDER=wechatpay' });
      }
    }
    if (config.PAYMENT_PROVIDER.includes('alipay')) {
      for (const key of alipaySettings) {
        if (!config[key]) context.addIssue({ code: 'custom', path: [key], message: 'required when PAYMENT_PROVIDER lists alipay' });
      }
      for (const { path, message } of alipayModeIssues(config)) context.addIssue({ code: 'custom', path: [path], message });
    }
    // A bucket half described would quietly keep the uploads on this host's disk: all of it, or none.
    const bucketGiven = bucketSettings.filter((key) => config[key] !== undefined);
    if (bucketGiven.length > 0) {
      for (const key of bucketSettings) {
        if (config[key] === undefined && !bucketOptional.has(key))
          context.addIssue({
            code: 'custom',
            path: [key],
            message: `required with ${bucketGiven.join(', ')}: the S3_* settings go together (docs/deploy.md, "Uploaded files")`,
          });
      }
    }
    if (config.METRICS_PORT !== undefined && config.METRICS_PORT !== 0 && config.METRICS_PORT === config.PORT)
      context.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT: the metrics are never served on the public port' });
    if (config.HUB_TIMEOUT_MS <= config.HUB_KEEP_ALIVE_MS)
      context.addIssue({ code: 'custom', path: ['HUB_TIMEOUT_MS'], message: 'must be longer than HUB_KEEP_ALIVE_MS' });
    for (const { path, message } of messageSettingIssues(config)) context.addIssue({ code: 'custom', path: [path], message });
  });

/** Alipay's key settings: exactly one mode, public key or certificates, and that one whole. */
function alipayModeIssues(
  config: Partial<Record<'ALIPAY_PUBLIC_KEY_FILE' | (typeof alipayCertificateSettings)[number], string>>,
): { path: string; message: string }[] {
  const certificatesGiven = alipayCertificateSettings.filter((key) => config[key]);
  if (config.ALIPAY_PUBLIC_KEY_FILE && certificatesGiven.length > 0)
    return [
      {
        path: 'ALIPAY_PUBLIC_KEY_FILE',
        message: `public-key mode (ALIPAY_PUBLIC_KEY_FILE) and certificate mode (${certificatesGiven.join(', ')}) exclude each other: set the files of the mode the app on Alipay's open platform uses, and only those`,
      },
    ];
  if (!config.ALIPAY_PUBLIC_KEY_FILE && certificatesGiven.length === 0)
    return [
      {
        path: 'ALIPAY_PUBLIC_KEY_FILE',
        message: `required when PAYMENT_PROVIDER lists alipay, unless the app uses certificate mode: then set ${alipayCertificateSettings.join(', ')} instead`,
      },
    ];
  if (config.ALIPAY_PUBLIC_KEY_FILE) return [];
  return alipayCertificateSettings
    .filter((key) => !config[key])
    .map((path) => ({ path, message: `required with ${certificatesGiven.join(', ')}: certificate mode needs all three certificates` }));
}

/** The seller receipts name outside production when SELLER_NAME is unset: plainly a demonstration, never a real business. */
export const demoSeller = {
  SELLER_NAME: 'Demo shop (development, not a real seller)',
  SELLER_ADDRESS: 'Demo address: set SELLER_ADDRESS',
  SELLER_TAX_ID: 'DEMO-0000000000',
  SELLER_CONTACT: 'demo@example.invalid',
} as const;

/** The demo account goes only where asked, or into an embedded database outside production — never into a shared PostgreSQL unasked. */
const withDefaults = (config: z.output<typeof schema>) => ({
  ...config,
  // The demo seller comes whole or not at all, a real name never beside a demo address (production refuses an unset name).
  ...(config.SELLER_NAME === undefined ? demoSeller : { SELLER_NAME: config.SELLER_NAME }),
  DEMO_DATA: config.DEMO_DATA ?? (config.NODE_ENV !== 'production' && !isPostgresUrl(config.DATABASE_URL)),
});

export type Config = ReturnType<typeof withDefaults>;

/** Thrown for a configuration the server must not start with; its message names every setting to change. */
export class ConfigError extends StartupError {}

/** Reads the configuration from environment variables; a bad value stops start-up with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new ConfigError(`Invalid configuration:\n${z.prettifyError(parsed.error)}`);
  return withDefaults(parsed.data);
}

/** Whether the development stand-ins (outboxes, and later identity providers, payment sandbox, store) may run. */
export const devStandInsAllowed = (config: Config): boolean => config.NODE_ENV !== 'production';

/**
 * The site's origin, for every absolute link the server makes: SITE_URL, or in
 * production the published site. Outside production an unset SITE_URL is this
 * server itself, `http://HOST:PORT` (`localhost` when HOST is a wildcard), so
 * a local try-out gets local links. Never the Host a request names: a caller
 * must not choose where the server's links lead.
 */
export function siteOrigin(config: Config): string {
  if (config.SITE_URL) return new URL(config.SITE_URL).origin;
  if (!devStandInsAllowed(config)) return new URL(defaultSiteUrl).origin;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return new URL(`http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`).origin;
}

/** A page of the site in a language (`https://…/ja/account/login`), for addresses the server sends people to. */
export function sitePageUrl(config: Config, locale: LocaleCode, path: string): string {
  const segment = localeSegment(locale);
  return `${siteOrigin(config)}${segment ? `/${segment}` : ''}${path}`;
}

/** The origin the API answers on (PUBLIC_API_ORIGIN, else the site's), for addresses outside services send browsers back to. */
export function apiOrigin(config: Config): string {
  return config.PUBLIC_API_ORIGIN ?? siteOrigin(config);
}

/** Where the site reaches the API: `/api` on its own origin, or under PUBLIC_API_ORIGIN (as src/lib/api/config.ts does in the browser). */
export const apiBase = (config: Config): string => `${config.PUBLIC_API_ORIGIN ?? ''}/api`;
