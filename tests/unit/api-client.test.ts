/**
 * The site's HTTP client in Node with a stand-in `fetch`: the server side of
 * the sealed format is written here from contract/crypto.ts on WebCrypto, so
 * the client is checked against the wire format, not against itself.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { encryption } from '#contract/crypto.ts';
import { dev } from '#contract/dev.ts';
import { identity, system, type LoginResult, type UserInfo } from '#contract/identity.ts';
import { call, onUnauthorized } from '@/lib/api/client.ts';
import { ApiFailure, failureMessage } from '@/lib/api/errors.ts';

const user: UserInfo = {
  Id: 7,
  NickName: 'Beacon-0000',
  Phone: '138****0000',
  Email: null,
  AvatarUrl: { small: '/a.png' },
  HasPassword: false,
  CreatedAt: '2026-01-01T00:00:00.000Z',
  ExternalAccounts: [],
};
const loginResult: LoginResult = {
  AccessToken: 'access',
  ExpiresIn: 1_900_000_000_000,
  RefreshToken: 'refresh',
  RefreshExpiresIn: 1_900_000_000_000,
  User: user,
};

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the stand-in server does with one request. */
type Handler = (request: Sent) => Response | Promise<Response>;

let serverKeys: CryptoKeyPair;
let spki: string;
/** The key the browser's HTTP cache still holds (an older one), answered to requests that do not go past the cache. */
let cachedSpki: string | undefined;
/** The `cache` mode of each request for the public key. */
const keyRequests: Array<RequestCache | undefined> = [];
let handle: Handler;
const sent: Sent[] = [];

const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
const envelope = (data: unknown) => json({ code: 200, message: 'OK', data });
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g)!, (byte) => parseInt(byte, 16));

/** The server's half of an encrypted call: the AES key unwrapped, the body opened. */
async function openRequest(request: Sent): Promise<{ key: CryptoKey; body: unknown }> {
  const raw = await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, serverKeys.privateKey, fromHex(request.headers[encryption.keyHeader]));
  const key = await crypto.subtle.importKey('raw', raw, 'AES-CBC', false, ['encrypt', 'decrypt']);
  const sealed = Buffer.from(request.body!, 'base64');
  const plain = await crypto.subtle.decrypt({ name: 'AES-CBC', iv: sealed.subarray(0, encryption.ivBytes) }, key, sealed.subarray(encryption.ivBytes));
  return { key, body: JSON.parse(Buffer.from(plain).toString('utf8')) };
}

async function sealedAnswer(key: CryptoKey, value: unknown, status = 200): Promise<Response> {
  const iv = crypto.getRandomValues(new Uint8Array(encryption.ivBytes));
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, key, Buffer.from(JSON.stringify(value))));
  return new Response(Buffer.concat([iv, ciphertext]).toString('base64'), { status, headers: { 'content-type': encryption.contentType } });
}

/** A new key pair for the stand-in server. */
async function newServerKeys(): Promise<void> {
  serverKeys = await crypto.subtle.generateKey({ name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, [
    'encrypt',
    'decrypt',
  ]);
  spki = Buffer.from(await crypto.subtle.exportKey('spki', serverKeys.publicKey)).toString('base64');
}

beforeAll(async () => {
  await newServerKeys();
  vi.stubGlobal('document', { documentElement: { lang: 'en' } });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const request: Sent = { url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: init.body as string | undefined };
    sent.push(request);
    // The client finds the key by an ordinary call of the contract.
    if (url === `/api${system.publicKey.path}`) {
      keyRequests.push(init.cache);
      return envelope({ Spki: init.cache === 'no-cache' ? spki : (cachedSpki ?? spki) });
    }
    return handle(request);
  });
});

afterAll(() => {
  vi.unstubAllGlobals();
});

beforeEach(() => {
  sent.length = 0;
  keyRequests.length = 0;
});

describe('plain calls', () => {
  it('send JSON with the token and the page language, and give the envelope’s data, checked', async () => {
    handle = () => envelope(user);
    await expect(call(identity.refreshUserInfo, { body: { Refresh: true }, token: 'access' })).resolves.toEqual(user);
    expect(sent).toEqual([
      {
        url: '/api/identity/v1/manage/refreshuserinfo',
        method: 'POST',
        headers: { 'accept-language': 'en', authorization: 'Bearer access', 'content-type': 'application/json' },
        body: '{"Refresh":true}',
      },
    ]);
  });

  it('put a GET call’s request in the query string and send no body', async () => {
    const message = { to: '+8613800000000', text: 'Your code is 123456', sentAt: '2026-01-01T00:00:00.000Z' };
    handle = () => envelope([message]);
    await expect(call(dev.outbox, { body: { to: '+8613800000000' } })).resolves.toEqual([message]);
    expect(sent).toEqual([{ url: '/api/dev/outbox?to=%2B8613800000000', method: 'GET', headers: { 'accept-language': 'en' }, body: undefined }]);
  });

  it('give a raw answer itself, checked', async () => {
    const answer = { status: true, data: { token: 'store-token', expires_in: 300 }, msg: '' };
    handle = () => json(answer);
    await expect(call(identity.storeToken, { token: 'access' })).resolves.toEqual(answer);
    expect(sent[0].url).toBe('/api/identity/loginshop/token');
  });
});

describe('encrypted calls', () => {
  it('seal the body under the server’s key and open the sealed answer', async () => {
    const seen: unknown[] = [];
    handle = async (request) => {
      const { key, body } = await openRequest(request);
      seen.push(body);
      return sealedAnswer(key, { code: 200, message: 'OK', data: loginResult });
    };
    const body = { Phone: '13800000000', Code: '123456', DeviceId: 'test-device-0001' };
    await expect(call(identity.loginOrRegister, { body })).resolves.toEqual(loginResult);
    await expect(call(identity.loginOrRegister, { body })).resolves.toEqual(loginResult);

    expect(seen).toEqual([body, body]);
    const login = sent.filter((request) => request.url === '/api/identity/v1/account/loginorregister');
    expect(login).toHaveLength(2);
    expect(login[0].headers['content-type']).toBe(encryption.contentType);
    // A fresh AES key per request.
    expect(login[0].headers[encryption.keyHeader]).not.toBe(login[1].headers[encryption.keyHeader]);
    // The public key was asked for once, however many calls followed.
    expect(sent.filter((request) => request.url === '/api/crypto/public-key')).toHaveLength(1);
  });

  it('ask for the server’s new key past the browser’s cache when a sealed call is refused as unreadable, and send it once more', async () => {
    cachedSpki = spki;
    await newServerKeys();
    const seen: unknown[] = [];
    handle = async (request) => {
      const opened = await openRequest(request).catch(() => null);
      if (!opened) return json({ code: 4000, message: 'Unreadable request.', data: null }, 400);
      seen.push(opened.body);
      return sealedAnswer(opened.key, { code: 200, message: 'OK', data: loginResult });
    };
    const body = { Phone: '13800000000', Code: '123456', DeviceId: 'test-device-0001' };
    try {
      await expect(call(identity.loginOrRegister, { body })).resolves.toEqual(loginResult);
      expect(seen).toEqual([body]);
      expect(sent.filter((request) => request.url === '/api/identity/v1/account/loginorregister')).toHaveLength(2);
      expect(keyRequests.at(-1)).toBe('no-cache');
      // The server refusing the current key as well is an answer, not a loop.
      handle = () => json({ code: 4000, message: 'Unreadable request.', data: null }, 400);
      await expect(call(identity.loginOrRegister, { body })).rejects.toMatchObject({ kind: 'server', code: 4000 });
    } finally {
      cachedSpki = undefined;
    }
  });

  it('fill the path parameters', async () => {
    handle = async (request) => sealedAnswer((await openRequest(request)).key, { code: 200, message: 'OK', data: user });
    await call(identity.unbundleAccount, { params: { id: 42 }, body: {}, token: 'access' });
    expect(sent.at(-1)).toMatchObject({ url: '/api/identity/manage/unbundleaccount/42', method: 'DELETE' });
  });
});

describe('failures', () => {
  it('refuse an answer that breaks the contract as unknown', async () => {
    handle = () => envelope({ ...user, Id: 'seven' });
    await expect(call(identity.refreshUserInfo, { body: {}, token: 'access' })).rejects.toMatchObject({ kind: 'unknown' });
    handle = () => json({ status: 'yes', data: null, msg: '' });
    await expect(call(identity.storeToken, { token: 'access' })).rejects.toMatchObject({ kind: 'unknown' });
    handle = () => json({ message: 'OK', data: user });
    await expect(call(identity.refreshUserInfo, { body: {}, token: 'access' })).rejects.toMatchObject({ kind: 'unknown' });
    handle = () => new Response('<html>Bad gateway</html>', { status: 502 });
    await expect(call(identity.refreshUserInfo, { body: {}, token: 'access' })).rejects.toMatchObject({ kind: 'unknown' });
  });

  it('carry the server’s message and code', async () => {
    handle = () => json({ code: 4001, message: 'Wrong code.', data: null }, 400);
    const failure = await call(identity.refreshUserInfo, { body: {}, token: 'access' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({ kind: 'server', code: 4001, serverMessage: 'Wrong code.' });
  });

  it('show the plain envelope nginx answers when no instance answers, to a sealed call too', async () => {
    const text = 'The service is not answering right now. Please try again in a moment.';
    handle = () => json({ code: 503, message: text, data: null }, 503);
    const body = { Phone: '13800000000', Code: '123456', DeviceId: 'test-device-0001' };
    const failure = await call(identity.loginOrRegister, { body }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'server', code: 503, serverMessage: text });
    expect(failureMessage(failure)).toEqual({ text });
  });

  it('raise the 401 event with the route refused, and say the login expired', async () => {
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    handle = () => json({ code: 401, message: '登录已过期，请重新登录。', data: null }, 401);
    const expired = await call(identity.refreshUserInfo, { body: {}, token: 'old' }).catch((error: unknown) => error);
    expect(expired).toMatchObject({ kind: 'unauthorized', code: 401 });
    expect(failureMessage(expired)).toEqual({ text: '登录已过期，请重新登录。' });
    expect(listener).toHaveBeenCalledExactlyOnceWith(identity.refreshUserInfo);
    stop();
    // A 401 without the server's words (a proxy's) is still a login that expired.
    handle = () => new Response('', { status: 401 });
    const bare = await call(identity.refreshUserInfo, { body: {}, token: 'old' }).catch((error: unknown) => error);
    expect(failureMessage(bare)).toEqual({ key: 'messages.unauthorized' });
    expect(listener).toHaveBeenCalledOnce();
  });

  // Issue 47, point 3: the server says "need to log in" to a call without a token; the site showed "login expired".
  it('say a call made without a token needs a login, and end no login for it', async () => {
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    handle = () => json({ code: 401, message: '需要登录。', data: null }, 401);
    const refused = await call(identity.refreshUserInfo, { body: {} }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ kind: 'loginRequired', code: 401 });
    expect(failureMessage(refused)).toEqual({ text: '需要登录。' });
    handle = () => new Response('', { status: 401 });
    expect(failureMessage(await call(identity.refreshUserInfo, { body: {} }).catch((error: unknown) => error))).toEqual({ key: 'messages.loginRequired' });
    expect(listener).not.toHaveBeenCalled();
    stop();
  });

  it('map 429 to too many requests, in the server’s words for the limit when it gave some, and no answer to a network error', async () => {
    handle = () => json({ code: 4038, message: 'Too many wrong cdkeys were tried. Redeeming is locked for 15 minutes.', data: null }, 429);
    const locked = await call(identity.refreshUserInfo, { body: {}, token: 'access' }).catch((error: unknown) => error);
    expect(locked).toMatchObject({ kind: 'tooManyRequests', code: 4038 });
    expect(failureMessage(locked)).toEqual({ text: 'Too many wrong cdkeys were tried. Redeeming is locked for 15 minutes.' });
    expect(locked).toMatchObject({ retryAfterMs: undefined });
    handle = () => new Promise((resolve) => resolve(new Response('', { status: 429, headers: { 'retry-after': '42' } })));
    const bare = await call(identity.refreshUserInfo, { body: {}, token: 'access' }).catch((error: unknown) => error);
    expect(failureMessage(bare)).toEqual({ key: 'messages.tooFast' });
    expect(bare).toMatchObject({ retryAfterMs: 42_000 });
    handle = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(call(identity.refreshUserInfo, { body: {}, token: 'access' })).rejects.toMatchObject({ kind: 'network' });
  });
});
