/**
 * Quick login against a listening app, on PGlite and (in the scale-out suite)
 * on PostgreSQL: Steam (OpenID 2.0), Microsoft (OpenID Connect) and QQ
 * (OAuth 2.0) through the development provider, Microsoft also through an
 * independent OpenID Connect server (oauth2-mock-server); first logins that
 * prove a phone, binding, forged and replayed answers, and races.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '#contract/errors.ts';
import { desktopLanding, externalLogin, type ExternalLoginResult } from '#contract/external-login.ts';
import { identity } from '#contract/identity.ts';
import { externalLogins, loginEvents } from '../../../server/db/schema.ts';
import { hashOpaqueToken } from '../../../server/crypto/opaque-tokens.ts';
import { freePort } from '../../setup/free-port.ts';
import { loginBySms, sendSms } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';
import { Browser, newCaller, outcome, quickLogin, startUrl, type Caller } from './quick-login-browser.ts';

let t: TestApp;
let origin: string;
let phoneSeq = 0;
const newPhone = () => `1360000${String(++phoneSeq).padStart(4, '0')}`;
let steamSeq = 0;
const newSteamId = () => `7656119${String(8_000_000_000 + ++steamSeq)}`;
const device = 'quick-login-test-device';

/** Starts a listening app where its settings say it is (its links and the development providers are there): the providers are reached over HTTP, as in production. */
async function listeningApp(env: Record<string, string> = {}): Promise<{ app: TestApp; origin: string }> {
  const port = await freePort();
  const app = await startApp({ IDENTITY_RATE_LIMIT_PER_MINUTE: '10000', RATE_LIMIT_PER_MINUTE: '10000', HOST: '127.0.0.1', PORT: String(port), ...env });
  await app.app.listen({ port, host: '127.0.0.1' });
  return { app, origin: `http://127.0.0.1:${port}` };
}

beforeAll(async () => {
  ({ app: t, origin } = await listeningApp());
});
afterAll(() => t.close());

/** The sealed outcome of a landing, which must be one. */
function result(landing: string, caller: Caller): ExternalLoginResult {
  const read = outcome(landing, caller);
  if ('error' in read) throw new Error(`the quick login failed: ${read.error}`);
  return read;
}

/** Proves a phone for a `bindPhone` outcome; answers the login. */
async function bindPhone(ticket: ExternalLoginResult, phone = newPhone()) {
  if (ticket.Status !== 'bindPhone') throw new Error(`expected bindPhone, got ${ticket.Status}`);
  const Code = await sendSms(t, phone);
  const response = await t.call(externalLogin.bindPhone, { body: { Ticket: ticket.Ticket, Phone: phone, Code, DeviceId: device } });
  expect(response.body.code).toBe(200);
  return { phone, ...response.body.data };
}

describe('Steam', () => {
  it('logs in a new Steam identity after it proves a phone, then at once', async () => {
    const steamId = newSteamId();
    const caller = newCaller(t);
    const landing = await quickLogin(origin, 'steam', caller, { id: steamId, name: 'Gordon' }, { lang: 'ja' });
    expect(landing).toMatch(`${origin}/ja/account/login#external=`);
    const first = result(landing, caller);
    expect(first).toMatchObject({ Status: 'bindPhone', Provider: 'steam', DisplayName: 'Gordon' });
    const login = await bindPhone(first);
    expect(login.User.ExternalAccounts).toMatchObject([{ Provider: 'steam', Subject: steamId, DisplayName: 'Gordon' }]);

    const again = newCaller(t);
    const second = result(await quickLogin(origin, 'steam', again, { id: steamId, name: 'Gordon F.' }), again);
    expect(second).toMatchObject({
      Status: 'signedIn',
      Provider: 'steam',
      Login: { User: { Id: login.User.Id, ExternalAccounts: [{ DisplayName: 'Gordon F.' }] } },
    });
  });
});

/** Starts a Steam login and signs in at the provider, stopping where the provider sends the browser back. */
async function steamAnswer(who: { id: string; name?: string }, browser = new Browser(), caller = newCaller(t), hidden: Record<string, string> = {}) {
  const atProvider = await browser.redirected(startUrl(origin, 'steam', caller));
  let page = await (await browser.request(atProvider)).text();
  for (const [name, value] of Object.entries(hidden)) page = page.replace(new RegExp(`(name="${name}" value=")[^"]*`), `$1${value}`);
  return { browser, caller, callback: new URL(await browser.signIn(atProvider, page, who)) };
}

describe('Steam answers the server does not trust', () => {
  const refused = async (callback: URL, browser: Browser, caller: Caller, reason = 'failed') => {
    expect(outcome(await browser.redirected(callback.href), caller)).toEqual({ error: reason, provider: 'steam' });
  };

  it('refuses a tampered signature', async () => {
    const { browser, caller, callback } = await steamAnswer({ id: newSteamId() });
    callback.searchParams.set('openid.claimed_id', `${origin}/api/dev/idp/steam/id/${newSteamId()}`);
    callback.searchParams.set('openid.identity', callback.searchParams.get('openid.claimed_id')!);
    await refused(callback, browser, caller);
  });

  it('refuses an assertion presented twice, even in a new login', async () => {
    const { callback, browser, caller } = await steamAnswer({ id: newSteamId() });
    expect(result(await browser.redirected(callback.href), caller).Status).toBe('bindPhone');
    // A second login in another browser, which brings back the first one's answer instead of its own.
    const other = await steamAnswer({ id: newSteamId() });
    await refused(callback, other.browser, other.caller);
  });

  it('refuses an assertion from another OpenID endpoint', async () => {
    const { browser, caller, callback } = await steamAnswer({ id: newSteamId() });
    callback.searchParams.set('openid.op_endpoint', 'https://steamcommunity.example/openid/login');
    await refused(callback, browser, caller);
  });

  it('refuses an assertion made out to another return address', async () => {
    const { browser, caller, callback } = await steamAnswer({ id: newSteamId() }, undefined, undefined, { return_to: 'https://elsewhere.example/callback' });
    expect(callback.origin).toBe('https://elsewhere.example');
    await refused(new URL(`${origin}/api/ExternalLoginDetection/steam/callback${callback.search}`), browser, caller);
  });

  it('refuses a claimed id that is not a Steam id', async () => {
    const { browser, caller, callback } = await steamAnswer({ id: newSteamId() });
    const stranger = `${origin}/api/dev/idp/steam/id/12345`;
    callback.searchParams.set('openid.claimed_id', stranger);
    callback.searchParams.set('openid.identity', stranger);
    await refused(callback, browser, caller);
  });

  it('says "denied" when the person cancels at Steam', async () => {
    const caller = newCaller(t);
    expect(outcome(await quickLogin(origin, 'steam', caller, 'cancel'), caller)).toEqual({ error: 'denied', provider: 'steam' });
  });

  it('sends a return without its cookie, or after the login expired, back as expired', async () => {
    const { callback, caller } = await steamAnswer({ id: newSteamId() });
    expect(outcome(await new Browser().redirected(callback.href), caller)).toEqual({ error: 'expired', provider: 'steam' });

    const late = await steamAnswer({ id: newSteamId() });
    await t.app.db
      .update(externalLogins)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(externalLogins.keyHash, hashOpaqueToken(late.caller.sKeyHex)));
    await refused(late.callback, late.browser, late.caller, 'expired');
  });

  it('finishes one of two racing returns of the same login', async () => {
    const { browser, caller, callback } = await steamAnswer({ id: newSteamId() });
    const landings = await Promise.all([browser.redirected(callback.href), browser.redirected(callback.href)]);
    const outcomes = landings.map((landing) => outcome(landing, caller));
    expect(outcomes.filter((read) => 'Status' in read)).toHaveLength(1);
    expect(outcomes.filter((read) => 'error' in read)).toEqual([{ error: 'expired', provider: 'steam' }]);
  });
});

/** An HTTP listener of the test's own, which counts what reaches it and answers 404. */
async function bystander(): Promise<{ origin: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('Steam answers that name another address', () => {
  it.each([
    ['every address in the answer', true],
    ['the claimed id only, with the right endpoint', false],
  ])('are refused without a request to any address they name: %s', async (_case, forgedEndpoint) => {
    const listener = await bystander();
    try {
      const { browser, caller, callback } = await steamAnswer({ id: newSteamId() });
      const elsewhere = `${listener.origin}/openid/id/${newSteamId()}`;
      callback.searchParams.set('openid.claimed_id', elsewhere);
      callback.searchParams.set('openid.identity', elsewhere);
      if (forgedEndpoint) callback.searchParams.set('openid.op_endpoint', `${listener.origin}/openid/login`);
      expect(outcome(await browser.redirected(callback.href), caller)).toEqual({ error: 'failed', provider: 'steam' });
      expect(listener.requests).toEqual([]);
    } finally {
      await listener.close();
    }
  });
});

describe('providers that answer slowly or without end', () => {
  const timeoutMs = 1000;
  let mode: 'silent' | 'endless' = 'silent';
  let server: Server;
  let sent = 0;
  let provider: string;
  let app: TestApp;
  let at: string;

  beforeAll(async () => {
    // What a provider does when it hangs (headers never come) or streams an answer without end.
    server = createServer((_request, response) => {
      if (mode === 'silent') return;
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) sent += chunk.length;
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    provider = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ app, origin: at } = await listeningApp({
      OUTBOUND_TIMEOUT_MS: String(timeoutMs),
      OUTBOUND_MAX_BYTES: String(64 * 1024),
      MICROSOFT_ISSUER: `${provider}/oidc`,
      MICROSOFT_CLIENT_ID: 'beacon-test',
      MICROSOFT_CLIENT_SECRET: 'beacon-test-secret',
      QQ_URL: `${provider}/qq`,
      QQ_APP_ID: 'beacon-test',
      QQ_APP_KEY: 'beacon-test-key',
    }));
  });
  afterAll(async () => {
    await app.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Runs a login to its landing at the site, however it ends. */
  async function attempt(which: 'microsoft' | 'qq') {
    const caller = newCaller(app);
    const browser = new Browser();
    const began = Date.now();
    let landing = await browser.redirected(startUrl(at, which, caller));
    // QQ's sign-in address is made without a call: the provider is called when the browser comes back with a code.
    if (landing.startsWith(provider)) {
      const state = new URL(landing).searchParams.get('state')!;
      landing = await browser.redirected(`${at}/api/ExternalLoginDetection/qq/callback?code=the-code&state=${state}`);
    }
    return { read: outcome(landing, caller), ms: Date.now() - began };
  }

  it.each([
    ['microsoft', 'silent'],
    ['microsoft', 'endless'],
    ['qq', 'silent'],
    ['qq', 'endless'],
  ] as const)('%s answering %s fails the login within the deadline, reads no more than the cap, and the server goes on', async (which, how) => {
    mode = how;
    sent = 0;
    const rssBefore = process.memoryUsage().rss;
    const { read, ms } = await attempt(which);
    expect(read).toEqual({ error: 'failed', provider: which });
    expect(ms).toBeLessThan(timeoutMs + 2500);
    // Past the cap the connection is closed: what was sent is the cap and the sockets' buffers, not a stream that goes on.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const settled = sent;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sent).toBe(settled);
    expect(sent).toBeLessThan(32 * 1024 * 1024);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(128 * 1024 * 1024);
    const providers = await fetch(`${at}/api${externalLogin.providers.path}`);
    expect(providers.status).toBe(200);
  });
});

describe('starting', () => {
  it('refuses a start address used twice, and a key the server cannot unwrap', async () => {
    const caller = newCaller(t);
    expect((await new Browser().request(startUrl(origin, 'steam', caller))).status).toBe(302);
    const again = await new Browser().request(startUrl(origin, 'steam', caller));
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: ErrorCode.BadRequest });

    // Flipping every bit of the first byte always changes it (overwriting it could leave it as it was).
    const firstByte = (parseInt(caller.sKeyHex.slice(0, 2), 16) ^ 0xff).toString(16).padStart(2, '0');
    const forged = await new Browser().request(startUrl(origin, 'steam', { ...caller, sKeyHex: firstByte + caller.sKeyHex.slice(2) }));
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ code: ErrorCode.EncryptionInvalid });
  });

  it('takes the provider as the desktop client writes it, in any case', async () => {
    for (const [written, provider] of [
      ['Steam', 'steam'],
      ['MICROSOFT', 'microsoft'],
      ['QQ', 'qq'],
    ] as const) {
      const url = startUrl(origin, provider, newCaller(t)).replace(`/ExternalLoginDetection/${provider}?`, `/ExternalLoginDetection/${written}?`);
      const lowercase = await new Browser().request(startUrl(origin, provider, newCaller(t)));
      const asWritten = await new Browser().request(url);
      expect(asWritten.status, written).toBe(302);
      expect(new URL(asWritten.headers.get('location')!).origin, written).toBe(new URL(lowercase.headers.get('location')!).origin);
    }
  });

  it('lists the providers with the Steam reachability check, which loads', async () => {
    const listed = externalLogin.providers.response.parse((await (await fetch(`${origin}/api${externalLogin.providers.path}`)).json()).data);
    expect(listed.map((provider) => provider.Provider)).toEqual(['steam', 'microsoft', 'qq']);
    const check = await fetch(listed[0].CheckUrl!);
    expect(check.headers.get('content-type')).toMatch(/^image\//);
  });

  it('lands the desktop client on its own address, with its device in the sessions list', async () => {
    const steamId = newSteamId();
    const caller = newCaller(t);
    const first = result(await quickLogin(origin, 'steam', caller, { id: steamId }, { isWeb: false }), caller);
    await bindPhone(first);
    const desktop = newCaller(t);
    const landing = await quickLogin(origin, 'steam', desktop, { id: steamId }, { isWeb: false, deviceId: 'desktop-device-1' });
    expect(landing.startsWith(`${desktopLanding}#external=`)).toBe(true);
    const login = result(landing, desktop);
    if (login.Status !== 'signedIn') throw new Error(login.Status);
    const listed = await t.call(identity.sessions, { token: login.Login.AccessToken });
    expect(listed.body.data.find((session) => session.Current)).toMatchObject({ Device: 'GAMING-PC · Windows 11 · 3.2.0' });
    const [event] = await t.app.db
      .select()
      .from(loginEvents)
      .where(eq(loginEvents.userId, login.Login.User.Id))
      .orderBy(sql`${loginEvents.id} desc`)
      .limit(1);
    expect(event).toMatchObject({ method: 'steam', success: true });
  });
});

/** A user logged in by SMS. */
async function smsLogin(phone = newPhone()) {
  return { phone, ...(await loginBySms(t, phone, device)) };
}

describe('Microsoft and QQ', () => {
  it.each(['microsoft', 'qq'] as const)('logs in a new %s identity after it proves a phone, then at once, and says "denied" on cancel', async (provider) => {
    const subject = `${provider}-${newSteamId()}`;
    const caller = newCaller(t);
    const first = result(await quickLogin(origin, provider, caller, { id: subject, name: '玩家 One' }), caller);
    expect(first).toMatchObject({ Status: 'bindPhone', Provider: provider, DisplayName: '玩家 One' });
    const login = await bindPhone(first);

    const again = newCaller(t);
    expect(result(await quickLogin(origin, provider, again, { id: subject }), again)).toMatchObject({
      Status: 'signedIn',
      Login: { User: { Id: login.User.Id } },
    });

    const cancelled = newCaller(t);
    expect(outcome(await quickLogin(origin, provider, cancelled, 'cancel'), cancelled)).toEqual({ error: 'denied', provider });
  });

  it('refuses a QQ return whose state is not the login’s', async () => {
    const browser = new Browser();
    const caller = newCaller(t);
    const atProvider = await browser.redirected(startUrl(origin, 'qq', caller));
    const page = (await (await browser.request(atProvider)).text()).replace(/(name="state" value=")[^"]*/, '$1forged');
    const back = await browser.signIn(atProvider, page, { id: 'QQ-FORGED-STATE' });
    expect(outcome(await browser.redirected(back), caller)).toEqual({ error: 'failed', provider: 'qq' });
  });

  it('logs in through an independent OpenID Connect server, which checks PKCE, and refuses a forged state', async () => {
    const oidc = new OAuth2Server();
    await oidc.issuer.keys.generate('RS256');
    await oidc.start(0, '127.0.0.1');
    oidc.service.on('beforeTokenSigning', (token) => {
      token.payload.name = 'Master Chief';
    });
    const issuer = oidc.issuer.url!;
    const { app, origin: at } = await listeningApp({
      MICROSOFT_ISSUER: issuer,
      MICROSOFT_CLIENT_ID: 'beacon-test',
      MICROSOFT_CLIENT_SECRET: 'beacon-test-secret',
    });
    try {
      const caller = newCaller(app);
      const browser = new Browser();
      const atProvider = await browser.redirected(startUrl(at, 'microsoft', caller));
      expect(atProvider.startsWith(issuer)).toBe(true);
      const authorize = new URL(atProvider).searchParams;
      expect(authorize.get('code_challenge_method')).toBe('S256');
      expect(authorize.get('nonce')).toBeTruthy();
      // The mock signs in at once and sends the browser back.
      const back = await browser.redirected(atProvider);
      expect(result(await browser.redirected(back), caller)).toMatchObject({ Status: 'bindPhone', Provider: 'microsoft', DisplayName: 'Master Chief' });

      const forged = newCaller(app);
      const other = new Browser();
      const forgedAt = new URL(await other.redirected(startUrl(at, 'microsoft', forged)));
      forgedAt.searchParams.set('state', 'forged');
      expect(outcome(await other.redirected(await other.redirected(forgedAt.href)), forged)).toEqual({ error: 'failed', provider: 'microsoft' });
    } finally {
      await app.close();
      await oidc.stop();
    }
  });
});

describe('binding', () => {
  const bind = (login: { AccessToken: string; ExpiresIn: number }) => ({ bind: { token: login.AccessToken, expiresAt: login.ExpiresIn } });

  it('links an identity to the account that asks, refuses one another account has, and one more of the same provider', async () => {
    const owner = await smsLogin();
    const steamId = newSteamId();
    const caller = newCaller(t);
    expect(result(await quickLogin(origin, 'steam', caller, { id: steamId, name: 'Alyx' }, bind(owner)), caller)).toEqual({
      Status: 'bound',
      Provider: 'steam',
    });
    const info = await t.call(identity.refreshUserInfo, { body: { Refresh: true }, token: owner.AccessToken });
    expect(info.body.data.ExternalAccounts).toMatchObject([{ Provider: 'steam', DisplayName: 'Alyx' }]);

    // Now the identity logs in to that account directly.
    const direct = newCaller(t);
    expect(result(await quickLogin(origin, 'steam', direct, { id: steamId }), direct)).toMatchObject({
      Status: 'signedIn',
      Login: { User: { Id: owner.User.Id } },
    });

    const other = await smsLogin();
    const taken = newCaller(t);
    expect(outcome(await quickLogin(origin, 'steam', taken, { id: steamId }, bind(other)), taken)).toEqual({ error: 'taken', provider: 'steam' });

    const second = newCaller(t);
    expect(outcome(await quickLogin(origin, 'steam', second, { id: newSteamId() }, bind(owner)), second)).toEqual({
      error: 'alreadyLinked',
      provider: 'steam',
    });
  });

  it('refuses to start binding without a token, with an expired, a revoked or a made-up one', async () => {
    const startBind = async (token: string, expiresAt: number) => {
      const response = await new Browser().request(startUrl(origin, 'steam', newCaller(t), { bind: { token, expiresAt } }));
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 401 });
    };
    const noToken = new URL(startUrl(origin, 'steam', newCaller(t)));
    noToken.searchParams.set('isBind', 'true');
    expect((await new Browser().request(noToken.href)).status).toBe(401);

    await startBind('not-a-token', Date.now() + 60_000);
    const expired = await smsLogin();
    await startBind(expired.AccessToken, Date.now() - 1000);
    await t.app.db.execute(
      sql`update tokens set expires_at = now() - interval '1 second' where session_id in (select id from sessions where user_id = ${expired.User.Id})`,
    );
    await startBind(expired.AccessToken, Date.now() + 60_000);
    const revoked = await smsLogin();
    expect((await t.call(identity.logout, { token: revoked.AccessToken })).status).toBe(200);
    await startBind(revoked.AccessToken, revoked.ExpiresIn);
  });

  it('lets a bound identity be unbound while the phone remains', async () => {
    const owner = await smsLogin();
    const caller = newCaller(t);
    result(await quickLogin(origin, 'qq', caller, { id: `QQ${newSteamId()}` }, bind(owner)), caller);
    const info = await t.call(identity.refreshUserInfo, { body: { Refresh: true }, token: owner.AccessToken });
    const unbound = await t.call(identity.unbundleAccount, { params: { id: info.body.data.ExternalAccounts[0].Id }, token: owner.AccessToken });
    expect(unbound.body.data.ExternalAccounts).toEqual([]);
  });
});

describe('a new account from a quick login', () => {
  const firstLogin = async (provider: 'steam' | 'microsoft' | 'qq', name: string, phone?: string) => {
    const caller = newCaller(t);
    const id = provider === 'steam' ? newSteamId() : `${provider}-${newSteamId()}`;
    return bindPhone(result(await quickLogin(origin, provider, caller, { id, name }), caller), phone);
  };

  it.each([
    ['steam', 'Gordon'],
    ['microsoft', 'Master Chief'],
    ['qq', '玩家 One'],
  ] as const)('takes the name %s gives as its nickname: %s', async (provider, name) => {
    const login = await firstLogin(provider, name);
    expect(login.User.NickName).toBe(name);
  });

  it('keeps of a name what the nickname rules allow: no symbols, and as many whole words as fit the longest nickname', async () => {
    expect((await firstLogin('steam', '★ [BTK] Gordon  Freeman ★')).User.NickName).toBe('BTK Gordon Freeman');
    expect((await firstLogin('steam', 'Professor Gordon Freeman of Black Mesa')).User.NickName).toBe('Professor Gordon');
    expect((await firstLogin('qq', '银河系最强的云挂卡玩家之一就是我本人了吧哈哈')).User.NickName).toBe('银河系最强的云挂卡玩家之一就是我本人了吧');
  });

  it('is named after its phone when the provider gives no name, or none that keeps the rules', async () => {
    const nameless = await firstLogin('steam', ' ');
    expect(nameless.User.NickName).toBe(`Beacon-${nameless.phone.slice(-4)}`);
    const symbols = await firstLogin('qq', '★ ♪ ★');
    expect(symbols.User.NickName).toBe(`Beacon-${symbols.phone.slice(-4)}`);
  });

  it('leaves the nickname of an account the phone already has', async () => {
    const existing = await smsLogin();
    const login = await firstLogin('steam', 'Gordon', existing.phone);
    expect(login.User).toMatchObject({ Id: existing.User.Id, NickName: existing.User.NickName });
  });
});

describe('finishing with a phone', () => {
  async function ticket(provider: 'steam' | 'qq' = 'steam', id = newSteamId()) {
    const caller = newCaller(t);
    return result(await quickLogin(origin, provider, caller, { id: provider === 'qq' ? `QQ${id}` : id }), caller);
  }

  it('keeps the ticket through a wrong code, and uses it once', async () => {
    const first = await ticket();
    if (first.Status !== 'bindPhone') throw new Error(first.Status);
    const phone = newPhone();
    await sendSms(t, phone);
    const wrong = await t.call(externalLogin.bindPhone, { body: { Ticket: first.Ticket, Phone: phone, Code: '000000', DeviceId: device } });
    expect(wrong.body.code).toBe(ErrorCode.CodeInvalid);
    await bindPhone(first, phone);
    const Code = await sendSms(t, phone);
    const reused = await t.call(externalLogin.bindPhone, { body: { Ticket: first.Ticket, Phone: phone, Code, DeviceId: device } });
    expect(reused.body).toMatchObject({ code: ErrorCode.ExternalTicketInvalid, message: 'This quick login has expired. Please start it again.' });
  });

  it('refuses a phone whose account has another identity of the provider, and the ticket still works with another phone', async () => {
    const holder = await smsLogin();
    const bound = newCaller(t);
    result(await quickLogin(origin, 'steam', bound, { id: newSteamId() }, { bind: { token: holder.AccessToken, expiresAt: holder.ExpiresIn } }), bound);
    const first = await ticket();
    if (first.Status !== 'bindPhone') throw new Error(first.Status);
    const Code = await sendSms(t, holder.phone);
    const refused = await t.call(externalLogin.bindPhone, { body: { Ticket: first.Ticket, Phone: holder.phone, Code, DeviceId: device }, locale: 'ru' });
    expect(refused.body.code).toBe(ErrorCode.ProviderLinked);
    expect(refused.body.message).toMatch(/уже привязан/);
    await bindPhone(first);
  });

  it('joins the identity to an existing phone account', async () => {
    const existing = await smsLogin();
    const login = await bindPhone(await ticket('qq'), existing.phone);
    expect(login.User.Id).toBe(existing.User.Id);
    expect(login.User.ExternalAccounts).toMatchObject([{ Provider: 'qq' }]);
  });

  it('logs in once when the same ticket is redeemed in parallel', async () => {
    const first = await ticket();
    if (first.Status !== 'bindPhone') throw new Error(first.Status);
    const phones = [newPhone(), newPhone(), newPhone()];
    const codes = await Promise.all(phones.map((phone) => sendSms(t, phone)));
    const answers = await Promise.all(
      phones.map((Phone, index) => t.call(externalLogin.bindPhone, { body: { Ticket: first.Ticket, Phone, Code: codes[index], DeviceId: device } })),
    );
    expect(answers.filter((answer) => answer.body.code === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.code === ErrorCode.ExternalTicketInvalid)).toHaveLength(2);
  });
});
