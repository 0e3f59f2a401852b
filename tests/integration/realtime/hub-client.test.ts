/**
 * The site's realtime connection logic (src/lib/realtime/hub-client.ts, what
 * the page's store runs) in Node against the real hub: one connection shared by
 * its followers, reuse and rebuild by access token, refusals, the hub-token
 * cache and its one refetch, methods and pushes checked against the contract,
 * the error messages (also when the session ends elsewhere), and reconnecting
 * after a server restart on the contract's reconnect delays (`hubTiming`).
 */
import { HttpTransportType } from '@microsoft/signalr';
import * as z from 'zod/mini';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { identity, lifetimes } from '#contract/identity.ts';
import { CloudIdleStatus, hubEvents, hubMethods } from '#contract/realtime.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { createHubClient, memoryHubTokens, type HubClientOptions } from '@/lib/realtime/hub-client.ts';
import { demoAccount } from '../../../server/services/demo-account.ts';
import { setCloudIdleStatus } from '../../../server/modules/cloud-idle/status.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { startApp } from '../api/harness.ts';
import { startHubApp, type HubApp, testEvent } from './harness.ts';

let t: HubApp;
beforeAll(async () => (t = await startHubApp()));
afterAll(() => t.close());

/** A client of `app`'s hub whose hub-token fetches are counted (and can be replaced). */
function client(options: Partial<HubClientOptions> = {}, app = t) {
  const fetched: string[] = [];
  const hub = createHubClient({
    url: app.url,
    transport: HttpTransportType.WebSockets,
    fetchHubToken: async (accessToken) => {
      fetched.push(accessToken);
      return { isSuccess: true, data: { AccessToken: await app.hubToken(accessToken) }, message: 'OK' };
    },
    ...options,
  });
  return { hub, fetched };
}

const until = (check: () => boolean) => expect.poll(check, { timeout: 5_000 }).toBe(true);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the realtime connection', () => {
  it('connects without a login when it fetches no hub token, for broadcasts only, while anyone follows', async () => {
    const me = await t.newUser();
    const hub = createHubClient({ url: t.url, transport: HttpTransportType.WebSockets });
    const notices: unknown[] = [];
    const idle: unknown[] = [];
    hub.on(testEvent('Notice'), (text) => notices.push(text));
    hub.on(hubEvents.cloudIdleStatus, (status) => idle.push(status));
    expect(hub.$state.get()).toBe('Disconnected');

    const release = hub.follow();
    await until(() => hub.$state.get() === 'Connected');
    await t.app.hub.broadcast(testEvent('Notice'), ['to everyone']);
    await setCloudIdleStatus(t.app.db, shellActor('ops@shop', null), t.app.hub, me.userId, { State: 'Paused', Games: [], CardsRemaining: 2 });
    await until(() => notices.length === 1);
    expect(notices).toEqual(['to everyone']);
    await expect(hub.invoke(hubMethods.getCloudIdleStatus)).rejects.toThrow('Unauthorized');
    expect(idle).toEqual([]);
    expect(hub.$problem.get()).toBeNull();

    release();
    expect(hub.$state.get()).toBe('Disconnected');
  });

  it('waits for an access token, reuses the connection while it stays, and rebuilds when it changes', async () => {
    const first = await t.newUser();
    const second = await t.newUser();
    const { hub, fetched } = client();
    const pushes: unknown[] = [];
    hub.on(testEvent('Notice'), (text) => pushes.push(text));

    hub.follow();
    expect(hub.$state.get()).toBe('Disconnected');
    hub.setAccessToken(first.accessToken);
    await until(() => hub.$state.get() === 'Connected');
    expect(fetched).toEqual([first.accessToken]);

    // The same token again changes nothing: no new connection, no new hub token.
    hub.setAccessToken(first.accessToken);
    expect(hub.$state.get()).toBe('Connected');
    await expect(hub.start()).rejects.toThrow('can only start when Disconnected');

    // Another login: the old connection stops, a new one is made for the new user.
    hub.setAccessToken(second.accessToken);
    await until(() => hub.$state.get() === 'Connected');
    expect(fetched).toEqual([first.accessToken, second.accessToken]);
    await t.app.hub.toUser(first.userId, testEvent('Notice'), ['for the first user']);
    await t.app.hub.toUser(second.userId, testEvent('Notice'), ['for the second user']);
    // Handlers registered before the rebuild still run.
    await until(() => pushes.length === 1);
    expect(pushes).toEqual(['for the second user']);

    // Logout: disconnected, and sends are refused.
    hub.setAccessToken(null);
    expect(hub.$state.get()).toBe('Disconnected');
    await expect(hub.invoke(hubMethods.getCloudIdleStatus)).rejects.toThrow('Cannot send: the realtime connection is Disconnected.');
  });

  it('keeps the hub token 10 minutes, and fetches a new one once when the hub refuses the kept one', async () => {
    const me = await t.newUser();
    let clock = Date.now();
    let shortLived = true;
    const fetched: string[] = [];
    const { hub } = client({
      now: () => clock,
      // The first hub token expires at once on the server, though the client keeps it 10 minutes.
      fetchHubToken: async (accessToken) => {
        fetched.push(accessToken);
        const hubToken = shortLived ? t.signedHubToken(me.userId, 300) : await t.hubToken(accessToken);
        shortLived = false;
        return { isSuccess: true, data: { AccessToken: hubToken }, message: 'OK' };
      },
    });
    hub.setAccessToken(me.accessToken);
    /** Connects, then lets go; the kept hub token outlives the connection. */
    const connectOnce = async () => {
      const release = hub.follow();
      await until(() => hub.$state.get() === 'Connected');
      release();
    };
    await connectOnce();
    await pause(400);

    // Kept: the server refuses it as Unauthorized; one new token, and connected without a message.
    const release = hub.follow();
    await until(() => hub.$state.get() === 'Connected' && fetched.length === 2);
    expect(hub.$problem.get()).toBeNull();
    release();

    clock += lifetimes.hubTokenMs - 1;
    await connectOnce();
    expect(fetched.length).toBe(2);
    clock += 1;
    await connectOnce();
    expect(fetched.length).toBe(3);
  });

  it('keeps the hub token across page loads: a second page of the same login within 10 minutes fetches none', async () => {
    const me = await t.newUser();
    let clock = Date.now();
    // What localStorage is to the site: one store that outlives each page's client.
    const kept = memoryHubTokens();
    const pageLoad = async () => {
      const page = client({ hubTokens: kept, now: () => clock });
      page.hub.setAccessToken(me.accessToken);
      const release = page.hub.follow();
      await until(() => page.hub.$state.get() === 'Connected');
      release();
      return page.fetched.length;
    };
    expect(await pageLoad()).toBe(1);
    clock += 5_000;
    expect(await pageLoad()).toBe(0);
    clock += lifetimes.hubTokenMs;
    expect(await pageLoad()).toBe(1);
    // Another login in the same browser never gets this login's hub token.
    const other = await t.newUser();
    const otherPage = client({ hubTokens: kept, now: () => clock });
    otherPage.hub.setAccessToken(other.accessToken);
    const release = otherPage.hub.follow();
    await until(() => otherPage.hub.$state.get() === 'Connected');
    release();
    expect(otherPage.fetched).toEqual([other.accessToken]);
  });

  it('says Token 过期请刷新再试 (401) when the refetched hub token is refused too, and stops there', async () => {
    const me = await t.newUser();
    const { hub, fetched } = client({
      fetchHubToken: async (accessToken) => (fetched.push(accessToken), { isSuccess: true, data: { AccessToken: 'forged' }, message: 'OK' }),
    });
    hub.setAccessToken(me.accessToken);
    await hub.start();
    await until(() => hub.$problem.get() !== null);
    expect(hub.$problem.get()).toEqual({ key: 'messages.realtimeTokenExpired', code: 401 });
    expect(hub.$state.get()).toBe('Disconnected');
    expect(fetched).toHaveLength(2);
  });

  it.each([
    [
      'the server refuses',
      async () => ({ isSuccess: false, data: null, message: 'Service paused' }),
      { key: 'messages.realtimeTokenFetchFailed', serverMessage: 'Service paused' },
    ],
    ['the call fails', async () => Promise.reject(new ApiFailure('network')), { key: 'messages.realtimeTokenFetchFailed' }],
    ['the answer has no token', async () => ({ isSuccess: true, data: null, message: 'OK' }), { key: 'messages.realtimeNoToken' }],
  ] as const)('reports a hub token that cannot be had when %s', async (_, fetchHubToken, problem) => {
    const me = await t.newUser();
    const { hub } = client({ fetchHubToken });
    hub.setAccessToken(me.accessToken);
    await hub.start();
    expect(hub.$problem.get()).toEqual({ serverMessage: undefined, ...problem });
    expect(hub.$state.get()).toBe('Disconnected');
  });

  it('reports anything else as 出现错误:{error}', async () => {
    const me = await t.newUser();
    const { hub } = client({ url: `http://127.0.0.1:${t.port}/api/no-hub-here` });
    hub.setAccessToken(me.accessToken);
    await hub.start();
    expect(hub.$problem.get()).toEqual({ key: 'messages.genericError', error: expect.stringContaining('Failed to complete negotiation with the server') });
  });
});

describe('methods and pushes of the contract', () => {
  it('hands out checked, typed answers and pushes, and drops what breaks the contract', async () => {
    const me = await t.newUser();
    const { hub } = client();
    const statuses: CloudIdleStatus[] = [];
    hub.on(hubEvents.cloudIdleStatus, (status) => {
      expectTypeOf(status).toEqualTypeOf<CloudIdleStatus>();
      statuses.push(status);
    });
    hub.setAccessToken(me.accessToken);
    const release = hub.follow();
    await until(() => hub.$state.get() === 'Connected');

    const none = await hub.invoke(hubMethods.getCloudIdleStatus);
    expectTypeOf(none).toEqualTypeOf<CloudIdleStatus | null>();
    expect(none).toBeNull();

    // A half-formed push first, then a real one: only the real one arrives.
    await t.app.hub.toUser(me.userId, testEvent(hubEvents.cloudIdleStatus.name), [{ State: 'Idling', Games: 'many' }]);
    const saved = await setCloudIdleStatus(t.app.db, shellActor('ops@shop', null), t.app.hub, me.userId, {
      State: 'Idling',
      Games: [{ AppId: 730, Name: 'Counter-Strike 2', CardsRemaining: 3 }],
      CardsRemaining: 9,
    });
    await until(() => statuses.length > 0);
    expect(statuses).toEqual([saved]);
    expect(await hub.invoke(hubMethods.getCloudIdleStatus)).toEqual(saved);

    // An answer the contract does not allow rejects instead of reaching the page.
    const expectsText = { ...hubMethods.getCloudIdleStatus, result: z.string() };
    await expect(hub.invoke(expectsText)).rejects.toThrow("The hub's answer to GetCloudIdleStatus does not match the contract.");
    release();
  });
});

describe('one connection for the page', () => {
  let demo: HubApp;
  beforeAll(async () => (demo = await startHubApp({ DEMO_DATA: 'true' })));
  afterAll(() => demo.close());

  /** A login of the demo account: a session of its own. */
  const logIn = async (device: string) =>
    (await demo.call(identity.loginByPassword, { body: { Account: demoAccount.phone, Password: demoAccount.password, DeviceId: device } })).body.data;

  it('stays while any follower stays, stops when the last lets go, and connects again for a new follower', async () => {
    const me = await logIn('followers-test-01');
    const { hub } = client({}, demo);
    const pushes: unknown[] = [];
    hub.on(testEvent('Notice'), (text) => pushes.push(text));
    hub.setAccessToken(me.AccessToken);

    const releaseA = hub.follow();
    const releaseB = hub.follow();
    await until(() => hub.$state.get() === 'Connected');
    expect(demo.app.hub.size).toBe(1);

    // One island leaves (twice, as a cleanup may run): the other keeps the connection and its pushes.
    releaseA();
    releaseA();
    expect(hub.$state.get()).toBe('Connected');
    await demo.app.hub.toUser(me.User.Id, testEvent('Notice'), ['still here']);
    await until(() => pushes.length === 1);

    releaseB();
    expect(hub.$state.get()).toBe('Disconnected');
    await until(() => demo.app.hub.size === 0);

    const releaseC = hub.follow();
    await until(() => hub.$state.get() === 'Connected');
    expect(demo.app.hub.size).toBe(1);
    releaseC();
    await until(() => demo.app.hub.size === 0);
  });

  it('ends with Token 过期请刷新再试 (401), and stays ended, when another device signs this session out', async () => {
    const here = await logIn('signed-out-here-01');
    const { hub, fetched } = client({}, demo);
    hub.setAccessToken(here.AccessToken);
    hub.follow();
    await until(() => hub.$state.get() === 'Connected');

    const elsewhere = await logIn('signing-out-elsewhere-01');
    expect((await demo.call(identity.signOutOtherSessions, { token: elsewhere.AccessToken })).body.code).toBe(200);

    await until(() => hub.$problem.get() !== null && hub.$state.get() === 'Disconnected');
    expect(hub.$problem.get()).toEqual({ key: 'messages.realtimeTokenExpired', code: 401 });
    // One try for a new hub token, which the ended login cannot have; then no more.
    expect(fetched).toEqual([here.AccessToken, here.AccessToken]);
    await pause(2_500);
    expect(hub.$state.get()).toBe('Disconnected');
    expect(fetched).toHaveLength(2);
    expect(demo.app.hub.size).toBe(0);
  });
});

describe('after a server restart', () => {
  it('reconnects on the contract’s delays (0, then 2 s) and carries on', { timeout: 30_000 }, async () => {
    const first = await startHubApp({ DEMO_DATA: 'true' });
    const { port } = first;
    const me = await first.newUser();
    // The library's requests, watched from before it is made (it keeps the fetch it finds then).
    const requests = vi.spyOn(globalThis, 'fetch');
    const failedNegotiations = () =>
      requests.mock.settledResults.filter((result, n) => result.type === 'rejected' && String(requests.mock.calls[n][0]).includes('/negotiate')).length;
    const { hub } = client({
      url: first.url,
      fetchHubToken: async (accessToken) => ({ isSuccess: true, data: { AccessToken: await first.hubToken(accessToken) }, message: 'OK' }),
    });
    hub.setAccessToken(me.accessToken);
    const release = hub.follow();
    await until(() => hub.$state.get() === 'Connected');
    const states: Array<[string, number]> = [];
    hub.$state.listen((state) => states.push([state, Date.now()]));

    // Same data folder, so the same keys: the hub token still verifies on the new server. It is
    // built before the first goes, so that it can be back before the 2-second attempt however long
    // building takes on a busy machine.
    const second = await startApp({ DATA_DIR: first.app.config.DATA_DIR });
    await first.close();
    await until(() => hub.$state.get() === 'Reconnecting');
    const dropped = states.find(([state]) => state === 'Reconnecting')![1];
    // The immediate attempt finds nobody; the server is back before the 2-second one.
    await until(() => failedNegotiations() > 0);
    await second.app.listen({ port, host: '127.0.0.1' });
    try {
      await until(() => hub.$state.get() === 'Connected');
      const reconnectedAfter = states.find(([state]) => state === 'Connected')![1] - dropped;
      // Timers may fire a millisecond or two early by the wall clock.
      expect(reconnectedAfter).toBeGreaterThanOrEqual(1_990);
      expect(reconnectedAfter).toBeLessThan(10_000);

      const received = new Promise((resolve) => hub.on(testEvent('Notice'), resolve));
      await second.app.hub.toUser(me.userId, testEvent('Notice'), ['back again']);
      expect(await received).toBe('back again');
    } finally {
      requests.mockRestore();
      release();
      await second.close();
    }
  });

  it('gives up after a new socket and the attempts at 0, 2, 10 and 30 s when the server stays away', async () => {
    const gone = await startHubApp();
    const me = await gone.newUser();
    const hubToken = await gone.hubToken(me.accessToken);
    const attempts: number[] = [];
    let clock = 0;
    const { hub } = client({
      url: gone.url,
      fetchHubToken: async () => {
        attempts.push(Date.now());
        return { isSuccess: true, data: { AccessToken: hubToken }, message: 'OK' };
      },
      // Each look at the clock is ten minutes on: the hub token is never kept, so every attempt shows here.
      now: () => (clock += lifetimes.hubTokenMs),
    });
    hub.setAccessToken(me.accessToken);
    await hub.start();
    expect(hub.$state.get()).toBe('Connected');

    // Failed attempts take real I/O (connection refused); the delays between them run on the fake clock.
    const settle = async (check: () => boolean) => {
      for (let i = 0; i < 10_000 && !check(); i++) await new Promise((resolve) => setImmediate(resolve));
      expect(check()).toBe(true);
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const before = attempts.length;
      await gone.close();
      // Stateful reconnect first tries a new socket for the same connection, at once and with a hub token of its own;
      // only when that fails does the connection reconnect afresh, and even its first attempt waits on a timer (of 0 ms).
      await settle(() => hub.$state.get() === 'Reconnecting');
      expect(attempts.length).toBe(before + 1);
      await vi.advanceTimersByTimeAsync(0);
      await settle(() => attempts.length === before + 2);
      for (const delay of [2_000, 10_000, 30_000]) {
        const count = attempts.length;
        await vi.advanceTimersByTimeAsync(delay - 1);
        expect(attempts.length).toBe(count);
        await vi.advanceTimersByTimeAsync(1);
        await settle(() => attempts.length === count + 1);
      }
      await settle(() => hub.$state.get() === 'Disconnected');
      expect(attempts.slice(before).map((at) => at - attempts[before])).toEqual([0, 0, 2_000, 12_000, 42_000]);
    } finally {
      vi.useRealTimers();
    }
  });
});
