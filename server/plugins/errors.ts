/**
 * Every API failure as an envelope `{code, message, data: null}` in the user's
 * language, unknown API paths included; 5xx details go to the log, never to
 * the client.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode, httpStatusOf } from '#contract/errors.ts';
import { databaseRetryAfterMs, isDatabaseUnavailable } from '../db/errors.ts';
import { ApiError } from '../http/api-error.ts';
import { message } from '../i18n/messages.ts';
import { StorageError, storageRefusal } from '../services/file-store.ts';
import { MessengerError } from '../messages/messenger.ts';

/** A message that was not sent, answered by why (messages/messenger.ts `Refusal`); the messenger logged the provider's words. */
function fromMessenger(error: MessengerError): ApiError {
  const { to } = error;
  const sms = error.channel === 'sms';
  switch (error.refusal) {
    case 'rateLimited':
      return new ApiError(ErrorCode.MessageRateLimited, 'messageRateLimited', { to }, { retryAfterMs: error.retryAfterMs ?? 60_000 });
    case 'recipientInvalid':
      return new ApiError(ErrorCode.RecipientUnreachable, sms ? 'phoneUnreachable' : 'emailUnreachable', { to });
    case 'unavailable':
      return new ApiError(ErrorCode.MessagingUnavailable, sms ? 'smsUnavailable' : 'emailUnavailable');
    case 'unreachable':
      return new ApiError(ErrorCode.MessageNotSent, sms ? 'smsNotSent' : 'emailNotSent');
  }
}

/** The database is away (restarting, failing over): 503 with when to try again, so clients and nginx can tell it from a fault. */
const databaseUnavailable = () => new ApiError(ErrorCode.Unavailable, 'unavailable', {}, { retryAfterMs: databaseRetryAfterMs });

/** Fastify's own client errors (bad JSON, body too large, …) mapped to ours. */
function fromFastify(error: FastifyError): ApiError | null {
  const status = error.statusCode ?? 500;
  if (status === 413) return new ApiError(ErrorCode.PayloadTooLarge, 'payloadTooLarge');
  if (status === 429) return new ApiError(ErrorCode.TooManyRequests, 'tooFast');
  if (status === 404) return new ApiError(ErrorCode.NotFound, 'notFound');
  if (status >= 400 && status < 500) return new ApiError(ErrorCode.BadRequest, 'badRequest');
  return null;
}

/** The answer an error has, null for a fault of ours (500). */
function answerFor(error: FastifyError): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof MessengerError) return fromMessenger(error);
  if (error instanceof StorageError) return storageRefusal(error);
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
  return fromFastify(error);
}

/** How much of an oversized body is read and thrown away, and for how long, before the connection is closed anyway. */
const discardLimit = { bytes: 1024 * 1024, ms: 5_000 };

/**
 * Reads and discards the rest of a request body (up to `discardLimit`). A
 * client still sending when the server answers early (413 for its size, 429
 * before it was read) and closes gets a reset instead of the answer; once it
 * has sent everything, it reads the answer.
 */
function discardBody(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const timer = setTimeout(done, discardLimit.ms);
    function onData(chunk: Buffer) {
      seen += chunk.length;
      if (seen > discardLimit.bytes) done();
    }
    function done() {
      clearTimeout(timer);
      raw.off('data', onData).off('end', done).off('error', done).off('close', done);
      resolve();
    }
    raw.on('data', onData).once('end', done).once('error', done).once('close', done);
    raw.resume();
  });
}

export default fp(
  async (app) => {
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      if (!request.raw.complete) {
        await discardBody(request.raw);
        reply.header('connection', 'close');
      }
      const known = answerFor(error);
      // A refusal only the operators can end was logged as such where it happened (plugins/messengers.ts).
      if (error instanceof MessengerError) {
        if (error.refusal !== 'unavailable') request.log.warn({ err: error }, `a message was not sent (${error.refusal})`);
      } else if (error instanceof StorageError) request.log.error({ err: error }, error.message);
      else if (!(error instanceof ApiError) && known?.code === ErrorCode.Unavailable) request.log.warn({ err: error }, 'the database is unavailable');
      if (!known) request.log.error({ err: error }, 'request failed');
      const { code, messageKey, messageParams } = known ?? { code: ErrorCode.ServerError, messageKey: 'serverError' as const, messageParams: {} };
      const status = httpStatusOf(code);
      if (known?.retryAfterMs !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(known.retryAfterMs / 1000))));
      if (status === 429) app.metrics.limitRefused(request, known?.limit ?? messageKey);
      // The request's id is in every log line of it; a 5xx message gives it to the customer to quote.
      const params = { id: request.id, ...messageParams };
      return reply.code(status).send({ code, message: message(request.locale, messageKey, params), data: null });
    });
    app.setNotFoundHandler(async () => {
      throw new ApiError(ErrorCode.NotFound, 'notFound');
    });
  },
  { name: 'errors', dependencies: ['locale', 'metrics'] },
);
