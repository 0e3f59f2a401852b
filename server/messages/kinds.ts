/**
 * Every message the product sends by SMS or e-mail: a kind with named
 * parameters and, per locale, a text in the server's messages (server/i18n/messages.ts).
 * A provider turns a kind into what it sends: the outbox and the HTTP gateway
 * a rendered text, Aliyun and Tencent Cloud a pre-approved template and its
 * parameters (in the order given here, which Tencent's `{1}`, `{2}` follow),
 * SMTP an e-mail with an HTML and a plain-text part.
 */
import type { MessageKey } from '../i18n/messages.ts';

export interface MessageKindDefinition {
  /** The parameters, in template order: exactly the placeholders its texts have (Tencent Cloud wants as many values as its template has). */
  params: readonly string[];
  /** The SMS text's catalog key, or null for a kind only e-mail carries. */
  sms: MessageKey | null;
  /** The e-mail's subject and body. */
  email: { subject: MessageKey; text: MessageKey };
  /** A link the e-mail's HTML part shows as its button (a parameter's name). */
  action?: string;
}

const securityNotice = (text: MessageKey) => ({ params: ['time'], sms: text, email: { subject: 'noticeSubject', text } }) as const;
const renewalNotice = <P extends readonly string[]>(text: MessageKey, params: P) =>
  ({ params, sms: text, email: { subject: 'renewalNoticeSubject', text } }) as const;
const code = { params: ['code'], sms: 'smsText', email: { subject: 'emailSubject', text: 'emailText' } } as const;

export const messageKinds = {
  /** A login code (identity.sendSmsCode, identity.sendEmailCode). */
  loginCode: code,
  /** A code proving the owner asks for a change of their account: binding a phone or e-mail, a password. */
  accountCode: code,
  /** The link that makes an address the account's e-mail. */
  emailLink: { params: ['email', 'link'], sms: null, email: { subject: 'emailLinkSubject', text: 'emailLinkText' }, action: 'link' },
  /** Security notices (modules/identity/security-notices.ts), to the contact the account had before the change. */
  passwordSet: securityNotice('noticePasswordSet'),
  passwordChanged: securityNotice('noticePasswordChanged'),
  phoneChanged: securityNotice('noticePhoneChanged'),
  emailChanged: securityNotice('noticeEmailChanged'),
  /** Auto-renewal notices (modules/commerce/agreements.ts). */
  renewalReminder: renewalNotice('renewalReminder', ['price', 'date'] as const),
  renewalFailed: renewalNotice('renewalFailed', ['price', 'date'] as const),
  renewalLapsed: renewalNotice('renewalLapsed', ['price'] as const),
  /**
   * A raffle's winner (modules/raffle/winner-messages.ts): told at the draw, reminded before the claim window closes.
   * To the account's phone, or its e-mail without one; the text says how to turn these messages off.
   */
  raffleWon: { params: ['raffle', 'prize', 'deadline', 'link'], sms: 'raffleWon', email: { subject: 'raffleWonSubject', text: 'raffleWon' }, action: 'link' },
  raffleReminder: {
    params: ['raffle', 'prize', 'deadline', 'link'],
    sms: 'raffleReminder',
    email: { subject: 'raffleReminderSubject', text: 'raffleReminder' },
    action: 'link',
  },
  /** Invoices (modules/commerce/invoices.ts), to the address the customer gave with the request: the order's page holds the file. */
  invoiceIssued: { params: ['order', 'link'], sms: null, email: { subject: 'invoiceIssuedSubject', text: 'invoiceIssuedText' }, action: 'link' },
  invoiceRefused: { params: ['order', 'reason', 'link'], sms: null, email: { subject: 'invoiceRefusedSubject', text: 'invoiceRefusedText' }, action: 'link' },
} as const satisfies Record<string, MessageKindDefinition>;

export type MessageKind = keyof typeof messageKinds;
export const messageKindNames = Object.keys(messageKinds) as MessageKind[];
/** The kinds an SMS provider needs a template for. */
export const smsKinds = messageKindNames.filter((kind) => messageKinds[kind].sms !== null);

/** The parameters of `kind`, by name. */
export type MessageParams<K extends MessageKind> = Record<(typeof messageKinds)[K]['params'][number], string>;

/** One message to one person: what the product asks a provider to deliver. */
export type OutgoingMessage = {
  [K in MessageKind]: { to: string; kind: K; params: MessageParams<K>; locale: import('#contract/locales.ts').LocaleCode };
}[MessageKind];
