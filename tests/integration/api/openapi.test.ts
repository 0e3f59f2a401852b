/**
 * The API described for others (contract/openapi.ts, server/plugins/openapi.ts):
 * every route the server registers is in the contract's one list, every listed
 * call is in the document with its security and sealing, the document is valid
 * OpenAPI 3.1, production's has no development stand-in, and the reference page
 * loads its renderer from this server alone.
 */
import zlib from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { encryption } from '#contract/crypto.ts';
import { openApiDocument } from '#contract/openapi.ts';
import { listedRoutes, routeGroups } from '#contract/routes.ts';
import { productionSettings } from '../production-settings.ts';
import { startApp, type TestApp } from './harness.ts';

/** Every route the app registers through registerRoute, as it registers it. */
const registered = vi.hoisted(() => new Set<unknown>());
vi.mock('../../../server/http/route.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../server/http/route.ts')>();
  return {
    ...original,
    registerRoute: ((app, route, ...rest) => {
      registered.add(route);
      return original.registerRoute(app, route, ...rest);
    }) as typeof original.registerRoute,
  };
});

type Operation = { operationId: string; tags: string[]; security: unknown[]; parameters: Array<{ name?: string; in?: string; $ref?: string }> } & Record<
  string,
  unknown
>;
type Document = { paths: Record<string, Record<string, Operation>>; tags: Array<{ name: string }>; components: Record<string, Record<string, unknown>> };

const production = { NODE_ENV: 'production', ...productionSettings };
const operationOf = (document: Document, route: ApiRoute) => document.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  registered.clear();
});

async function served(app: TestApp, acceptEncoding = 'identity'): Promise<Document> {
  const answer = await app.app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': acceptEncoding } });
  expect(answer.statusCode).toBe(200);
  return answer.json();
}

describe('the list of calls', () => {
  it('holds every route the server registers, and nothing the server does not', async () => {
    t = await startApp({ PAYMENT_PROVIDER: 'sandbox' });
    const listed = new Set(listedRoutes(true).map(({ route }) => route));
    const unlisted = [...registered]
      .filter((route) => !listed.has(route as ApiRoute))
      .map((route) => `${(route as ApiRoute).method} ${(route as ApiRoute).path}`);
    expect(unlisted).toEqual([]);
    const neverRegistered = [...listed].filter((route) => !registered.has(route)).map((route) => `${route.method} ${route.path}`);
    expect(neverRegistered).toEqual([]);
  });

  it('gives each group a tag of its own, and each call one group', () => {
    expect(new Set(routeGroups.map((group) => group.tag)).size).toBe(routeGroups.length);
    const routes = listedRoutes(true).map(({ route }) => route);
    expect(new Set(routes).size).toBe(routes.length);
    expect(new Set(routes.map((route) => `${route.method} ${route.path}`)).size).toBe(routes.length);
  });
});

describe('the document', () => {
  it('has every call with its method, path, path parameters, security and sealing', async () => {
    t = await startApp();
    const document = await served(t);
    for (const { tag, name, route } of listedRoutes(true)) {
      const operation = operationOf(document, route);
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation!.operationId).toBe(`${tag}.${name}`);
      expect(operation!.tags).toEqual([tag]);
      const security = { none: [], optional: [{ bearer: [] }, {}], required: [{ bearer: [] }], admin: [{ adminToken: [] }] }[route.auth as string] ?? [
        route.method === 'GET' ? { consoleSession: [] } : { consoleSession: [], consoleCsrf: [] },
      ];
      expect(operation!.security, `${route.method} ${route.path}`).toEqual(security);
      const pathNames = [...route.path.matchAll(/:(\w+)/g)].map(([, param]) => param);
      expect(operation!.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name)).toEqual(pathNames);
      expect('x-sealed' in operation!, `${route.method} ${route.path}`).toBe(route.encrypted);
      const body = operation!.requestBody as { content: Record<string, unknown> } | undefined;
      if (route.encrypted) {
        expect(operation!.parameters).toContainEqual({ $ref: '#/components/parameters/SealKey' });
        if (body) expect(Object.keys(body.content)).toEqual([encryption.contentType]);
      } else if (body) {
        expect(Object.keys(body.content)).toEqual(['application/json']);
      }
    }
  });

  it('names the error codes a call can answer, from what it declares', () => {
    const document = openApiDocument({ version: '0', withDev: false }) as Document;
    const responses = (route: ApiRoute) =>
      Object.values((operationOf(document, route)!.responses as Record<string, { $ref?: string }>) ?? {}).map((answer) => answer.$ref ?? '');
    const { account, system } = Object.fromEntries(routeGroups.map((group) => [group.tag, group.calls]));
    // A sealed call with a body that needs a login: the token's 401, the sealing's 4000 beside the bad request's 400, every answer sealed or plain.
    expect(responses(account!.updateNickname!)).toEqual(
      expect.arrayContaining(['#/components/responses/Unauthorized.Sealed', '#/components/responses/BadRequest.EncryptionInvalid.Sealed']),
    );
    // A plain call that takes nothing and needs no login: only what any call can answer.
    expect(responses(system!.live!)).toEqual(['', ...['TooManyRequests', 'ServerError', 'Unavailable'].map((name) => `#/components/responses/${name}`)]);
    const codes = (document.components.schemas!.ErrorCode as { oneOf: Array<{ const: number; title: string; description: string }> }).oneOf;
    expect(codes.length).toBeGreaterThan(60);
    for (const code of codes) expect(code.description.length, code.title).toBeGreaterThan(20);
  });

  it('is a valid OpenAPI 3.1 document, with the stand-ins and without', async () => {
    for (const withDev of [true, false]) {
      const document = openApiDocument({ version: '0', withDev });
      const result = await new Validator().validate(document);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(document.openapi).toMatch(/^3\.1\./);
    }
  });

  it('has no development stand-in in production, where the stand-ins are off', async () => {
    t = await startApp(production);
    const document = await served(t);
    const devPaths = Object.keys(document.paths).filter((path) => path.startsWith('/dev/'));
    expect(devPaths).toEqual([]);
    const devTags = routeGroups.filter((group) => group.devOnly).map((group) => group.tag);
    expect(document.tags.map((tag) => tag.name).filter((name) => devTags.includes(name))).toEqual([]);
    for (const { route } of listedRoutes(false)) expect(operationOf(document, route), `${route.method} ${route.path}`).toBeDefined();
  });

  it('has the stand-ins where they are on', async () => {
    t = await startApp();
    const document = await served(t);
    for (const { route } of listedRoutes(true).filter((listed) => listed.devOnly)) expect(operationOf(document, route)).toBeDefined();
  });

  it('is sent as it was made, compressed for a client that takes it, and may be kept a while', async () => {
    t = await startApp();
    const plain = await t.app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect(plain.headers['x-robots-tag']).toBe('noindex');
    const br = await t.app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gzip = await t.app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(zlib.gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
  });
});

describe('the reference page', () => {
  it('loads its renderer from this server alone, under a policy that allows nothing else', async () => {
    t = await startApp(production);
    const page = await t.app.inject({ url: '/api/reference' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.body).toContain('<meta name="robots" content="noindex">');
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toMatch(/^default-src 'none'; script-src 'self' 'sha256-[\w+/=]+'; style-src 'self';/);
    expect(policy).not.toMatch(/https?:|unsafe|\*/);

    // Every address the page names is this server's (the icon is none: no request for the site's).
    const addresses = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url!);
    const assets = addresses.filter((url) => url !== 'data:,');
    expect(assets).toHaveLength(2);
    for (const url of assets) {
      expect(url).toMatch(/^\/api\/reference\//);
      const asset = await t.app.inject({ url });
      expect(asset.statusCode, url).toBe(200);
      expect(asset.headers['content-type']).toMatch(url.endsWith('.css') ? /^text\/css/ : /^application\/javascript/);
      expect(asset.headers['cache-control']).toContain('immutable');
    }
  });

  it('serves none of the renderer package’s other files, nor anything beside it', async () => {
    t = await startApp();
    const page = await t.app.inject({ url: '/api/reference' });
    const folder = /src="(\/api\/reference\/[^/]+)\//.exec(page.body)![1];
    for (const file of [
      'package.json',
      'index.html',
      'swagger-initializer.js',
      'swagger-ui-bundle.js.map',
      '../package.json',
      '..%2fpackage.json',
      '..%2f..%2f..%2fpackage.json',
    ])
      expect((await t.app.inject({ url: `${folder}/${file}` })).statusCode, file).toBe(404);
  });
});
