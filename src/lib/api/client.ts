/**
 * The one HTTP client of the site: every call of the contract goes through
 * `call`, which seals encrypted bodies, puts a plain GET's request in its
 * query string, sends the bearer token, the page language and credentials,
 * times out after 100 s, unwraps the envelope, checks the answer against the
 * route's response schema and turns every failure into an ApiFailure (see
 * errors.ts).
 */
import { pathOf, requestInQuery, type ApiRoute, type ParamsOf, type RequestOf, type ResponseOf } from '#contract/api.ts';
import { encryption } from '#contract/crypto.ts';
import { SUCCESS, type Envelope } from '#contract/envelope.ts';
import { ErrorCode } from '#contract/errors.ts';
import { system } from '#contract/identity.ts';
import { apiBase, requestTimeoutMs } from './config.ts';
import { createSealer, importPublicKey, requestParts, type Sealer } from './crypto.ts';
import { ApiFailure } from './errors.ts';

export interface CallOptions<R extends ApiRoute> {
  body?: RequestOf<R>;
  params?: ParamsOf<R>;
  /** The access token for authenticated calls. */
  token?: string | null;
  /** Past the browser's HTTP cache (which the server's Cache-Control fills): for a store that keeps its own cache and asks only when that is stale. */
  fresh?: boolean;
  /** Headers beyond the ones every call sends (the console's CSRF value). */
  headers?: Record<string, string>;
}

/** The type of `call`, for stores that take it injected (their tests pass a stand-in). */
export type Call = <R extends ApiRoute>(route: R, options?: CallOptions<R>) => Promise<ResponseOf<R>>;

const unauthorizedEvent = new EventTarget();

/** Runs `listener` whenever a call made with a token is answered 401 (the login expired), with the route refused. */
export function onUnauthorized(listener: (route: ApiRoute) => void): () => void {
  const heard = (event: Event) => listener((event as CustomEvent<ApiRoute>).detail);
  unauthorizedEvent.addEventListener('unauthorized', heard);
  return () => unauthorizedEvent.removeEventListener('unauthorized', heard);
}

/** Where a call goes; also the address a browser is sent to for a call it makes by navigating (a quick login's start). */
export function routeUrl<R extends ApiRoute>(route: R, options: CallOptions<R>): string {
  const url = `${apiBase}${pathOf(route.path, options.params as Record<string, string | number> | undefined)}`;
  if (!requestInQuery(route) || options.body === undefined) return url;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(options.body as Record<string, unknown>))
    if (value !== undefined && value !== null) query.append(name, String(value));
  return query.size ? `${url}?${query}` : url;
}

async function send(route: ApiRoute, options: CallOptions<ApiRoute>, sealer: Sealer | null): Promise<Response> {
  const body = requestInQuery(route) ? undefined : options.body;
  const parts = await requestParts({ body, token: options.token, locale: document.documentElement.lang || 'zh-CN' }, sealer);
  try {
    return await fetch(routeUrl(route, options), {
      method: route.method,
      headers: { ...parts.headers, ...options.headers },
      body: parts.body,
      credentials: 'include',
      cache: options.fresh ? 'no-cache' : 'default',
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
  } catch {
    throw new ApiFailure('network');
  }
}

async function readBody(response: Response, sealer: Sealer | null): Promise<unknown> {
  try {
    const text = await response.text();
    const sealed = response.headers.get('content-type')?.startsWith(encryption.contentType);
    if (sealed && !sealer) throw new Error('sealed answer to a plain call');
    return JSON.parse(sealed && sealer ? await sealer.open(text) : text);
  } catch {
    throw new ApiFailure('unknown');
  }
}

/** The answer as the contract describes it; an answer that breaks the contract is one we cannot read. */
function checked<R extends ApiRoute>(route: R, data: unknown): ResponseOf<R> {
  const result = route.response.safeParse(data);
  if (!result.success) throw new ApiFailure('unknown');
  return result.data as ResponseOf<R>;
}

/** A refusal in the envelope's words carries the server's message; anything else is an answer we cannot read. */
function serverFailure(body: unknown): ApiFailure {
  const words = serverWords(body);
  return words ? new ApiFailure('server', words) : new ApiFailure('unknown');
}

/** An envelope's code and message, when the server said something. */
function serverWords(body: unknown): { code: number; serverMessage: string } | null {
  const { code, message } = (body ?? {}) as Partial<Envelope<unknown>>;
  return typeof code === 'number' && typeof message === 'string' && message ? { code, serverMessage: message } : null;
}

let publicKey: Promise<CryptoKey> | undefined;

/**
 * The key encrypted calls wrap theirs with, asked of the server by a plain
 * call of the contract — once per page (the browser's cache, which the
 * server's Cache-Control fills, spares most pages even that), again after a
 * failure, and past the cache when `fresh` (the server has a new key).
 */
export function serverPublicKey(fresh = false): Promise<CryptoKey> {
  if (fresh) publicKey = undefined;
  publicKey ??= call(system.publicKey, { fresh })
    .then((answer) => importPublicKey(answer.Spki))
    .catch((error: unknown) => {
      publicKey = undefined;
      throw error;
    });
  return publicKey;
}

/** Makes one call of the contract and gives its answer, checked; every failure is an ApiFailure. */
export async function call<R extends ApiRoute>(route: R, options: CallOptions<R> = {}): Promise<ResponseOf<R>> {
  try {
    return await attempt(route, options);
  } catch (error) {
    // A sealed call the server could not open was never acted on: the key kept may be an old one, so send it once more with the current key.
    if (route.encrypted && error instanceof ApiFailure && error.code === ErrorCode.EncryptionInvalid) return attempt(route, options, { freshKey: true });
    throw error;
  }
}

/** Throws the refusals every call reads alike: going too fast, or a login needed or ended. */
async function refuseLimitsAndLogins(route: ApiRoute, options: CallOptions<ApiRoute>, response: Response, sealer: Sealer | null): Promise<void> {
  // Going too fast, in the server's own words when it said which limit and for how long (a cdkey lockout, the review limit).
  if (response.status === 429) {
    const retryAfter = Number(response.headers.get('retry-after'));
    const words = serverWords(await readBody(response, sealer).catch(() => null));
    throw new ApiFailure('tooManyRequests', { ...words, retryAfterMs: retryAfter > 0 ? retryAfter * 1000 : undefined });
  }
  // A call made without a token needs a login, and no login ended; a token the server refused is a login that did, which the 401 event tells the session.
  if (response.status === 401) {
    const words = serverWords(await readBody(response, sealer).catch(() => null)) ?? {};
    if (!options.token) throw new ApiFailure('loginRequired', words);
    unauthorizedEvent.dispatchEvent(new CustomEvent('unauthorized', { detail: route }));
    throw new ApiFailure('unauthorized', words);
  }
}

async function attempt<R extends ApiRoute>(route: R, options: CallOptions<R>, { freshKey = false } = {}): Promise<ResponseOf<R>> {
  const sealer = route.encrypted ? await createSealer(await serverPublicKey(freshKey)) : null;
  const response = await send(route, options, sealer);
  await refuseLimitsAndLogins(route, options, response, sealer);
  const body = await readBody(response, sealer);
  if (route.shape === 'raw') {
    if (!response.ok) throw serverFailure(body);
    return checked(route, body);
  }
  const envelope = body as Partial<Envelope<unknown>> | null;
  if (envelope?.code !== SUCCESS) throw serverFailure(body);
  return checked(route, envelope.data);
}

/**
 * A file a plain call answers (an issued invoice's PDF), as the bytes and their type; a refusal is an ApiFailure
 * read as `call` reads one (a token the server refused ends the login there too).
 */
export async function download<R extends ApiRoute>(route: R, options: CallOptions<R> = {}): Promise<Blob> {
  const response = await send(route, options, null);
  await refuseLimitsAndLogins(route, options, response, null);
  if (!response.ok) throw serverFailure(await readBody(response, null));
  try {
    return await response.blob();
  } catch {
    throw new ApiFailure('network');
  }
}
