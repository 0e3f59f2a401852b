/**
 * Registers a call of the contract on the server: opens sealed bodies, checks
 * the request and its path parameters against the contract (400 in the user's
 * language) once the caller is known, runs the handler, checks its answer against the
 * contract outside production, and wraps it in the envelope — so every route
 * behaves the same and none can forget a step.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import { requestInQuery, type ApiRoute } from '#contract/api.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { ErrorCode } from '#contract/errors.ts';
import { message, type MessageKey } from '../i18n/messages.ts';
import { ApiError, loginRequired, unauthorized } from './api-error.ts';
import { bearerToken, type Authenticated, type ConsoleCaller } from './auth.ts';
import { openSealedBody } from './sealed-body.ts';

type AuthOf<R extends ApiRoute> = R['auth'] extends 'required'
  ? Authenticated
  : R['auth'] extends 'optional'
    ? Authenticated | null
    : R['auth'] extends 'console'
      ? ConsoleCaller
      : null;
type ParamsOf<R extends ApiRoute> = R['params'] extends z.ZodMiniType ? z.output<R['params']> : Record<string, never>;

export interface Call<R extends ApiRoute> {
  body: z.output<R['request']>;
  params: ParamsOf<R>;
  auth: AuthOf<R>;
  request: FastifyRequest;
  /** For headers beyond the answer itself (a cookie). */
  reply: FastifyReply;
}

export interface Answer<T> {
  data: T;
  /** The success message, in the user's language. */
  messageKey?: MessageKey;
  /** Values for the message's `{{name}}` placeholders. */
  messageParams?: Record<string, string>;
}

/** `raw` routes answer their response as it is, `redirect` routes the URL to send the browser to, the others an `Answer`. */
type Result<R extends ApiRoute> = R['shape'] extends 'raw' | 'redirect' ? z.output<R['response']> : Answer<z.output<R['response']>>;

/** Which message explains a bad field; fields not listed get the generic one. */
const fieldMessages: Record<string, MessageKey> = {
  Phone: 'phoneInvalid',
  Code: 'codeInvalid',
  Email: 'emailInvalid',
  OldCode: 'codeInvalid',
  OldEmailCode: 'codeInvalid',
  Password: 'passwordInvalid',
  Image: 'avatarNotImage',
};

function validationError(error: z.core.$ZodError): ApiError {
  const field = String(error.issues[0]?.path[0] ?? '');
  return new ApiError(ErrorCode.BadRequest, fieldMessages[field] ?? 'badRequest');
}

/** An answer that breaks the contract is the server's bug: it fails loudly where tests and developers see it. */
class ContractBreach extends Error {}

/** The request as the contract describes it: a sealed body, a plain GET's query string, or a plain body. */
async function rawRequest(app: FastifyInstance, route: ApiRoute, request: FastifyRequest): Promise<unknown> {
  if (requestInQuery(route)) return request.query;
  const body = route.encrypted ? await openSealedBody(request, app.keys.keyring) : request.body;
  return body ?? (route.method === 'POST' ? {} : undefined);
}

/**
 * The caller, decided before anything else about the request: an anonymous
 * caller of a call that needs a login gets a 401, never a rate limit
 * or a validation error that would tell it about the call. No token at all is
 * "need to log in"; a token that no longer works is "login expired".
 */
async function authOf(app: FastifyInstance, route: ApiRoute, request: FastifyRequest): Promise<Authenticated | null> {
  const token = bearerToken(request.headers.authorization);
  if (!token && route.auth === 'required') throw loginRequired();
  const auth = token ? await app.authenticate(token) : null;
  if (!auth && route.auth === 'required') throw unauthorized();
  return auth;
}

/** What each request's `onRequest` decided about its caller, for the handler. */
const callers = new WeakMap<FastifyRequest, Authenticated | ConsoleCaller | null>();

export function registerRoute<R extends ApiRoute>(
  app: FastifyInstance,
  route: R,
  handler: (call: Call<R>) => Promise<Result<R>>,
  /** A limit of its own instead of the API's per-address one, or none (for a caller that proves who it is by signature). */
  options: { rateLimit?: { max: number; timeWindow: number } | false } = {},
): void {
  const checkAnswers = app.config.NODE_ENV !== 'production';
  app.route({
    method: route.method,
    url: route.path,
    bodyLimit: route.maxBodyBytes,
    config: options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit },
    // Runs before the rate limit (whose hook @fastify/rate-limit appends after the route's own) and
    // before the body is read. Operators' calls are refused outright; to anyone else the path does not exist.
    onRequest:
      route.auth === 'admin'
        ? async (request) => {
            if (!app.isAdminCaller(request)) throw new ApiError(ErrorCode.NotFound, 'notFound');
          }
        : route.auth === 'required' || route.auth === 'optional'
          ? async (request) => {
              callers.set(request, await authOf(app, route, request));
            }
          : route.auth === 'console'
            ? async (request) => {
                callers.set(request, await app.consoleCaller(request));
              }
            : undefined,
    handler: async (request, reply) => {
      const body = route.request.safeParse(await rawRequest(app, route, request));
      if (!body.success) throw validationError(body.error);
      const params = route.params ? route.params.safeParse(request.params) : { success: true as const, data: {} };
      if (!params.success) throw validationError(params.error);
      const auth = callers.get(request) ?? null;

      const result = await handler({ body: body.data, params: params.data, auth, request, reply } as Call<R>);
      const data = route.shape === 'envelope' ? (result as Answer<unknown>).data : result;
      if (checkAnswers) {
        const checked = route.response.safeParse(data);
        if (!checked.success) throw new ContractBreach(`${route.method} ${route.path} answered outside its contract: ${JSON.stringify(checked.error.issues)}`);
      }
      if (route.shape === 'raw') return reply.send(result);
      if (route.shape === 'redirect') return reply.redirect(result as string, 302);
      const answer = result as Answer<unknown>;
      return reply.send({ code: SUCCESS, message: message(request.locale, answer.messageKey ?? 'ok', answer.messageParams), data });
    },
  });
}
