import type * as z from 'zod/mini';

/** Everything both sides need to know about one call. */
export interface ApiRoute<
  Req extends z.ZodMiniType = z.ZodMiniType,
  Res extends z.ZodMiniType = z.ZodMiniType,
  Params extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the API base; `:name` marks a path parameter, which `params` describes. */
  path: string;
  /** Encrypted calls use the sealed body format of `crypto.ts`. */
  encrypted: boolean;
  /**
   * 'required' calls need `Authorization: Bearer`; 'optional' ones use it when present;
   * 'admin' calls come from the operators' command on the server's own machine (`admin.ts`);
   * 'console' calls need the operators' console session (`console.ts`), and its CSRF header unless they only read.
   */
  auth: 'none' | 'optional' | 'required' | 'admin' | 'console';
  /**
   * `envelope` answers are `{code, message, data}` with `response` as data; `raw` answers are `response` itself;
   * `redirect` answers send the browser on to `response`, a URL (pages a browser navigates to, not calls).
   */
  shape: 'envelope' | 'raw' | 'redirect';
  request: Req;
  response: Res;
  /** A larger body than the API's usual limit (an upload); the server refuses anything bigger with 413. */
  maxBodyBytes?: number;
  /** The path parameters, as strings in and parsed values out; absent when the path has none. */
  params?: Params;
}

/** A plain (not encrypted) GET call sends its request as the query string; every other call as its body. */
export function requestInQuery(route: Pick<ApiRoute, 'method' | 'encrypted'>): boolean {
  return !route.encrypted && route.method === 'GET';
}

/** Keeps the literal method, auth and shape of a definition, so both sides can type against them. */
export function route<const D extends ApiRoute>(definition: D): D {
  return definition;
}

export type RequestOf<R extends ApiRoute> = z.input<R['request']>;
export type ResponseOf<R extends ApiRoute> = z.output<R['response']>;
/** What a caller fills the path with: the parameters' input (strings or numbers), or nothing. */
export type ParamsOf<R extends ApiRoute> = R['params'] extends z.ZodMiniType ? { [K in keyof z.input<R['params']>]: string | number } : undefined;

/** Fills `:name` placeholders of a route path. */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(params[name]));
  });
}
