/**
 * How messages reach people: `app.sms` and `app.email`, each the provider the
 * configuration names (messages/settings.ts) or, outside production only, the
 * development outbox — which logs every message, codes included. Every send is
 * counted by provider, kind and outcome; a refusal only the operators can end
 * (a balance, a suspended template) is logged with the provider's code as
 * `message provider refused`, the line an operator's alert matches. (A request's
 * other refusals are logged with it: plugins/errors.ts.)
 */
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { aliyunSmsMessenger } from '../messages/aliyun-sms.ts';
import { gatewayMessenger } from '../messages/http-gateway.ts';
import { devMessenger, MessengerError, type Channel, type Messenger } from '../messages/messenger.ts';
import { smtpEmailMessenger } from '../messages/smtp-email.ts';
import { tencentSmsMessenger } from '../messages/tencent-sms.ts';
import type { OutboundFetch } from '../services/outbound-http.ts';
import type { Metrics } from './metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sms: Messenger;
    email: Messenger;
  }
}

/** The provider the configuration names for `channel`. */
export function configuredMessenger(config: Config, channel: Channel, fetch: OutboundFetch, log: FastifyBaseLogger): Messenger {
  const provider = channel === 'sms' ? config.SMS_PROVIDER : config.EMAIL_PROVIDER;
  const gateway = channel === 'sms' ? [config.SMS_GATEWAY_URL, config.SMS_GATEWAY_SECRET] : [config.EMAIL_GATEWAY_URL, config.EMAIL_GATEWAY_SECRET];
  switch (provider) {
    case 'http':
      return gatewayMessenger(channel, gateway[0]!, gateway[1]!, fetch, config.PROVIDER_TIMEOUT_MS);
    case 'aliyun':
      return aliyunSmsMessenger(config);
    case 'tencent':
      return tencentSmsMessenger(config);
    case 'smtp':
      return smtpEmailMessenger(config);
    case 'dev':
      return devMessenger(channel, (line) => log.info(line));
  }
}

/** `messenger`, its sends counted and its refusals logged. */
export function countedMessenger(messenger: Messenger, channel: Channel, metrics: () => Metrics | null, log: FastifyBaseLogger): Messenger {
  return {
    ...messenger,
    async send(message) {
      try {
        const sent = await messenger.send(message);
        metrics()?.messageSent(channel, messenger.provider, message.kind, 'sent');
        // The provider's id finds the message in its own records (a delivery report, a bounce); the recipient stays out of the log.
        if (sent.id !== null) log.info({ channel, provider: messenger.provider, kind: message.kind, id: sent.id }, 'message sent');
        return sent;
      } catch (error) {
        const refusal = error instanceof MessengerError ? error.refusal : 'unreachable';
        metrics()?.messageSent(channel, messenger.provider, message.kind, refusal);
        const details = {
          err: error,
          channel,
          provider: messenger.provider,
          kind: message.kind,
          refusal,
          providerCode: (error as MessengerError).providerCode ?? null,
        };
        if (refusal === 'unavailable') log.error(details, `message provider refused: ${messenger.provider} ${details.providerCode ?? ''}`.trim());
        throw error;
      }
    },
  };
}

export default fp<{ forCommands?: boolean }>(
  async (app, { forCommands = false }) => {
    for (const channel of ['sms', 'email'] as const) {
      const messenger = configuredMessenger(app.config, channel, app.outbound, app.log);
      // The operators' command app has no metrics: only a server counts.
      app.decorate(
        channel,
        countedMessenger(messenger, channel, () => (app.hasDecorator('metrics') ? app.metrics : null), app.log),
      );
      if (messenger.close) app.addHook('onClose', () => messenger.close!());
    }
    // The operators' command's own outbox is no server's stand-in: a command's output says what it sent.
    if (!forCommands && (app.sms.outbox || app.email.outbox)) {
      app.log.warn(
        'Development stand-ins are on: SMS and e-mail codes go to the log and to /api/dev/outbox instead of being sent. Set SMS_PROVIDER (aliyun, tencent or http) and EMAIL_PROVIDER (smtp or http) for real delivery (docs/operators.md, "Messages"); NODE_ENV=production refuses to start without them.',
      );
    }
  },
  { name: 'messengers', dependencies: ['config', 'outbound'] },
);
