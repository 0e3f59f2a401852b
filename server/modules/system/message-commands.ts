/**
 * `messages test sms <phone>` and `messages test email <address>`: a login
 * code message (with a code that opens nothing) sent through the configured
 * provider, and the provider's answer as it gave it — so an operator checks
 * the keys, the sign and the templates before a customer needs them.
 */
import { randomInt } from 'node:crypto';
import { systemCommands } from '#contract/commands/system.ts';
import { handle } from '../../admin-command.ts';
import { MessengerError } from '../../messages/messenger.ts';

export const messageCommands = [
  handle(systemCommands.testMessage, {
    async run(app, { channel, to }) {
      const provider = app[channel];
      const base = { command: 'messages test' as const, channel, to, provider: provider.provider };
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      try {
        const { id } = await provider.send({ to, kind: 'loginCode', params: { code }, locale: 'en' });
        return { ...base, sent: true, id, refusal: null, providerCode: null, error: null };
      } catch (error) {
        if (!(error instanceof MessengerError)) throw error;
        return { ...base, sent: false, id: null, refusal: error.refusal, providerCode: error.providerCode, error: error.message };
      }
    },
    format: (result) =>
      result.sent
        ? `Sent by ${result.provider} to ${result.to}${result.id ? ` (its id: ${result.id})` : ''}. The code in it opens nothing.`
        : `Not sent: ${result.provider} ${result.refusal}${result.providerCode ? ` (${result.providerCode})` : ''}: ${result.error}`,
    found: (result) => result.sent,
  }),
];
