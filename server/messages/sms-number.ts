/**
 * A customer's phone number as the SMS providers want it. The site takes
 * `+<country code><number>` or a mainland number without its +86
 * (contract/identity.ts `phonePattern`); mainland numbers take the domestic
 * templates, all others the international ones.
 */
const mainlandCode = '86';

export interface SmsNumber {
  /** Whether the number is in mainland China (+86), which the domestic templates serve. */
  mainland: boolean;
  /** E.164: `+8613800138000`, `+85261234567` (Tencent Cloud's PhoneNumberSet). */
  e164: string;
  /** Aliyun's form: the bare number in the mainland (`13800138000`), country code and number elsewhere (`85261234567`). */
  aliyun: string;
}

export function smsNumber(phone: string): SmsNumber {
  const international = phone.startsWith('+') ? phone.slice(1) : mainlandCode + phone;
  const mainland = international.startsWith(mainlandCode);
  return { mainland, e164: `+${international}`, aliyun: mainland ? international.slice(mainlandCode.length) : international };
}
