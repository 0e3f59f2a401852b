/** The operators' commands about the server itself: `keys rotate` and `messages test`. */
import * as z from 'zod/mini';
import { ServerKeyInUse } from '../admin.ts';
import { command, NoArgs, UsageError } from '../command.ts';
import { text } from '../fields.ts';
import { phonePattern } from '../identity.ts';

const messagesTestUsage = 'messages test sms|email <to>    send a test through the configured SMS or e-mail provider, and show its answer';

export const systemCommands = {
  rotateKeys: command({
    name: 'keys rotate',
    usage: 'keys rotate                     a new key pair for sealed calls; the old one is accepted for another day',
    args: NoArgs,
    words(rest) {
      if (rest.length > 0) throw new UsageError('keys rotate takes no arguments');
      return {};
    },
    /** The key pairs in use after it, the new current one first, and how many retired ones past their window it deleted. */
    result: { keys: z.array(ServerKeyInUse), removed: z.int() },
  }),
  testMessage: command({
    name: 'messages test',
    usage: messagesTestUsage,
    args: z.discriminatedUnion('channel', [
      z.strictObject({
        channel: z.literal('sms'),
        to: text(z.trim(), z.regex(phonePattern, 'not a phone number (+<country code><number>, or a mainland number)')),
      }),
      z.strictObject({ channel: z.literal('email'), to: z.email('not an e-mail address') }),
    ]),
    words(rest) {
      const [channel, to, ...more] = rest;
      if ((channel !== 'sms' && channel !== 'email') || !to || more.length > 0) throw new UsageError(`usage: ${messagesTestUsage}`);
      return { channel, to };
    },
    /**
     * A login code message sent through the configured provider, and its answer: the provider's id of the message when
     * it took it, else the refusal (server/messages/messenger.ts), its code and words.
     */
    result: {
      channel: z.enum(['sms', 'email']),
      to: text(),
      provider: text(),
      sent: z.boolean(),
      id: z.nullable(text()),
      refusal: z.nullable(text()),
      providerCode: z.nullable(text()),
      error: z.nullable(text()),
    },
  }),
};
