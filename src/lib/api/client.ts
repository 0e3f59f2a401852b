/**
 * The one HTTP client of the site: every call of the contract goes through
 * `call`, which seals encrypted bodies, sends the bearer token, the page
 * language and credentials, times out after 100 s, unwraps the envelope and
 * turns every failure into an ApiFailure (see errors.ts).
 */
import { pathOf, type ApiRoute, type RequestOf, type ResponseOf } from '../../../contract/api.ts';
import { encryption } from '../../../contract/crypto.ts';
import { SUCCESS, type Envelope } from '../../../contract/envelope.ts';
import { apiBase, requestTimeoutMs, serverPublicKey } from './config.ts';
import { createSealer, requestParts, type Sealer } from './crypto.ts';
import { ApiFailure } from './errors.ts';

export interface CallOptions<R extends ApiRoute> {
  body?: RequestOf<R>;
  params?: Record<string, string | number>;
  /** The access token for authenticated calls. */
  token?: string | null;
}

const unauthorizedEvent = new EventTarget();

/** Runs `listener` whenever a call is answered 401 (spec §4: the login expired). */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedEvent.addEventListener('unauthorized', listener);
  return () => unauthorizedEvent.removeEventListener('unauthorized', listener);
}

async function send(route: ApiRoute, options: CallOptions<ApiRoute>, sealer: Sealer | null): Promise<Response> {
  const { headers, body } = await requestParts({ ...options, locale: document.documentElement.lang || 'zh-CN' }, sealer);
  try {
    return await fetch(`${apiBase}${pathOf(route.path, options.params)}`, {
      method: route.method,
      headers,
      body,
      credentials: 'include',
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

export async function call<R extends ApiRoute>(route: R, options: CallOptions<R> = {}): Promise<ResponseOf<R>> {
  const sealer = route.encrypted ? await createSealer(await serverPublicKey()) : null;
  const response = await send(route, options, sealer);
  if (response.status === 429) throw new ApiFailure('tooManyRequests');
  if (response.status === 401) {
    unauthorizedEvent.dispatchEvent(new Event('unauthorized'));
    throw new ApiFailure('unauthorized');
  }
  const body = await readBody(response, sealer);
  if (route.shape === 'raw') {
    if (!response.ok) throw serverFailure(body);
    return body as ResponseOf<R>;
  }
  const envelope = body as Envelope<ResponseOf<R>>;
  if (envelope?.code !== SUCCESS) throw serverFailure(body);
  return envelope.data;
}

function serverFailure(body: unknown): ApiFailure {
  const { code, message } = (body ?? {}) as Partial<Envelope<unknown>>;
  return typeof message === 'string' && message ? new ApiFailure('server', { code, serverMessage: message }) : new ApiFailure('unknown');
}
