/** The customer-service link: the configured URL with a signed reference to the user, valid one day. */
import fp from 'fastify-plugin';
import { support } from '#contract/identity.ts';
import { signToken } from '../../crypto/signed.ts';
import { registerRoute } from '../../http/route.ts';
import { message } from '../../i18n/messages.ts';

const referenceLifetimeMs = 24 * 3600_000;

export default fp(
  async (app) => {
    registerRoute(app, support.customerService, async ({ auth, request }) => {
      const reference = signToken(app.keys.secret, 'customer-service', { sub: auth.userId, exp: Date.now() + referenceLifetimeMs });
      const url = app.config.CUSTOMER_SERVICE_URL;
      return { isSuccess: true, data: `${url}${url.includes('?') ? '&' : '?'}ref=${reference}`, message: message(request.locale, 'ok') };
    });
  },
  { name: 'support', dependencies: ['identity'] },
);
