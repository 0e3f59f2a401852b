/**
 * Outside messaging services (SMS, e-mail) behind one small interface, each
 * with a development provider (an in-memory outbox printed to the console) and
 * a production provider (an HTTP gateway authenticated with a shared secret).
 */
import type { OutboundFetch } from './outbound-http.ts';

export interface OutgoingMessage {
  to: string;
  subject?: string;
  text: string;
}

export interface Messenger {
  send(message: OutgoingMessage): Promise<void>;
  /** The development outbox, or undefined for a real provider. */
  readonly outbox?: ReadonlyArray<OutgoingMessage & { sentAt: string }>;
}

/** Keeps the last messages in memory so a developer (or a test) can read the codes. */
export function devMessenger(channel: string, print: (line: string) => void, keep = 200): Messenger {
  const outbox: Array<OutgoingMessage & { sentAt: string }> = [];
  return {
    outbox,
    async send(message) {
      outbox.push({ ...message, sentAt: new Date().toISOString() });
      if (outbox.length > keep) outbox.shift();
      print(`[dev ${channel}] to ${message.to}: ${message.text}`);
    },
  };
}

/** The gateway could not be reached, timed out or refused the message: nothing was sent. */
export class MessengerError extends Error {
  readonly channel: 'sms' | 'email';
  constructor(channel: 'sms' | 'email', what: string, options?: ErrorOptions) {
    super(what, options);
    this.channel = channel;
  }
}

/**
 * Posts `{to, subject, text}` as JSON with `Authorization: Bearer <secret>` through the outbound client, given up
 * after `timeoutMs`; no answer or any non-2xx answer is a `MessengerError`.
 */
export function gatewayMessenger(channel: 'sms' | 'email', url: string, secret: string, fetch: OutboundFetch, timeoutMs: number): Messenger {
  return {
    async send(message) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: JSON.stringify(message),
        timeoutMs,
      }).catch((error: unknown) => {
        throw new MessengerError(channel, `Gateway ${url} could not be reached`, { cause: error });
      });
      if (!response.ok) throw new MessengerError(channel, `Gateway ${url} answered ${response.status}`);
    },
  };
}
