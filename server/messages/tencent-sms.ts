/**
 * Tencent Cloud SMS (`SMS_PROVIDER=tencent`): API 2021-01-11 `SendSms` through
 * Tencent's official SDK, which signs each call (TC3-HMAC-SHA256). A message
 * is an approved template and its parameters — the kind's parameters in the
 * order messages/kinds.ts gives them, which the template's `{1}`, `{2}`
 * follow — to one number per call: a mainland number (+86) gets the domestic
 * template and the sign, any other the international template, without the
 * sign (Tencent asks it only of mainland SMS); with no international templates
 * set, such a number gets no SMS and Tencent is not asked.
 *
 * Tencent's answer, for the call (`Response.Error.Code`) or for the number
 * (`SendStatusSet[0].Code`), is mapped to the refusals of messages/messenger.ts
 * from its documented error codes (SendSms's list and the common ones).
 */
import { Client } from 'tencentcloud-sdk-nodejs-sms/tencentcloud/services/sms/v20210111/sms_client.js';
import type { Config } from '../config.ts';
import { messageKinds } from './kinds.ts';
import { MessengerError, type Messenger, type Refusal } from './messenger.ts';
import { smsNumber } from './sms-number.ts';

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/** How long until midnight in China (UTC+8): Tencent's daily limits of a number count a calendar day. */
const untilChinaMidnight = () => dayMs - ((Date.now() + 8 * hourMs) % dayMs);

/** Tencent's limits of one number, and when each lets the number have an SMS again. */
const numberLimits = new Map<string, () => number>([
  ['LimitExceeded.PhoneNumberThirtySecondLimit', () => 30_000],
  ['LimitExceeded.PhoneNumberOneHourLimit', () => hourMs],
  ['LimitExceeded.PhoneNumberDailyLimit', untilChinaMidnight],
  ['LimitExceeded.PhoneNumberSameContentDailyLimit', untilChinaMidnight],
  // The account's frequency policy (set in Tencent's console) hit by this number.
  ['LimitExceeded.DeliveryFrequencyLimit', () => 60_000],
]);

/** The number cannot take this SMS: its form, the do-not-disturb list, a country Tencent or the account does not send to, a template of the other kind of number. */
const numberRefused = new Set([
  'InvalidParameterValue.IncorrectPhoneNumber',
  'FailedOperation.PhoneNumberInBlacklist',
  'UnsupportedOperation.ChineseMainlandTemplateToGlobalPhone',
  'UnsupportedOperation.GlobalTemplateToChineseMainlandPhone',
  'UnsupportedOperation.ContainDomesticAndInternationalPhoneNumber',
  'UnsupportedOperation.UnsupportedRegion',
  'LimitExceeded.AppCountryOrRegionInBlacklist',
]);

/**
 * The account cannot send until an operator acts: no balance or package, the sign or a template not approved (or not
 * as configured), the account's daily totals reached; with the AuthFailure.* (keys, clock) and UnauthorizedOperation.*
 * (the application, arrears, an IP allow-list) codes.
 */
const accountRefused = new Set([
  'FailedOperation.InsufficientBalanceInSmsPackage',
  'FailedOperation.SignatureIncorrectOrUnapproved',
  'FailedOperation.TemplateIncorrectOrUnapproved',
  'FailedOperation.TemplateUnapprovedOrNotExist',
  'FailedOperation.TemplateParamSetNotMatchApprovedTemplate',
  'FailedOperation.ContainSensitiveWord',
  'InvalidParameterValue.SdkAppIdNotExist',
  'InvalidParameterValue.TemplateParameterFormatError',
  'InvalidParameterValue.TemplateParameterLengthLimit',
  'InvalidParameterValue.ContentLengthLimit',
  'LimitExceeded.AppDailyLimit',
  'LimitExceeded.AppMainlandChinaDailyLimit',
  'LimitExceeded.AppGlobalDailyLimit',
  'LimitExceeded.AppCountryOrRegionDailyLimit',
  'LimitExceeded.DailyLimit',
]);

/** What a Tencent error code means for the customer; anything else (InternalError.*, RequestLimitExceeded, …) is worth another try. */
function refusalOf(code: string): { refusal: Refusal; retryAfterMs?: number } {
  const wait = numberLimits.get(code);
  if (wait) return { refusal: 'rateLimited', retryAfterMs: wait() };
  if (numberRefused.has(code)) return { refusal: 'recipientInvalid' };
  if (accountRefused.has(code) || code.startsWith('AuthFailure.') || code.startsWith('UnauthorizedOperation.')) return { refusal: 'unavailable' };
  return { refusal: 'unreachable' };
}

/** The Tencent Cloud SMS provider the TENCENT_SMS_* settings describe. */
export function tencentSmsMessenger(config: Config): Messenger {
  const endpoint = new URL(config.TENCENT_SMS_ENDPOINT);
  const client = new Client({
    credential: { secretId: config.TENCENT_SMS_SECRET_ID, secretKey: config.TENCENT_SMS_SECRET_KEY },
    region: config.TENCENT_SMS_REGION,
    // reqTimeout is in seconds; it bounds the wait for the answer, so a Tencent that never answers fails in time.
    profile: { httpProfile: { protocol: `${endpoint.protocol}//`, endpoint: endpoint.host, reqTimeout: config.PROVIDER_TIMEOUT_MS / 1000 } },
  });
  return {
    provider: 'tencent',
    async send(message) {
      const number = smsNumber(message.to);
      const templateId = (number.mainland ? config.TENCENT_SMS_TEMPLATES : config.TENCENT_SMS_INTERNATIONAL_TEMPLATES)?.[message.kind];
      if (!templateId) {
        const what = `No TENCENT_SMS_INTERNATIONAL_TEMPLATES: ${message.kind} is not sent outside mainland China`;
        throw new MessengerError('sms', message.to, what, { refusal: 'recipientInvalid' });
      }
      const refused = (code: string, what: string, cause?: unknown) =>
        new MessengerError('sms', message.to, `Tencent Cloud SMS refused ${message.kind}: ${code} ${what}`.trim(), {
          ...refusalOf(code),
          providerCode: code,
          cause,
        });
      const params = message.params as Record<string, string>;
      const answer = await client
        .SendSms({
          PhoneNumberSet: [number.e164],
          SmsSdkAppId: config.TENCENT_SMS_SDK_APP_ID!,
          TemplateId: templateId,
          SignName: number.mainland ? config.TENCENT_SMS_SIGN_NAME : undefined,
          TemplateParamSet: messageKinds[message.kind].params.map((name) => params[name]),
        })
        .catch((error: unknown) => {
          const code = (error as { code?: unknown }).code;
          // The SDK gives Tencent's code for a refused call; a network error, a timeout or an answer it cannot read has none.
          if (typeof code === 'string' && code) throw refused(code, (error as Error).message, error);
          throw new MessengerError('sms', message.to, `Tencent Cloud SMS could not be reached: ${(error as Error).message}`, { cause: error });
        });
      const status = answer.SendStatusSet?.[0];
      if (!status?.Code) throw new MessengerError('sms', message.to, `Tencent Cloud SMS answered no status (request ${answer.RequestId ?? '?'})`);
      if (status.Code !== 'Ok') throw refused(status.Code, status.Message ?? '');
      return { id: status.SerialNo || null };
    },
  };
}
