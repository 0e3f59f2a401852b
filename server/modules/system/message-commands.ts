/**
 * `messages test sms <phone>` and `messages test email <address>`: a login
 * code message (with a code that opens nothing) sent through the configured
 * provider, and the provider's answer as it gave it — so an operator checks
 * the keys, the sign and the templates before a customer needs them.
 */
import { randomInt } from 'node:crypto';
import { Phone } from '#contract/identity.ts';
import * as z from 'zod/mini';
import { UsageError, type AdminCommand, type ResultOf } from '../../admin-command.ts';
import { MessengerError, type Channel } from '../../messages/messenger.ts';

const usageLine = 'messages test sms|email <to>    send a test through the configured SMS or e-mail provider, and show its answer';
const Email = z.email();

function target(rest: string[]): { channel: Channel; to: string } {
  const [channel, to, ...more] = rest;
  if ((channel !== 'sms' && channel !== 'email') || !to || more.length > 0) throw new UsageError(`usage: ${usageLine}`);
  const valid = channel === 'sms' ? z.safeParse(Phone, to).success : z.safeParse(Email, to).success;
  if (!valid)
    throw new UsageError(
      channel === 'sms' ? `"${to}" is not a phone number (+<country code><number>, or a mainland number)` : `"${to}" is not an e-mail address`,
    );
  return { channel, to };
}

export const messageCommands: AdminCommand[] = [
  {
    name: 'messages test',
    usage: usageLine,
    parse(rest) {
      const { channel, to } = target(rest);
      return async ({ messenger }) => {
        const provider = messenger(channel);
        const base = { command: 'messages test' as const, channel, to, provider: provider.provider };
        const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
        try {
          const { id } = await provider.send({ to, kind: 'loginCode', params: { code }, locale: 'en' });
          return { ...base, sent: true, id, refusal: null, providerCode: null, error: null };
        } catch (error) {
          if (!(error instanceof MessengerError)) throw error;
          return { ...base, sent: false, id: null, refusal: error.refusal, providerCode: error.providerCode, error: error.message };
        }
      };
    },
    format: (result: ResultOf<'messages test'>) =>
      result.sent
        ? `Sent by ${result.provider} to ${result.to}${result.id ? ` (its id: ${result.id})` : ''}. The code in it opens nothing.`
        : `Not sent: ${result.provider} ${result.refusal}${result.providerCode ? ` (${result.providerCode})` : ''}: ${result.error}`,
    found: (result: ResultOf<'messages test'>) => result.sent,
  },
];
