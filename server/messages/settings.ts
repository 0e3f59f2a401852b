/**
 * The message providers' settings (config.ts takes them in): which provider
 * sends SMS and e-mail, and what each needs. A provider half described stops
 * the start, naming each missing setting (`messageSettingIssues`).
 */
import { z } from 'zod';
import { messageKindNames, smsKinds, type MessageKind } from './kinds.ts';

/** `kind=template,…` (`loginCode=SMS_123,accountCode=SMS_123,…`): a template per message kind. */
const templates = z
  .string()
  .transform((value, context) => {
    const map: Partial<Record<MessageKind, string>> = {};
    for (const pair of value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)) {
      const [kind, template, extra] = pair.split('=').map((part) => part.trim());
      if (!messageKindNames.includes(kind as MessageKind) || !template || extra !== undefined) {
        context.addIssue({ code: 'custom', message: `"${pair}" is not kind=template with a kind of ${smsKinds.join(', ')}` });
        return z.NEVER;
      }
      map[kind as MessageKind] = template;
    }
    return map;
  })
  .optional();

export const messageSettings = {
  /** `dev` is the development outbox (refused in production); `http` the generic gateway; `aliyun`, `tencent` the providers. */
  SMS_PROVIDER: z.enum(['dev', 'http', 'aliyun', 'tencent']).default('dev'),
  /** `dev` is the development outbox (refused in production); `http` the generic gateway; `smtp` a mail server. */
  EMAIL_PROVIDER: z.enum(['dev', 'http', 'smtp']).default('dev'),
  SMS_GATEWAY_URL: z.url().optional(),
  SMS_GATEWAY_SECRET: z.string().min(16).optional(),
  EMAIL_GATEWAY_URL: z.url().optional(),
  EMAIL_GATEWAY_SECRET: z.string().min(16).optional(),
  // Aliyun SMS (Dysmsapi 2017-05-25, SendSms): a RAM user's AccessKey allowed to send, the approved sign and templates.
  ALIYUN_SMS_ACCESS_KEY_ID: z.string().min(1).optional(),
  ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().min(1).optional(),
  ALIYUN_SMS_SIGN_NAME: z.string().min(1).optional(),
  /** The template codes for numbers in mainland China, per message kind. */
  ALIYUN_SMS_TEMPLATES: templates,
  /** The international templates (numbers outside +86), per message kind; unset, those numbers get no SMS. */
  ALIYUN_SMS_INTERNATIONAL_TEMPLATES: templates,
  ALIYUN_SMS_ENDPOINT: z.url({ protocol: /^https?$/ }).default('https://dysmsapi.aliyuncs.com'),
  // Tencent Cloud SMS (API 2021-01-11, SendSms): a CAM key allowed to send, the SMS application, the approved sign and templates.
  TENCENT_SMS_SECRET_ID: z.string().min(1).optional(),
  TENCENT_SMS_SECRET_KEY: z.string().min(1).optional(),
  TENCENT_SMS_SDK_APP_ID: z.string().regex(/^\d+$/, 'must be the SMS application’s SdkAppId (digits)').optional(),
  TENCENT_SMS_SIGN_NAME: z.string().min(1).optional(),
  /** The template ids for numbers in mainland China, per message kind. */
  TENCENT_SMS_TEMPLATES: templates,
  /** The international templates (numbers outside +86), per message kind; unset, those numbers get no SMS. */
  TENCENT_SMS_INTERNATIONAL_TEMPLATES: templates,
  TENCENT_SMS_REGION: z.string().min(1).default('ap-guangzhou'),
  TENCENT_SMS_ENDPOINT: z.url({ protocol: /^https?$/ }).default('https://sms.tencentcloudapi.com'),
  // E-mail over SMTP (nodemailer).
  /** `smtps://user:password@host:465` (TLS from the start) or `smtp://user:password@host:587` (STARTTLS, required in production). */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** The From of every e-mail: `Beacon Toolkit <no-reply@example.com>`. */
  EMAIL_FROM: z.string().min(3).optional(),
  /** DKIM signing, all three or none: the signing domain, the selector, and the private key's PEM file. */
  DKIM_DOMAIN: z.string().min(1).optional(),
  DKIM_SELECTOR: z.string().min(1).optional(),
  DKIM_PRIVATE_KEY_FILE: z.string().min(1).optional(),
};

type MessageConfig = z.output<z.ZodObject<typeof messageSettings>>;

/** What each provider needs, and the settings that go together. */
const required = {
  http: { SMS: ['SMS_GATEWAY_URL', 'SMS_GATEWAY_SECRET'], EMAIL: ['EMAIL_GATEWAY_URL', 'EMAIL_GATEWAY_SECRET'] },
  aliyun: ['ALIYUN_SMS_ACCESS_KEY_ID', 'ALIYUN_SMS_ACCESS_KEY_SECRET', 'ALIYUN_SMS_SIGN_NAME', 'ALIYUN_SMS_TEMPLATES'],
  tencent: ['TENCENT_SMS_SECRET_ID', 'TENCENT_SMS_SECRET_KEY', 'TENCENT_SMS_SDK_APP_ID', 'TENCENT_SMS_SIGN_NAME', 'TENCENT_SMS_TEMPLATES'],
  smtp: ['SMTP_URL', 'EMAIL_FROM'],
} as const;
const dkim = ['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY_FILE'] as const;

export interface SettingIssue {
  path: string;
  message: string;
}

/** Every setting missing for the chosen providers, and every template a set of templates lacks. */
export function messageSettingIssues(config: MessageConfig & { NODE_ENV: string }): SettingIssue[] {
  const issues: SettingIssue[] = [];
  const need = (keys: readonly (keyof MessageConfig)[], because: string) => {
    for (const key of keys) if (config[key] === undefined) issues.push({ path: key, message: `required when ${because}` });
  };
  for (const prefix of ['SMS', 'EMAIL'] as const) {
    const provider = config[`${prefix}_PROVIDER`];
    if (provider === 'http') need(required.http[prefix], `${prefix}_PROVIDER=http`);
    if (provider === 'dev' && config.NODE_ENV === 'production')
      issues.push({
        path: `${prefix}_PROVIDER`,
        message: `${prefix}_PROVIDER=dev is the development outbox, which shows every code to anyone: set ${prefix}_PROVIDER to ${
          prefix === 'SMS' ? 'aliyun, tencent' : 'smtp'
        } or http, with their settings (docs/operators.md, "Messages")`,
      });
  }
  if (config.SMS_PROVIDER === 'aliyun' || config.SMS_PROVIDER === 'tencent') {
    const provider = config.SMS_PROVIDER;
    need(required[provider], `SMS_PROVIDER=${provider}`);
    const prefix = provider === 'aliyun' ? 'ALIYUN_SMS' : 'TENCENT_SMS';
    for (const key of [`${prefix}_TEMPLATES`, `${prefix}_INTERNATIONAL_TEMPLATES`] as const) {
      const given = config[key];
      const missing = given ? smsKinds.filter((kind) => !given[kind]) : [];
      if (missing.length > 0) issues.push({ path: key, message: `has no template for ${missing.join(', ')} (every SMS the product sends needs one)` });
    }
  }
  if (config.EMAIL_PROVIDER === 'smtp') need(required.smtp, 'EMAIL_PROVIDER=smtp');
  const dkimGiven = dkim.filter((key) => config[key] !== undefined);
  if (dkimGiven.length > 0) need(dkim, `${dkimGiven.join(', ')} is set: the DKIM_* settings go together`);
  return issues;
}
