import type { z } from 'zod';

/** Everything both sides need to know about one call. */
export interface ApiRoute<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the API base; `:id` marks a path parameter. */
  path: string;
  /** Encrypted calls use the sealed body format of `crypto.ts`. */
  encrypted: boolean;
  /** 'required' calls need `Authorization: Bearer`; 'optional' ones use it when present. */
  auth: 'none' | 'optional' | 'required';
  /** `envelope` answers are `{code, message, data}` with `response` as data; `raw` answers are `response` itself. */
  shape: 'envelope' | 'raw';
  request: Req;
  response: Res;
}

/** Keeps the literal method, auth and shape of a definition, so both sides can type against them. */
export function route<const D extends ApiRoute>(definition: D): D {
  return definition;
}

export type RequestOf<R extends ApiRoute> = z.input<R['request']>;
export type ResponseOf<R extends ApiRoute> = z.output<R['response']>;

/** Fills `:name` placeholders of a route path. */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(params[name]));
  });
}
