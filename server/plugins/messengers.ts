/**
 * How codes reach people: `app.sms` and `app.email`, each an HTTP gateway or,
 * outside production only (config.ts refuses it there), the development
 * outbox — which logs every message, codes included, through the logger.
 */
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { devMessenger, gatewayMessenger, type Messenger } from '../services/messenger.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sms: Messenger;
    email: Messenger;
  }
}

export default fp(
  async (app) => {
    const messenger = (channel: 'SMS' | 'EMAIL'): Messenger => {
      const config: Config = app.config;
      const url = config[`${channel}_GATEWAY_URL`];
      const secret = config[`${channel}_GATEWAY_SECRET`];
      if (config[`${channel}_PROVIDER`] === 'http' && url && secret)
        return gatewayMessenger(channel === 'SMS' ? 'sms' : 'email', url, secret, app.outbound, config.PROVIDER_TIMEOUT_MS);
      return devMessenger(channel.toLowerCase(), (line) => app.log.info(line));
    };
    app.decorate('sms', messenger('SMS'));
    app.decorate('email', messenger('EMAIL'));
    if (app.sms.outbox || app.email.outbox) {
      app.log.warn(
        'Development stand-ins are on: SMS and e-mail codes go to the log and to /api/dev/outbox instead of being sent. Set SMS_PROVIDER=http and EMAIL_PROVIDER=http (with their gateways) for real delivery; NODE_ENV=production refuses to start without them.',
      );
    }
  },
  { name: 'messengers', dependencies: ['config', 'outbound'] },
);
