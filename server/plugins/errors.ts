/**
 * Every API failure as an envelope `{code, message, data: null}` in the user's
 * language, unknown API paths included; 5xx details go to the log, never to
 * the client.
 */
import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode, httpStatusOf } from '../../contract/errors.ts';
import { ApiError } from '../http/api-error.ts';
import { message } from '../i18n/messages.ts';

/** Fastify's own client errors (bad JSON, body too large, …) mapped to ours. */
function fromFastify(error: FastifyError): ApiError | null {
  const status = error.statusCode ?? 500;
  if (status === 413) return new ApiError(ErrorCode.PayloadTooLarge, 'payloadTooLarge');
  if (status === 429) return new ApiError(ErrorCode.TooManyRequests, 'tooManyRequests');
  if (status === 404) return new ApiError(ErrorCode.NotFound, 'notFound');
  if (status >= 400 && status < 500) return new ApiError(ErrorCode.BadRequest, 'badRequest');
  return null;
}

export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const known = error instanceof ApiError ? error : fromFastify(error);
      if (!known) request.log.error({ err: error }, 'request failed');
      const { code, messageKey } = known ?? { code: ErrorCode.ServerError, messageKey: 'serverError' as const };
      return reply.code(httpStatusOf(code)).send({ code, message: message(request.locale, messageKey), data: null });
    });
    app.setNotFoundHandler(async (request, reply) => {
      return reply.code(404).send({ code: ErrorCode.NotFound, message: message(request.locale, 'notFound'), data: null });
    });
  },
  { name: 'errors', dependencies: ['locale'] },
);
