/**
 * The API's common behaviour: the user's locale on every request, sealed
 * bodies in and out, and every error as an envelope `{code, message, data}` in
 * the user's language — 5xx details go to the log, never to the client.
 */
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { encryption } from '../../contract/crypto.ts';
import { ErrorCode, httpStatusOf } from '../../contract/errors.ts';
import type { LocaleCode } from '../../contract/locales.ts';
import { seal } from '../crypto/sealed.ts';
import { ApiError } from '../http/api-error.ts';
import { message, negotiateLocale, type MessageKey } from '../i18n/messages.ts';

declare module 'fastify' {
  interface FastifyRequest {
    locale: LocaleCode;
    /** The AES key of a sealed request; the answer is sealed with it. */
    sealKey?: Buffer;
  }
}

/** Fastify's own client errors (bad JSON, body too large, …) mapped to ours. */
function fromFastify(error: FastifyError): ApiError | null {
  const status = error.statusCode ?? 500;
  if (status === 413) return new ApiError(ErrorCode.PayloadTooLarge, 'payloadTooLarge');
  if (status === 429) return new ApiError(ErrorCode.TooManyRequests, 'tooManyRequests');
  if (status === 404) return new ApiError(ErrorCode.NotFound, 'notFound');
  if (status >= 400 && status < 500) return new ApiError(ErrorCode.BadRequest, 'badRequest');
  return null;
}

const envelope: FastifyPluginAsync = async (app) => {
  app.decorateRequest('locale', 'zh-CN');
  app.decorateRequest('sealKey', undefined);

  app.addHook('onRequest', async (request) => {
    request.locale = negotiateLocale(request.headers['accept-language']);
  });

  app.addContentTypeParser(encryption.contentType, { parseAs: 'string', bodyLimit: encryption.maxBodyBytes }, (_request, body, done) => done(null, body));

  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.sealKey || typeof payload !== 'string') return payload;
    reply.header('content-type', encryption.contentType);
    return seal(request.sealKey, payload);
  });

  const answer = (code: number, key: MessageKey, locale: LocaleCode) => ({ code, message: message(locale, key), data: null });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof ApiError ? error : fromFastify(error);
    if (known) return reply.code(httpStatusOf(known.code)).send(answer(known.code, known.messageKey, request.locale));
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(answer(ErrorCode.ServerError, 'serverError', request.locale));
  });

  // Unknown API paths answer with an envelope, not the site's not-found page.
  app.all('/*', async () => {
    throw new ApiError(ErrorCode.NotFound, 'notFound');
  });
};

export default fp(envelope, { name: 'envelope' });
