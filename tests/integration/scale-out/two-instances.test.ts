/**
 * Two app instances sharing one PostgreSQL database and one Redis, as a
 * scaled-out deployment runs (`npm run test:scale-out` starts both servers):
 * a push made on one instance reaches a client connected to the other, the
 * rate limit counts requests to both, a session an operator ends stops
 * working at once on both, though each had just authenticated its token, and
 * the console's dashboard counts the hub's connections on both.
 */
import { HttpTransportType } from '@microsoft/signalr';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identity } from '#contract/identity.ts';
import { hubEvents } from '#contract/realtime.ts';
import { runCommand } from '../../../server/admin-command.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { countRenewMs } from '../../../server/realtime/connection-count.ts';
import { databaseUrl } from '../api/harness.ts';
import { hubClient, nextCall, startHubApp, type HubApp, testEvent } from '../realtime/harness.ts';

const redisUrl = process.env.TEST_REDIS_URL!;

describe('two instances on one PostgreSQL and one Redis', () => {
  let a: HubApp;
  let b: HubApp;

  beforeAll(async () => {
    // One database and one data folder (so one set of keys) for both, as in production.
    const shared = {
      DATABASE_URL: await databaseUrl(),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'beacon-scale-')),
      REDIS_URL: redisUrl,
      RATE_LIMIT_PER_MINUTE: '8',
    };
    a = await startHubApp(shared);
    b = await startHubApp(shared);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('delivers a push made on A to the user’s connection on B, and a broadcast from B to clients of A', async () => {
    const me = await a.newUser();
    const onB = hubClient(b.url, HttpTransportType.WebSockets, () => a.hubToken(me.accessToken));
    const onA = hubClient(a.url, HttpTransportType.LongPolling, () => b.hubToken(me.accessToken));
    await Promise.all([onB.start(), onA.start()]);
    try {
      const pushed = nextCall(onB, hubEvents.cloudIdleStatus.name);
      // The operators' command, run on A, stores the status in the shared database and pushes it.
      const command = await a.app.inject({
        method: 'POST',
        url: '/api/admin/run',
        remoteAddress: '127.0.0.1',
        headers: { 'x-admin-token': a.app.adminToken },
        payload: {
          command: 'idle set',
          args: { user: String(me.userId), state: 'Idling', games: [{ AppId: 730, CardsRemaining: 5, Name: 'Counter-Strike 2' }] },
        },
      });
      expect(command.json().data).toMatchObject({ command: 'idle set', userId: me.userId, pushed: true });
      const [status] = await pushed;
      expect(status).toMatchObject({ State: 'Idling', Games: [{ AppId: 730, Name: 'Counter-Strike 2', CardsRemaining: 5 }], CardsRemaining: 5 });
      // B reads the same database.
      expect(await onB.invoke('GetCloudIdleStatus')).toEqual(status);

      const everyone = [nextCall(onA, 'Notice'), nextCall(onB, 'Notice')];
      await b.app.hub.broadcast(testEvent('Notice'), ['from B']);
      expect(await Promise.all(everyone)).toEqual([['from B'], ['from B']]);
    } finally {
      await Promise.all([onA.stop(), onB.stop()]);
    }
  });

  it('counts one address’s requests on both instances against one limit', async () => {
    const ask = (app: HubApp) => app.app.inject({ url: '/api/crypto/public-key', remoteAddress: '203.0.113.77' });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await ask(a)).statusCode, (await ask(b)).statusCode);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
    expect(statuses.slice(8)).toEqual([429, 429]);
  });

  it('refuses a session’s token on both instances right after an operator ends it', async () => {
    const me = await a.newUser();
    // Each call from an address of its own: the instances share a small rate limit.
    let address = 0;
    const sessionsOn = (app: HubApp) => app.call(identity.sessions, { token: me.accessToken, ip: `198.51.100.${++address}` });
    // Both instances have just authenticated the token, so both remember it.
    const [onA, onB] = [await sessionsOn(a), await sessionsOn(b)];
    expect([onA.status, onB.status]).toEqual([200, 200]);
    const sessionId = onA.body.data.find((session) => session.Current)!.Id;

    const ended = await a.app.inject({
      method: 'POST',
      url: '/api/admin/run',
      remoteAddress: '127.0.0.1',
      headers: { 'x-admin-token': a.app.adminToken },
      payload: { command: 'session end', args: { sessionId } },
    });
    expect(ended.json().data).toMatchObject({ command: 'session end', sessionId, userId: me.userId });
    expect([(await sessionsOn(b)).status, (await sessionsOn(a)).status]).toEqual([401, 401]);
  });
});

// Instances of their own, with the usual rate limit: the first pair's small one would refuse these connections.
describe('the hub’s connections counted across two instances', () => {
  let c: HubApp;
  let d: HubApp;

  beforeAll(async () => {
    const shared = { DATABASE_URL: await databaseUrl(), DATA_DIR: mkdtempSync(path.join(tmpdir(), 'beacon-scale-')), REDIS_URL: redisUrl };
    c = await startHubApp(shared);
    d = await startHubApp(shared);
  });
  afterAll(async () => {
    await c?.close();
    await d?.close();
  });

  it('counts the hub’s connections on both instances in the dashboard of either, and forgets those that closed', async () => {
    const me = await c.newUser();
    const caller = { actor: shellActor('root@shop', null), locale: 'en' as const, attachment: null };
    const hubOf = async (app: HubApp) => ((await runCommand(app.app, 'dashboard', { days: 7 }, caller, null)) as { hubConnections: unknown }).hubConnections;
    const onA = hubClient(c.url, HttpTransportType.WebSockets, () => c.hubToken(me.accessToken));
    const onB = hubClient(d.url, HttpTransportType.ServerSentEvents, () => d.hubToken(me.accessToken));
    await Promise.all([onA.start(), onB.start()]);
    try {
      // Each instance writes its own count every few seconds; within one renewal, either sees both.
      await expect.poll(() => hubOf(c), { timeout: countRenewMs * 3, interval: 250 }).toEqual({ connections: 2, servers: 2 });
      await expect.poll(() => hubOf(d), { timeout: countRenewMs * 3, interval: 250 }).toEqual({ connections: 2, servers: 2 });
    } finally {
      await Promise.all([onA.stop(), onB.stop()]);
    }
    await expect.poll(() => hubOf(c), { timeout: countRenewMs * 3, interval: 250 }).toEqual({ connections: 0, servers: 2 });
  }, 60_000);
});
