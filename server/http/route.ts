/**
 * Registers a call of the contract on the server: opens sealed bodies, checks
 * the request and its path parameters against the contract (400 in the user's
 * language: a field's own message, or the generic form message naming the
 * field and its bound) once the caller is known, runs the handler, checks its answer against the
 * contract outside production, and wraps it in the envelope — so every route
 * behaves the same and none can forget a step.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import { requestInQuery, type ApiRoute } from '#contract/api.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { ErrorCode } from '#contract/errors.ts';
import type { LocaleCode } from '#contract/locales.ts';
import type { SharedMessageKey } from '#contract/messages.ts';
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

/** Which message explains a bad field, when the field has one of its own. */
const fieldMessages: Record<string, MessageKey> = {
  Phone: 'phoneInvalid',
  Code: 'codeInvalid',
  Email: 'emailInvalid',
  OldCode: 'codeInvalid',
  OldEmailCode: 'codeInvalid',
  Password: 'passwordInvalid',
  Image: 'avatarNotImage',
  NickName: 'nicknameLength',
};

/** The names of the other fields a person fills in: a bad one gets the generic form message that names it. Any other field is a bad request. */
const fieldNames: Record<string, MessageKey> = {
  Account: 'field.Account',
  Current: 'field.Current',
  Key: 'field.Key',
  Name: 'field.Name',
  Rating: 'field.Rating',
  Text: 'field.Text',
  ClientSeed: 'field.ClientSeed',
  Target: 'field.Target',
  UserCode: 'field.UserCode',
};

/**
 * The generic form message (spec §5) for a field's first problem, with the bound it broke:
 * missing or empty, too short or too long, too small or too large, not a whole number
 * (the contract's numbers are whole), or anything else it is not.
 */
function genericProblem(issue: z.core.$ZodIssue, given: unknown): { key: SharedMessageKey; params: Record<string, string> } {
  if (issue.code === 'too_small' && issue.inclusive !== false) {
    if (issue.origin === 'string')
      return Number(issue.minimum) <= 1 ? { key: 'fieldRequired', params: {} } : { key: 'fieldTooShort', params: { min: String(issue.minimum) } };
    if (issue.origin === 'number') return { key: 'fieldTooSmall', params: { min: String(issue.minimum) } };
  }
  if (issue.code === 'too_big' && issue.inclusive !== false) {
    if (issue.origin === 'string') return { key: 'fieldTooLong', params: { max: String(issue.maximum) } };
    if (issue.origin === 'number') return { key: 'fieldTooLarge', params: { max: String(issue.maximum) } };
  }
  if (issue.code === 'invalid_type') {
    if (given === undefined || given === null) return { key: 'fieldRequired', params: {} };
    if (issue.expected === 'number' || issue.expected === 'int') return { key: 'fieldNotNumber', params: {} };
  }
  return { key: 'fieldInvalid', params: {} };
}

/** A request the contract refuses: its first bad field's own message, the generic one naming a field a person fills in, or a bad request. */
function validationError(error: z.core.$ZodError, input: unknown, locale: LocaleCode): ApiError {
  const [issue] = error.issues;
  const field = String(issue?.path[0] ?? '');
  if (fieldMessages[field]) return new ApiError(ErrorCode.BadRequest, fieldMessages[field]);
  if (!issue || !fieldNames[field] || issue.path.length !== 1) return new ApiError(ErrorCode.BadRequest, 'badRequest');
  const { key, params } = genericProblem(issue, (input as Record<string, unknown> | undefined)?.[field]);
  return new ApiError(ErrorCode.BadRequest, key, { field: message(locale, fieldNames[field]), ...params });
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
  /** A limit of its own instead of the API's per-address one (with its own refusal when that says more than "too fast"), or none (for a caller that proves who it is by signature). */
  options: { rateLimit?: { max: number; timeWindow: number; errorResponseBuilder?: () => ApiError } | false } = {},
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
      const input = await rawRequest(app, route, request);
      const body = route.request.safeParse(input);
      if (!body.success) throw validationError(body.error, input, request.locale);
      const params = route.params ? route.params.safeParse(request.params) : { success: true as const, data: {} };
      if (!params.success) throw validationError(params.error, request.params, request.locale);
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
