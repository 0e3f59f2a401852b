/** The public key for encrypted calls, and the development outbox while a development provider is on. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SUCCESS } from '../../../contract/envelope.ts';
import { ErrorCode } from '../../../contract/errors.ts';
import { system } from '../../../contract/identity.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';
import { message } from '../../i18n/messages.ts';

export function systemRoutes(app: FastifyInstance, context: AppContext): void {
  registerRoute(app, context, system.publicKey, async () => ({ data: { Spki: context.keys.publicSpki } }));

  const outboxes = [context.sms.outbox, context.email.outbox].filter((outbox) => outbox !== undefined);
  if (outboxes.length === 0) return;
  const query = z.object({ to: z.string().min(1) });
  // Development only: lets a developer or a browser test read the codes it was sent.
  app.get('/dev/outbox', async (request) => {
    const parsed = query.safeParse(request.query);
    if (!parsed.success) throw new ApiError(ErrorCode.BadRequest, 'badRequest');
    const messages = outboxes.flatMap((outbox) => outbox.filter((item) => item.to === parsed.data.to));
    return { code: SUCCESS, message: message(request.locale, 'ok'), data: messages };
  });
}
