/**
 * Registers a call of the contract on the server: opens sealed bodies, checks
 * the request against the contract's schema (400 in the user's language),
 * authenticates, runs the handler and wraps its result in the envelope — so
 * every route behaves the same and none can forget a step.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ApiRoute } from '../../contract/api.ts';
import { SUCCESS } from '../../contract/envelope.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { AppContext } from '../context.ts';
import { message, type MessageKey } from '../i18n/messages.ts';
import { authenticate, type Authenticated } from '../modules/identity/sessions.ts';
import { ApiError, unauthorized } from './api-error.ts';
import { openSealedBody } from './sealed-body.ts';

export interface Call<R extends ApiRoute, A> {
  body: z.output<R['request']>;
  params: Record<string, string>;
  auth: A;
  request: FastifyRequest;
}

type AuthOf<R extends ApiRoute> = R['auth'] extends 'required' ? Authenticated : R['auth'] extends 'optional' ? Authenticated | null : null;

export interface Answer<T> {
  data: T;
  /** The success message, in the user's language. */
  messageKey?: MessageKey;
}

/** Which message explains a bad field; fields not listed get the generic one. */
const fieldMessages: Record<string, MessageKey> = {
  Phone: 'phoneInvalid',
  Code: 'codeInvalid',
  Email: 'emailInvalid',
  Password: 'passwordInvalid',
};

function validationError(error: z.ZodError): ApiError {
  const field = String(error.issues[0]?.path[0] ?? '');
  return new ApiError(ErrorCode.BadRequest, fieldMessages[field] ?? 'badRequest');
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match ? match[1] : null;
}

export function registerRoute<R extends ApiRoute>(
  app: FastifyInstance,
  context: AppContext,
  route: R,
  handler: (call: Call<R, AuthOf<R>>) => Promise<R['shape'] extends 'raw' ? z.output<R['response']> : Answer<z.output<R['response']>>>,
  options: { rateLimit?: { max: number; timeWindow: number } } = {},
): void {
  app.route({
    method: route.method,
    url: route.path,
    config: options.rateLimit ? { rateLimit: options.rateLimit } : {},
    handler: async (request, reply) => {
      const raw = route.encrypted ? openSealedBody(request, context.keys.privateKey) : request.body;
      const parsed = route.request.safeParse(raw ?? (route.method === 'POST' ? {} : undefined));
      if (!parsed.success) throw validationError(parsed.error);

      let auth: Authenticated | null = null;
      if (route.auth !== 'none') {
        const token = bearerToken(request);
        auth = token ? await authenticate(context.db, token) : null;
        if (!auth && route.auth === 'required') throw unauthorized();
      }

      const result = await handler({ body: parsed.data as z.output<R['request']>, params: request.params as Record<string, string>, auth: auth as AuthOf<R>, request });
      if (route.shape === 'raw') return reply.send(result);
      const { data, messageKey = 'ok' } = result as Answer<unknown>;
      return reply.send({ code: SUCCESS, message: message(request.locale, messageKey), data });
    },
  });
}
