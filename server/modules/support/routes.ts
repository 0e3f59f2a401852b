/** The customer-service link (spec §7): the configured URL with a signed reference to the user, valid one day. */
import type { FastifyInstance } from 'fastify';
import { support } from '../../../contract/identity.ts';
import type { AppContext } from '../../context.ts';
import { signToken } from '../../crypto/signed.ts';
import { registerRoute } from '../../http/route.ts';
import { message } from '../../i18n/messages.ts';

const referenceLifetimeMs = 24 * 3600_000;

export function supportRoutes(app: FastifyInstance, context: AppContext): void {
  registerRoute(app, context, support.customerService, async ({ auth, request }) => {
    const reference = signToken(context.keys.secret, 'customer-service', { sub: auth.userId, exp: Date.now() + referenceLifetimeMs });
    const url = context.config.CUSTOMER_SERVICE_URL;
    return { isSuccess: true, data: `${url}${url.includes('?') ? '&' : '?'}ref=${reference}`, message: message(request.locale, 'ok') };
  });
}
