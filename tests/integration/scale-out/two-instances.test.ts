/**
 * Two app instances sharing one PostgreSQL database and one Redis, as a
 * scaled-out deployment runs (`npm run test:scale-out` starts both servers):
 * a push made on one instance reaches a client connected to the other, and
 * the rate limit counts requests to both.
 */
import { HttpTransportType } from '@microsoft/signalr';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubEvents } from '#contract/realtime.ts';
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
        payload: { command: ['idle', 'set', String(me.userId), '--state', 'Idling', '--game', '730:5:Counter-Strike 2'] },
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
});
