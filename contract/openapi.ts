/**
 * The API as an OpenAPI 3.1 document, made from the contract's list of calls
 * (`routes.ts`) and zod's JSON Schema output: nothing in it is written by hand
 * per call. Each call's method, path and path parameters; its request (a plain
 * GET's as query parameters, any other as the JSON body, a sealed one as the
 * sealed body of `crypto.ts` with the plain schemas under `x-sealed`); its
 * answer (the envelope, as it is, or a redirect); who may call it; and the
 * error codes it can answer, from what it declares.
 */
import * as z from 'zod/mini';
import { adminTokenHeader } from './admin.ts';
import { requestInQuery, type ApiRoute } from './api.ts';
import { consoleCookie, consoleCsrfHeader } from './console.ts';
import { encryption } from './crypto.ts';
import { SUCCESS } from './envelope.ts';
import { errorMeanings } from './error-meanings.ts';
import { ErrorCode, httpStatusOf } from './errors.ts';
import { multilineText, text } from './fields.ts';
import { listedRoutes, routeGroups, type ListedRoute } from './routes.ts';

type Json = Record<string, unknown>;

/** What calls refer to instead of repeating it: error answers by their codes, and sealed calls' plain request and answer. */
interface Shared {
  responses: Record<string, Json>;
  schemas: Record<string, Json>;
}

export interface OpenApiOptions {
  /** The API's version as released (package.json's). */
  version: string;
  /** With the development stand-ins' calls (never in production). */
  withDev: boolean;
}

/**
 * The patterns of the rule every string of the contract has (no control characters; in text written in lines, but the
 * line break), which the document states once instead: in each field they would bury the field's own pattern, and a
 * renderer or client that reads patterns without Unicode property escapes takes `\P{Cc}` for the letter P.
 */
const textRules = new Set([text(), multilineText()].map((schema) => z.toJSONSchema(schema).pattern));

/** Leaves the text rule out of one schema, keeping the field's own pattern. */
function withoutTextRules({ jsonSchema }: { jsonSchema: z.core.JSONSchema.BaseSchema }): void {
  if (textRules.has(jsonSchema.pattern)) delete jsonSchema.pattern;
  const patterns = jsonSchema.allOf;
  if (!patterns) return;
  const own = patterns.filter((part) => typeof part !== 'object' || !textRules.has(part.pattern));
  if (own.length === patterns.length) return;
  delete jsonSchema.allOf;
  if (own.length > 1) jsonSchema.allOf = own;
  else if (own.length === 1) Object.assign(jsonSchema, own[0]);
}

/** What the caller sends (`input`) or gets (`output`) as JSON Schema 2020-12, OpenAPI 3.1's own dialect; what JSON cannot say is left open. */
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', override: withoutTextRules }) as Json;
  return rest;
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The envelope around an answer's data. */
const envelopeOf = (data: Json): Json => ({
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: { code: { const: SUCCESS }, message: { type: 'string' }, data },
});

/** The codes a call can answer with, from what it declares: its callers, its sealing, its input; and those any call can. */
function errorCodesOf(route: ApiRoute, takesInput: boolean): number[] {
  const { auth, method, encrypted } = route;
  return [
    ...(takesInput ? [ErrorCode.BadRequest] : []),
    ...(auth === 'required' ? [ErrorCode.Unauthorized] : []),
    ...(auth === 'admin' ? [ErrorCode.NotFound] : []),
    ...(auth === 'console' ? [ErrorCode.ConsoleSignIn, ...(method === 'GET' ? [] : [ErrorCode.ConsoleCrossSite])] : []),
    ...(encrypted ? [ErrorCode.EncryptionInvalid] : []),
    ...(requestInQuery(route) ? [] : [ErrorCode.PayloadTooLarge]),
    ErrorCode.TooManyRequests,
    ErrorCode.ServerError,
    ErrorCode.Unavailable,
  ];
}

/** A failure with one of `codes` (components.schemas.ErrorCode says what each means). */
const failureOf = (codes: number[]): Json => ({
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'integer', enum: codes },
    message: { type: 'string', description: 'In the reader’s language (`Accept-Language`).' },
    data: { type: 'null' },
  },
});

const codeNames = new Map(Object.entries(ErrorCode).map(([name, code]) => [code as number, name as keyof typeof ErrorCode]));

/**
 * The error answers, one per HTTP status, each naming its codes; a sealed call's come sealed once its key is read, plain
 * before. Calls share them through `responses` (named by their codes), so each is written once.
 */
function errorResponses(codes: number[], sealed: boolean, shared: Shared): Json {
  const byStatus = Map.groupBy(codes, httpStatusOf);
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => {
      const name = [...group.map((code) => codeNames.get(code)), ...(sealed ? ['Sealed'] : [])].join('.');
      shared.responses[name] ??= {
        description: group.map((code) => `\`${code}\` ${codeNames.get(code)}: ${errorMeanings[codeNames.get(code)!]}`).join('\n\n'),
        content: {
          'application/json': { schema: failureOf(group) },
          ...(sealed ? { [encryption.contentType]: { schema: ref('schemas', 'Sealed') } } : {}),
        },
      };
      return [String(status), ref('responses', name)];
    }),
  );
}

/** Who may call: a bearer token (needed or used when present), the operators' command, or the console's session (with its CSRF header unless it only reads). */
function securityOf(route: ApiRoute): Json[] {
  switch (route.auth) {
    case 'none':
      return [];
    case 'optional':
      return [{ bearer: [] }, {}];
    case 'required':
      return [{ bearer: [] }];
    case 'admin':
      return [{ adminToken: [] }];
    case 'console':
      return [route.method === 'GET' ? { consoleSession: [] } : { consoleSession: [], consoleCsrf: [] }];
  }
}

/** The query parameters of a plain GET: one per field, or one free-form object for a request that names no fields. */
function queryParameters(request: Json): Json[] {
  const properties = request.properties as Record<string, Json> | undefined;
  if (!properties) return Object.keys(request).length === 0 ? [] : [{ name: 'query', in: 'query', style: 'form', explode: true, schema: request }];
  const required = new Set(request.required as string[] | undefined);
  return Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }));
}

/** The path parameters, in the path's order, as strings in (`params` parses them). */
function pathParameters(route: ApiRoute): Json[] {
  const properties = (route.params ? jsonSchema(route.params, 'input').properties : {}) as Record<string, Json>;
  return [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: properties[name] ?? { type: 'string' } }));
}

/** Where a sealed call's plain request and answer are: among the shared schemas, named after the call, since a renderer shows no `x-` field's schema. */
function sealedParts(operationId: string, request: Json, answer: Json, shared: Shared): Json {
  const names = { request: `${operationId}.request`, response: `${operationId}.response` };
  shared.schemas[names.request] = request;
  shared.schemas[names.response] = answer;
  return {
    description: `Sealed (components.schemas.Sealed): the body sealed is \`${names.request}\`, the answer opened is \`${names.response}\` (Schemas).`,
    'x-sealed': { request: ref('schemas', names.request), response: ref('schemas', names.response) },
  };
}

/** One call as an operation. */
function operationOf({ tag, name, route }: ListedRoute, shared: Shared): Json {
  const request = jsonSchema(route.request, 'input');
  const output = jsonSchema(route.response, 'output');
  const answer = route.shape === 'envelope' ? envelopeOf(output) : output;
  const inQuery = requestInQuery(route);
  const query = inQuery ? queryParameters(request) : [];
  const path = pathParameters(route);
  // The server reads a POST without a body as `{}` (http/route.ts): a call that takes that needs no body.
  const bodyOptional = route.request.safeParse(route.method === 'POST' ? {} : undefined).success;
  const hasBody = !inQuery && !(bodyOptional && route.method !== 'POST');
  const body = route.encrypted ? ref('schemas', 'Sealed') : request;
  const mediaType = route.encrypted ? encryption.contentType : 'application/json';

  const success =
    route.shape === 'redirect'
      ? { '302': { description: 'Sends the browser on to the address in `Location`.', headers: { Location: { required: true, schema: output } } } }
      : {
          '200': {
            description: route.shape === 'envelope' ? 'The envelope, `code` 200, with the answer as `data`.' : 'The answer as it is, no envelope.',
            content: {
              [route.encrypted ? encryption.contentType : output.type === 'string' ? '*/*' : 'application/json']: {
                schema: route.encrypted ? ref('schemas', 'Sealed') : answer,
              },
            },
          },
        };

  return {
    operationId: `${tag}.${name}`,
    summary: name,
    tags: [tag],
    security: securityOf(route),
    parameters: [...path, ...query, ...(route.encrypted ? [ref('parameters', 'SealKey')] : [])],
    ...(hasBody ? { requestBody: { required: !bodyOptional, content: { [mediaType]: { schema: body } } } } : {}),
    responses: { ...success, ...errorResponses(errorCodesOf(route, hasBody || query.length > 0 || path.length > 0), route.encrypted, shared) },
    ...(route.encrypted ? sealedParts(`${tag}.${name}`, request, answer, shared) : {}),
  };
}

/** Everything calls refer to: the error codes, the error answers, the sealed calls' plain parts, the sealed body and its key, the ways to authenticate. */
function components(options: OpenApiOptions, shared: Shared): Json {
  return {
    responses: shared.responses,
    schemas: {
      ...shared.schemas,
      ErrorCode: {
        type: 'integer',
        description: 'The envelope’s `code` of a failure, each with what it means and the HTTP status it comes with.',
        oneOf: Object.entries(ErrorCode).map(([name, code]) => ({
          const: code,
          title: name,
          description: `${errorMeanings[name as keyof typeof ErrorCode]} HTTP ${httpStatusOf(code)}.`,
        })),
      },
      Sealed: {
        type: 'string',
        contentEncoding: 'base64',
        maxLength: encryption.maxBodyBytes,
        description:
          `A sealed body (contract/crypto.ts): base64 of a fresh ${encryption.ivBytes}-byte IV followed by the AES-256-CBC encryption of the JSON, ` +
          `under a fresh ${encryption.aesKeyBytes}-byte key sent wrapped in \`${encryption.keyHeader}\`. The answer, errors included once the key is read, ` +
          'is sealed the same way with the same key and a fresh IV. The plain JSON of each call is the schemas its `x-sealed` names.',
      },
    },
    parameters: {
      SealKey: {
        name: encryption.keyHeader,
        in: 'header',
        required: true,
        description: 'The request’s AES key, wrapped with RSA-OAEP-SHA256 under the server’s public key (`GET /crypto/public-key`), hex-encoded.',
        schema: { type: 'string', pattern: '^[0-9a-fA-F]+$' },
      },
    },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'The access token a login answers with.' },
      adminToken: {
        type: 'apiKey',
        in: 'header',
        name: adminTokenHeader,
        description: 'The operators’ command (`npm run admin`) on the server’s own machine.',
      },
      consoleSession: {
        type: 'apiKey',
        in: 'cookie',
        name: consoleCookie,
        description: 'The operators’ console session, opened by signing in with a second factor.',
      },
      consoleCsrf: {
        type: 'apiKey',
        in: 'header',
        name: consoleCsrfHeader,
        description: 'The console session’s `Csrf` value, on every console call but a read.',
      },
    },
  };
}

/** The whole document, as JSON-ready data. */
export function openApiDocument(options: OpenApiOptions): Json {
  const routes = listedRoutes(options.withDev);
  const paths: Record<string, Json> = {};
  const shared: Shared = { responses: {}, schemas: {} };
  for (const listed of routes) {
    const path = listed.route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [listed.route.method.toLowerCase()]: operationOf(listed, shared) };
  }
  const tags = routeGroups.filter((group) => options.withDev || !group.devOnly).map((group) => ({ name: group.tag }));
  return {
    openapi: '3.1.1',
    info: {
      title: 'Beacon Toolkit API',
      version: options.version,
      description:
        'Calls answer an envelope `{code, message, data}` (`code` 200 on success) unless they say otherwise; failures carry an error code ' +
        '(components.schemas.ErrorCode) and a message in the reader’s language. Sealed calls (`x-sealed`) send and answer sealed bodies. ' +
        'No string may hold a control character (Unicode category Cc), but for the line break in text written in lines (a review, a note).',
    },
    servers: [{ url: '/api' }],
    tags,
    paths,
    components: components(options, shared),
  };
}
