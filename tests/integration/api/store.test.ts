/**
 * The external store: the store token, opening the store with and without it,
 * the store's introspection call (its secret, expired, forged and signed-out
 * tokens), and the development store that stands in for the real one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identity, lifetimes } from '#contract/identity.ts';
import { signToken } from '../../../server/crypto/signed.ts';
import { storeIntrospectionSecret } from '../../../server/services/store-settings.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { loginBySms } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;
const newUser = async () => {
  const login = await loginBySms(t, `1392200${String(++phoneSeq).padStart(4, '0')}`, `store-device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id, name: login.User.NickName };
};

beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const storeToken = async (token: string) => {
  const answer = await t.call(identity.storeToken, { token });
  expect(answer.body).toMatchObject({ status: true, data: { expires_in: lifetimes.storeTokenSeconds }, msg: 'Success' });
  return answer.body.data!.token;
};

const introspect = (token: string, secret = storeIntrospectionSecret(t.app.config, t.app.keys.secret)) =>
  t.call(identity.introspectStoreToken, { body: { token }, headers: { authorization: `Bearer ${secret}` } });

const open = async (query: Record<string, string>) => {
  const answer = await t.app.inject({ method: 'GET', url: `/api${identity.openStore.path}`, query });
  return { status: answer.statusCode, location: answer.headers.location as string | undefined };
};

describe('the store token', () => {
  it('is given to logged-in users only', async () => {
    await expectBadTokensRefused(t, identity.storeToken, {}, newUser);
  });

  it('lasts a little longer than the site keeps it (86,000 s)', () => {
    expect(lifetimes.storeTokenSeconds * 1000).toBeGreaterThan(86_000_000);
  });
});

describe('opening the store', () => {
  it('goes to the verifier path with tk, t and to when there is a token, and plainly otherwise', async () => {
    const plain = await open({});
    expect(plain.status).toBe(302);
    expect(plain.location).toBe('http://localhost:4321/api/dev/store/');

    const signed = await open({ tk: 'the-token', t: '86400', to: '/cart' });
    const verifier = new URL(signed.location!);
    expect(verifier.pathname).toBe('/api/dev/store/oauth/verifier');
    expect(Object.fromEntries(verifier.searchParams)).toEqual({ tk: 'the-token', t: '86400', to: 'http://localhost:4321/api/dev/store/cart' });
  });

  it('never sends the browser to another host', async () => {
    for (const to of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) expect((await open({ to })).status).toBe(400);
  });
});

describe('introspection', () => {
  it('tells the store who a token belongs to, until the login it came from ends', async () => {
    const user = await newUser();
    const token = await storeToken(user.token);
    const answer = await introspect(token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ active: true, sub: String(user.userId), name: user.name, exp: expect.any(Number) });
    if (answer.body.active) expect(answer.body.exp * 1000 - Date.now()).toBeGreaterThan(86_000_000);

    expect((await t.call(identity.logout, { token: user.token })).status).toBe(200);
    expect((await introspect(token)).body).toEqual({ active: false });
  });

  it('says a forged, expired or other kind of token is not active', async () => {
    const user = await newUser();
    const token = await storeToken(user.token);
    const [body, mac] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), sub: user.userId + 1 })).toString('base64url')}.${mac}`;
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as { sub: number; sid: string };
    const expired = signToken(t.app.keys.secret, 'store', { ...claims, exp: Date.now() - 1 });
    const hub = (await t.call(identity.hubToken, { token: user.token })).body.data!.AccessToken;
    for (const bad of [forged, expired, hub, 'nonsense']) expect((await introspect(bad)).body).toEqual({ active: false });
  });

  it('answers only the store, which proves itself with the shared secret', async () => {
    const token = await storeToken((await newUser()).token);
    expect((await introspect(token, 'a-wrong-secret')).status).toBe(401);
    const without = await t.call(identity.introspectStoreToken, { body: { token } });
    expect(without.status).toBe(401);
  });
});

describe('the development store', () => {
  it('shows the signed-in user on its verifier page, and nobody for a bad token', async () => {
    const user = await newUser();
    const signed = await open({ tk: await storeToken(user.token), t: String(lifetimes.storeTokenSeconds) });
    const page = await t.app.inject({ method: 'GET', url: new URL(signed.location!).pathname + new URL(signed.location!).search });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Signed in as <strong>${user.name}</strong> (user ${user.userId})`);

    const refused = await t.app.inject({ method: 'GET', url: '/api/dev/store/oauth/verifier?tk=forged&t=60&to=/' });
    expect(refused.body).toContain('The store token was refused');
    expect((await t.app.inject({ method: 'GET', url: '/api/dev/store/' })).body).toContain('Nobody is signed in');
  });

  it('is not there when a real store is configured', async () => {
    const real = await startApp({ STORE_URL: 'https://store.example.test/shop/' });
    try {
      const answer = await real.app.inject({ method: 'GET', url: `/api${identity.openStore.path}`, query: { tk: 'x', t: '60' } });
      expect(answer.headers.location).toBe('https://store.example.test/shop/oauth/verifier?tk=x&t=60&to=https%3A%2F%2Fstore.example.test%2Fshop%2F');
      expect((await real.app.inject({ method: 'GET', url: '/api/dev/store/' })).statusCode).toBe(404);
    } finally {
      await real.close();
    }
  });
});
