/**
 * The generic gateway (`SMS_PROVIDER=http`, `EMAIL_PROVIDER=http`), for any
 * provider without its own module here: a JSON POST with
 * `Authorization: Bearer <secret>` of `{to, kind, params, locale, subject?, text}`,
 * through the outbound client, given up after `timeoutMs`. No answer or any
 * non-2xx answer is a `MessengerError`; a JSON answer's `id` is the message's.
 */
import type { OutboundFetch } from '../services/outbound-http.ts';
import { MessengerError, renderedText, type Channel, type Messenger } from './messenger.ts';

export function gatewayMessenger(channel: Channel, url: string, secret: string, fetch: OutboundFetch, timeoutMs: number): Messenger {
  return {
    provider: 'http',
    async send(message) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: JSON.stringify({ ...message, ...renderedText(channel, message) }),
        timeoutMs,
      }).catch((error: unknown) => {
        throw new MessengerError(channel, message.to, `Gateway ${url} could not be reached`, { cause: error });
      });
      if (!response.ok) throw new MessengerError(channel, message.to, `Gateway ${url} answered ${response.status}`);
      const answer: unknown = await response.json().catch(() => null);
      const id = (answer as { id?: unknown } | null)?.id;
      return { id: typeof id === 'string' ? id : null };
    },
  };
}
