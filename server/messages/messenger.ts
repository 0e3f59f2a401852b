/**
 * How a message reaches a person: one small interface over the providers
 * (config.ts `SMS_PROVIDER`, `EMAIL_PROVIDER`), each turning a kind and its
 * parameters into what it sends. Outside production the development outbox
 * stands in: it keeps the rendered messages for a developer or a test to read.
 */
import type { OutgoingMessage } from './kinds.ts';
import { emailText, smsText } from './render.ts';

export type Channel = 'sms' | 'email';

export interface Messenger {
  /** The provider's name (`dev`, `http`, `aliyun`, `tencent`, `smtp`), for logs and metrics. */
  readonly provider: string;
  /** Sends `message`, or throws a `MessengerError` saying why it was not sent; returns the provider's id of it, when it gives one. */
  send(message: OutgoingMessage): Promise<{ id: string | null }>;
  /** The development outbox, or undefined for a real provider. */
  readonly outbox?: ReadonlyArray<OutboxEntry>;
  /** Ends the provider's kept connections (SMTP), when it keeps any. */
  close?(): Promise<void>;
}

/** The phone, else the e-mail: where a message to an account goes (account codes, the account centre's changes, a raffle win). */
export const contactOf = (user: { phone: string | null; email: string | null }) =>
  user.phone ? { channel: 'sms' as const, target: user.phone } : user.email ? { channel: 'email' as const, target: user.email } : null;

/** A message as the outbox keeps it: what it was and how it reads. */
export type OutboxEntry = OutgoingMessage & { subject?: string; text: string; sentAt: string };

/** The message as a provider that takes free text sends it: the SMS text, or the e-mail's subject and text. */
export function renderedText(channel: Channel, message: OutgoingMessage): { subject?: string; text: string } {
  return channel === 'sms' ? { text: smsText(message) } : emailText(message);
}

/** Keeps the last messages in memory so a developer (or a test) can read the codes. */
export function devMessenger(channel: Channel, print: (line: string) => void, keep = 200): Messenger {
  const outbox: OutboxEntry[] = [];
  let sent = 0;
  return {
    provider: 'dev',
    outbox,
    async send(message) {
      const rendered = renderedText(channel, message);
      outbox.push({ ...message, ...rendered, sentAt: new Date().toISOString() });
      if (outbox.length > keep) outbox.shift();
      print(`[dev ${channel}] to ${message.to}: ${rendered.text}`);
      return { id: `dev-${++sent}` };
    },
  };
}

/**
 * Why a provider did not send a message, as the customer is answered:
 * - `unreachable`: no answer, a timeout, an answer that makes no sense (502, try again);
 * - `rateLimited`: the provider's limit for this number (429, with when to try again);
 * - `recipientInvalid`: the provider says the number (the address) cannot take a message (400, naming it);
 * - `unavailable`: the shop's account cannot send (no balance, a template or sign suspended, wrong keys):
 *   503, and a log line an operator's alert matches (`message provider refused`).
 */
export type Refusal = 'unreachable' | 'rateLimited' | 'recipientInvalid' | 'unavailable';

/** Nothing was sent, and why. */
export class MessengerError extends Error {
  readonly channel: Channel;
  /** The phone number or address the message was for, as the customer wrote it. */
  readonly to: string;
  readonly refusal: Refusal;
  /** The provider's own code for the refusal (`isv.AMOUNT_NOT_ENOUGH`, `LimitExceeded.PhoneNumberDailyLimit`), when it gave one. */
  readonly providerCode: string | null;
  /** For `rateLimited`: how long to wait before asking again. */
  readonly retryAfterMs: number | null;
  constructor(channel: Channel, to: string, what: string, details: { refusal?: Refusal; providerCode?: string; retryAfterMs?: number } & ErrorOptions = {}) {
    super(what, { cause: details.cause });
    this.channel = channel;
    this.to = to;
    this.refusal = details.refusal ?? 'unreachable';
    this.providerCode = details.providerCode ?? null;
    this.retryAfterMs = details.retryAfterMs ?? null;
  }
}
