/**
 * The site's realtime connection logic (src/lib/realtime/hub-client.ts, what
 * the page's store runs) in Node against the real hub: reuse and rebuild by
 * access token, refusals, the hub-token cache and its one refetch, the §8
 * messages, and reconnecting after a server restart on the spec's delays.
 */
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lifetimes } from '../../../contract/identity.ts';
import { ApiFailure } from '../../../src/lib/api/errors.ts';
import { createHubClient, type HubClientOptions } from '../../../src/lib/realtime/hub-client.ts';
import { startHubApp, type HubApp, testEvent } from './harness.ts';

let t: HubApp;
beforeAll(async () => (t = await startHubApp()));
afterAll(() => t.close());

/** A client whose hub-token fetches are counted (and can be replaced). */
function client(options: Partial<HubClientOptions> = {}) {
  const fetched: string[] = [];
  const hub = createHubClient({
    url: t.url,
    transport: HttpTransportType.WebSockets,
    fetchHubToken: async (accessToken) => {
      fetched.push(accessToken);
      return { isSuccess: true, data: { AccessToken: await t.hubToken(accessToken) }, message: 'OK' };
    },
    ...options,
  });
  return { hub, fetched };
}

const until = (check: () => boolean) => expect.poll(check, { timeout: 5_000 }).toBe(true);

describe('the realtime connection', () => {
  it('waits for an access token, reuses the connection while it stays, and rebuilds when it changes', async () => {
    const first = await t.newUser();
    const second = await t.newUser();
    const { hub, fetched } = client();
    const pushes: unknown[] = [];
    hub.on('Notice', (text) => pushes.push(text));

    await hub.start();
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
    await expect(hub.invoke('GetCloudIdleStatus')).rejects.toThrow('Cannot send: the realtime connection is Disconnected.');
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
    await hub.start();
    expect(hub.$state.get()).toBe('Connected');
    await hub.stop();
    await new Promise((resolve) => setTimeout(resolve, 400));

    // Kept: the server refuses it as Unauthorized; one new token, and connected without a message.
    await hub.start();
    await until(() => hub.$state.get() === 'Connected' && fetched.length === 2);
    expect(hub.$problem.get()).toBeNull();
    await hub.stop();

    clock += lifetimes.hubTokenMs - 1;
    await hub.start();
    expect(fetched.length).toBe(2);
    await hub.stop();
    clock += 1;
    await hub.start();
    expect(fetched.length).toBe(3);
    await hub.stop();
  });

  it('says Token 过期请刷新再试 (401) when the refetched hub token is refused too, and stops there', async () => {
    const me = await t.newUser();
    const { hub, fetched } = client({ fetchHubToken: async (accessToken) => (fetched.push(accessToken), { isSuccess: true, data: { AccessToken: 'forged' }, message: 'OK' }) });
    hub.setAccessToken(me.accessToken);
    await hub.start();
    await until(() => hub.$problem.get() !== null);
    expect(hub.$problem.get()).toEqual({ key: 'realtime.tokenExpired', code: 401 });
    expect(hub.$state.get()).toBe('Disconnected');
    expect(fetched).toHaveLength(2);
  });

  it.each([
    ['the server refuses', async () => ({ isSuccess: false, data: null, message: 'Service paused' }), { key: 'realtime.tokenFetchFailed', serverMessage: 'Service paused' }],
    ['the call fails', async () => Promise.reject(new ApiFailure('network')), { key: 'realtime.tokenFetchFailed' }],
    ['the answer has no token', async () => ({ isSuccess: true, data: null, message: 'OK' }), { key: 'realtime.noToken' }],
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
    expect(hub.$problem.get()).toEqual({ key: 'realtime.error', error: expect.stringContaining('Failed to complete negotiation with the server') });
  });
});

describe('after a server restart', () => {
  it('reconnects on the spec’s delays (0, then 2 s) and carries on', { timeout: 30_000 }, async () => {
    const first = await startHubApp({ DEMO_DATA: 'true' });
    const { port } = first;
    const me = await first.newUser();
    const { hub } = client({ url: first.url, fetchHubToken: async (accessToken) => ({ isSuccess: true, data: { AccessToken: await first.hubToken(accessToken) }, message: 'OK' }) });
    hub.setAccessToken(me.accessToken);
    await hub.start();
    const states: Array<[string, number]> = [];
    hub.$state.listen((state) => states.push([state, Date.now()]));

    // Same data folder, so the same keys: the hub token still verifies on the new server.
    const dataDir = first.app.config.DATA_DIR;
    await first.close();
    const dropped = Date.now();
    await until(() => hub.$state.get() === 'Reconnecting');
    // The immediate attempt finds nobody; the server is back before the 2-second one.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const second = await startHubApp({ DATA_DIR: dataDir }, port);
    try {
      await until(() => hub.$state.get() === 'Connected');
      const reconnectedAfter = states.find(([state]) => state === 'Connected')![1] - dropped;
      expect(reconnectedAfter).toBeGreaterThanOrEqual(2_000);
      expect(reconnectedAfter).toBeLessThan(10_000);

      const received = new Promise((resolve) => hub.on('Notice', resolve));
      await second.app.hub.toUser(me.userId, testEvent('Notice'), ['back again']);
      expect(await received).toBe('back again');
    } finally {
      await hub.stop();
      await second.close();
    }
  });

  it('gives up after the attempts at 0, 2, 10 and 30 s when the server stays away', async () => {
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
      // Even the first attempt waits on a timer (of 0 ms).
      await settle(() => hub.$state.get() === 'Reconnecting');
      await vi.advanceTimersByTimeAsync(0);
      await settle(() => attempts.length === before + 1);
      for (const delay of [2_000, 10_000, 30_000]) {
        const count = attempts.length;
        await vi.advanceTimersByTimeAsync(delay - 1);
        expect(attempts.length).toBe(count);
        await vi.advanceTimersByTimeAsync(1);
        await settle(() => attempts.length === count + 1);
      }
      await settle(() => hub.$state.get() === 'Disconnected');
      expect(attempts.slice(before).map((at) => at - attempts[before])).toEqual([0, 2_000, 12_000, 42_000]);
    } finally {
      vi.useRealTimers();
    }
  });
});
