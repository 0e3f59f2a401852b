/**
 * HTTP/1.0 lets a request leave out its Host header. Every GET call of the
 * contract, sent that way over a raw socket to a listening app — anonymous and
 * with a login, in development and in production — answers below 500: the
 * server's absolute addresses come from its settings, never from the request.
 */
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathOf, type ApiRoute } from '#contract/api.ts';
import { encryption } from '#contract/crypto.ts';
import { pluginSlugs } from '#contract/plugins.ts';
import { createSealer, importPublicKey } from '../../../src/lib/api/crypto.ts';
import { productionSettings } from '../production-settings.ts';
import { loggedInUsers, startApp, type TestApp } from './harness.ts';
import { newCaller, startUrl } from './quick-login-browser.ts';

/** Every route the contract's modules export, found in their exported objects. */
async function contractRoutes(): Promise<ApiRoute[]> {
  const found = new Set<ApiRoute>();
  const walk = (value: unknown, depth: number) => {
    if (!value || typeof value !== 'object' || depth > 3) return;
    const candidate = value as Partial<ApiRoute>;
    if (typeof candidate.method === 'string' && typeof candidate.path === 'string' && typeof candidate.shape === 'string') found.add(value as ApiRoute);
    else for (const inner of Object.values(value)) walk(inner, depth + 1);
  };
  const folder = new URL('../../../contract/', import.meta.url);
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) walk(await import(new URL(file, folder).href), 0);
  return [...found];
}

/** Plausible values for the path parameters, by name. */
const pathValues: Record<string, string> = {
  page: '1',
  key: '20260101000000000001',
  id: '1',
  userCode: 'BCDF-GHJK',
  provider: 'steam',
  slug: pluginSlugs[0],
  sort: 'newest',
  a: '1',
  b: '10',
};

/** What a browser would add to the calls it navigates to. */
function queryOf(route: ApiRoute, t: TestApp): string {
  if (route.path === '/ExternalLoginDetection/:provider') return new URL(startUrl('http://x', 'steam', newCaller(t))).search;
  if (route.path === '/ExternalLoginDetection/:provider/callback') return '?openid.mode=cancel';
  if (route.path === '/identity/loginshop/open') return '?tk=a-token&t=86400&to=/cart';
  return '';
}

/** Sends `GET <path> HTTP/1.0` with these headers and no Host header; answers the status of the answer. */
function statusOf(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', reject);
    // An HTTP/1.0 server closes the connection after its answer.
    socket.on('end', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.write(
      `GET ${path} HTTP/1.0\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n`,
    );
  });
}

describe.each([
  ['development', {}],
  ['production', { NODE_ENV: 'production', ...productionSettings }],
])('in %s, every GET call without a Host header', (_mode, env) => {
  let t: TestApp;
  let port: number;
  let token: string;
  let routes: ApiRoute[];

  beforeAll(async () => {
    t = await startApp({ ...env, RATE_LIMIT_PER_MINUTE: '100000', IDENTITY_RATE_LIMIT_PER_MINUTE: '100000' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
    [{ token }] = await loggedInUsers(t, 1);
    routes = (await contractRoutes()).filter((route) => route.method === 'GET');
  });
  afterAll(() => t.close());

  it('answers below 500, anonymous and logged in', async () => {
    expect(routes.length).toBeGreaterThan(30);
    const answers: string[] = [];
    for (const route of routes) {
      // A sealed call names its key, as the site sends it: its answer is sealed, and only its status is read here.
      const sealing: Record<string, string> = route.encrypted
        ? { [encryption.keyHeader]: (await createSealer(await importPublicKey(t.publicSpki))).wrappedKey }
        : {};
      for (const bearer of [{}, { authorization: `Bearer ${token}` }] as Array<Record<string, string>>) {
        const path = `/api${pathOf(route.path, pathValues)}${queryOf(route, t)}`;
        answers.push(`${await statusOf(port, path, { ...sealing, ...bearer })} ${'authorization' in bearer ? 'logged in' : 'anonymous'} GET ${route.path}`);
      }
    }
    expect(answers.filter((answer) => !/^[1-4]\d\d /.test(answer))).toEqual([]);
  });
});
