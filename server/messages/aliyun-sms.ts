/**
 * Aliyun SMS (`SMS_PROVIDER=aliyun`): Dysmsapi 2017-05-25 `SendSms` through
 * Alibaba Cloud's SDK (`@alicloud/dysmsapi20170525`, which signs each call
 * with ACS3-HMAC-SHA256). A mainland number gets the domestic template of the
 * message's kind (ALIYUN_SMS_TEMPLATES), any other number the international
 * one (ALIYUN_SMS_INTERNATIONAL_TEMPLATES; unset, such a number is refused
 * without calling Aliyun); TemplateParam is the kind's parameters by name.
 * Aliyun's answer codes (its SendSms error-code list, and its gateway's codes
 * for keys, signatures and flow control) become the refusals of messenger.ts;
 * no answer within PROVIDER_TIMEOUT_MS, or one that is not Aliyun's, is
 * `unreachable`.
 */
import { createRequire } from 'node:module';
import type { Config } from '../config.ts';
import { MessengerError, type Messenger, type Refusal } from './messenger.ts';
import { smsNumber } from './sms-number.ts';

type Sdk = typeof import('@alicloud/dysmsapi20170525');
type OpenApi = typeof import('@alicloud/openapi-core');

const minute = 60_000;
const hour = 60 * minute;
/** Aliyun's days and months are Beijing's (UTC+8, no daylight saving). */
const beijingOffset = 8 * hour;

/** How long until Beijing's next midnight, or (`month`) the first of its next month, when Aliyun's day or month limits reset. */
function untilBeijing(next: 'day' | 'month', now = Date.now()): number {
  const beijing = new Date(now + beijingOffset);
  const start =
    next === 'day'
      ? Date.UTC(beijing.getUTCFullYear(), beijing.getUTCMonth(), beijing.getUTCDate() + 1)
      : Date.UTC(beijing.getUTCFullYear(), beijing.getUTCMonth() + 1, 1);
  return start - beijingOffset - now;
}

/**
 * How long a rate limit lasts. `isv.BUSINESS_LIMIT_CONTROL` is the per-number limit, which Aliyun names in its
 * Message ("触发分钟级流控Permits:1", "触发小时级流控…", "触发天级流控…"); the others are the account's day and month
 * limits set in its console, and the gateway's flow control of API calls.
 */
function rateLimitWait(code: string, text: string): number {
  if (code === 'isv.DAY_LIMIT_CONTROL' || text.includes('天级')) return untilBeijing('day');
  if (code === 'isv.MONTH_LIMIT_CONTROL') return untilBeijing('month');
  if (text.includes('小时级')) return hour;
  if (code.startsWith('Throttling')) return 5_000;
  return minute;
}

/**
 * What Aliyun's codes mean for the customer. The gateway's flow control (`Throttling`, `Throttling.User`, …) is a rate
 * limit too; any other code (isp.SYSTEM_ERROR, SignatureNonceUsed, …) is `unreachable`: try again.
 */
const refusals: Record<string, Refusal> = {
  'isv.BUSINESS_LIMIT_CONTROL': 'rateLimited',
  'isv.DAY_LIMIT_CONTROL': 'rateLimited',
  'isv.MONTH_LIMIT_CONTROL': 'rateLimited',
  'isv.MOBILE_NUMBER_ILLEGAL': 'recipientInvalid',
  'isv.MOBILE_COUNT_OVER_LIMIT': 'recipientInvalid',
  'isv.DOMESTIC_NUMBER_NOT_SUPPORTED': 'recipientInvalid',
  // The account: its balance, its state, its service.
  'isv.AMOUNT_NOT_ENOUGH': 'unavailable',
  'isv.OUT_OF_SERVICE': 'unavailable',
  'isv.ACCOUNT_NOT_EXISTS': 'unavailable',
  'isv.ACCOUNT_ABNORMAL': 'unavailable',
  'isv.SECURITY_FROZEN_ACCOUNT': 'unavailable',
  'isv.PRODUCT_UN_SUBSCRIPT': 'unavailable',
  'isv.PRODUCT_UNSUBSCRIBE': 'unavailable',
  'isv.DENY_IP_RANGE': 'unavailable',
  'isp.RAM_PERMISSION_DENY': 'unavailable',
  // The sign and the templates: missing, not approved, suspended, or not matching what is sent.
  'isv.SMS_SIGNATURE_ILLEGAL': 'unavailable',
  'isv.SMS_SIGN_ILLEGAL': 'unavailable',
  'isv.SIGN_STATE_ILLEGAL': 'unavailable',
  'isv.SMS_SIGNATURE_SCENE_ILLEGAL': 'unavailable',
  'isv.SMS_TEMPLATE_ILLEGAL': 'unavailable',
  'isv.TEMPLATE_MISSING_PARAMETERS': 'unavailable',
  'isv.TEMPLATE_PARAMS_ILLEGAL': 'unavailable',
  'isv.INVALID_JSON_PARAM': 'unavailable',
  'isv.SMS_TEST_SIGN_TEMPLATE_LIMIT': 'unavailable',
  'isv.SMS_TEST_NUMBER_LIMIT': 'unavailable',
  // The key: unknown, disabled, not allowed, or signing with the wrong secret or a clock far off.
  'InvalidAccessKeyId.NotFound': 'unavailable',
  'InvalidAccessKeyId.Inactive': 'unavailable',
  SignatureDoesNotMatch: 'unavailable',
  IncompleteSignature: 'unavailable',
  'InvalidTimeStamp.Expired': 'unavailable',
  'Forbidden.RAM': 'unavailable',
};

/** Aliyun's refusal `code` (with its Message) as a MessengerError for `to`. */
function refused(to: string, code: string, text: string, cause?: unknown): MessengerError {
  const refusal = refusals[code] ?? (code.startsWith('Throttling') ? 'rateLimited' : 'unreachable');
  return new MessengerError('sms', to, `Aliyun SMS refused the message: ${code} ${text}`.trim(), {
    refusal,
    providerCode: code,
    retryAfterMs: refusal === 'rateLimited' ? rateLimitWait(code, text) : undefined,
    cause,
  });
}

/** The code an SDK error carries: Aliyun's, from an answer with a 4xx or 5xx status; a network error's (`ECONNRESET`) or none otherwise. */
function sdkError(error: unknown): { code: string; text: string } | null {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: { Code?: unknown; Message?: unknown } };
  if (typeof data?.Code !== 'string' || code !== data.Code) return null;
  return { code: data.Code, text: typeof data.Message === 'string' ? data.Message : '' };
}

/** `call`'s answer, or a MessengerError for `to` when it has none within `ms` (the SDK's own timeouts, the same, end the call soon after). */
function within<T>(call: Promise<T>, ms: number, to: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MessengerError('sms', to, `Aliyun SMS did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([call, late]).finally(() => clearTimeout(timer));
}

/** Sends through Aliyun SMS with the settings of `config` (ALIYUN_SMS_*, PROVIDER_TIMEOUT_MS). */
export function aliyunSmsMessenger(config: Config): Messenger {
  // The SDK is CommonJS and takes some 300 ms to load: only a server that sends by Aliyun loads it, when it starts.
  const require = createRequire(import.meta.url);
  const { default: Client, SendSmsRequest } = require('@alicloud/dysmsapi20170525') as Sdk;
  const { $OpenApiUtil } = require('@alicloud/openapi-core') as OpenApi;
  const endpoint = new URL(config.ALIYUN_SMS_ENDPOINT);
  const client = new Client(
    new $OpenApiUtil.Config({
      accessKeyId: config.ALIYUN_SMS_ACCESS_KEY_ID,
      accessKeySecret: config.ALIYUN_SMS_ACCESS_KEY_SECRET,
      protocol: endpoint.protocol.replace(':', ''),
      endpoint: endpoint.host,
      connectTimeout: config.PROVIDER_TIMEOUT_MS,
      readTimeout: config.PROVIDER_TIMEOUT_MS,
    }),
  );
  return {
    provider: 'aliyun',
    async send(message) {
      const number = smsNumber(message.to);
      const templates = number.mainland ? config.ALIYUN_SMS_TEMPLATES : config.ALIYUN_SMS_INTERNATIONAL_TEMPLATES;
      const template = templates?.[message.kind];
      if (!template)
        throw new MessengerError('sms', message.to, `No international Aliyun template for ${message.kind}: numbers outside the mainland get no SMS`, {
          refusal: 'recipientInvalid',
        });
      const request = new SendSmsRequest({
        phoneNumbers: number.aliyun,
        signName: config.ALIYUN_SMS_SIGN_NAME,
        templateCode: template,
        templateParam: JSON.stringify(message.params),
      });
      const call = client.sendSms(request).catch((error: unknown) => {
        const given = sdkError(error);
        throw given
          ? refused(message.to, given.code, given.text, error)
          : new MessengerError('sms', message.to, 'Aliyun SMS could not be reached, or did not answer as Aliyun does', { cause: error });
      });
      const { body } = await within(call, config.PROVIDER_TIMEOUT_MS, message.to);
      if (body?.code !== 'OK')
        throw body?.code ? refused(message.to, body.code, body.message ?? '') : new MessengerError('sms', message.to, 'Aliyun SMS answered without a code');
      return { id: body.bizId ?? null };
    },
  };
}
