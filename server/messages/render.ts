/**
 * A message as a person reads it, in their language: the SMS text (with the
 * sign the providers put in front of an approved template), the e-mail's
 * subject and text, and the template text an operator submits for approval,
 * with the provider's placeholders where the parameters go.
 */
import { formattingTag, type LocaleCode } from '#contract/locales.ts';
import { message } from '../i18n/messages.ts';
import { messageKinds, type MessageKind, type OutgoingMessage } from './kinds.ts';

/** A moment as a message names it, in the reader's language; in UTC, named, since the server knows nothing of the reader's time zone. */
export const timeInMessage = (at: Date, locale: LocaleCode) =>
  new Intl.DateTimeFormat(formattingTag(locale), {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(at);

const params = (outgoing: OutgoingMessage) => outgoing.params as Record<string, string>;

/** The SMS as sent by a provider that takes free text (the outbox, the HTTP gateway), its sign first. */
export function smsText(outgoing: OutgoingMessage): string {
  const key = messageKinds[outgoing.kind].sms;
  if (key === null) throw new Error(`${outgoing.kind} is not sent by SMS`);
  return message(outgoing.locale, 'smsSign') + message(outgoing.locale, key, params(outgoing));
}

/** The e-mail's subject and plain text. */
export function emailText(outgoing: OutgoingMessage): { subject: string; text: string } {
  const { subject, text } = messageKinds[outgoing.kind].email;
  return { subject: message(outgoing.locale, subject), text: message(outgoing.locale, text, params(outgoing)) };
}

/**
 * The SMS template of `kind` in `locale`, without the sign (the provider adds it), each parameter written as
 * `placeholder` writes it: Aliyun's `${code}`, Tencent Cloud's `{1}`.
 */
export function smsTemplate(kind: MessageKind, locale: LocaleCode, placeholder: (name: string, position: number) => string): string {
  const { sms, params: names } = messageKinds[kind];
  if (sms === null) throw new Error(`${kind} is not sent by SMS`);
  return message(locale, sms, Object.fromEntries(names.map((name, index) => [name, placeholder(name, index + 1)])));
}
