/**
 * An instance outliving its database and its Redis going away and coming
 * back, as PostgreSQL restarting and Redis stopping look to it (each behind a
 * TCP proxy the test cuts off: open connections reset, new ones refused).
 * While the database is away, calls answer 503 with Retry-After in the
 * reader's language at once and /api/ready says not ready; once it is back the
 * same process serves again. While Redis is away, nothing fails: rate limits
 * count in the instance's memory, and pushes between instances resume when
 * it returns. The deployment test does the same to the real servers.
 */
import { HttpTransportType } from '@microsoft/signalr';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '#contract/errors.ts';
import { identity, system } from '#contract/identity.ts';
import { hubEvents } from '#contract/realtime.ts';
import { openDatabase, postgresPoolSize } from '../../../server/db/open.ts';
import { startTcpProxy, type TcpProxy } from '../../setup/tcp-proxy.ts';
import { databaseUrl } from '../api/harness.ts';
import { hubClient, nextCall, startHubApp, type HubApp } from '../realtime/harness.ts';

const redisUrl = process.env.TEST_REDIS_URL!;

/** `url` with its host and port replaced by the proxy's, and its path by `pathname` when given. */
function through(proxy: TcpProxy, url: string, pathname?: string): string {
  const proxied = new URL(url);
  proxied.host = proxy.address;
  if (pathname !== undefined) proxied.pathname = pathname;
  return proxied.toString();
}

async function proxyFor(url: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(url);
  return startTcpProxy({ host: hostname, port: Number(port) });
}

describe('the database going away and coming back', () => {
  let database: TcpProxy;
  let app: HubApp;

  beforeAll(async () => {
    const url = await databaseUrl();
    database = await proxyFor(url);
    app = await startHubApp({ DATABASE_URL: through(database, url) });
  });
  afterAll(async () => {
    await database?.restore().catch(() => {});
    await app?.close();
    await database?.close();
  });

  it('answers 503 with Retry-After in the reader’s language at once while it is away, and serves again without a restart when it is back', async () => {
    const me = await app.newUser();
    const profile = () => app.call(identity.refreshUserInfo, { token: me.accessToken, locale: 'ja', body: { Refresh: true } });
    expect((await profile()).status).toBe(200);

    await database.cut();
    const started = performance.now();
    const during = await profile();
    expect(performance.now() - started).toBeLessThan(3000);
    expect(during.status).toBe(503);
    expect(during.body.code).toBe(ErrorCode.Unavailable);
    expect(during.body.message).toMatch(/データベース/);
    expect(Number(during.headers['retry-after'])).toBeGreaterThan(0);
    const ready = await app.call(system.ready);
    expect(ready.status).toBe(503);
    // The pool's idle connections were reset while nobody used them: the process heard it and lives on.
    await new Promise((resolve) => setTimeout(resolve, 200));

    await database.restore();
    await expect.poll(async () => (await app.call(system.ready)).status, { timeout: 10_000 }).toBe(200);
    expect((await profile()).status).toBe(200);
  });

  it('answers 503 within the connection deadline when it takes connections and never answers', async () => {
    const me = await app.newUser();
    const profile = () => app.call(identity.refreshUserInfo, { token: me.accessToken, locale: 'ru', body: { Refresh: true } });
    expect((await profile()).status).toBe(200);

    database.silence();
    // The pool drops its reset connections: the next request must open one.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    const during = await profile();
    expect(performance.now() - started).toBeLessThan(4500);
    expect(during.status).toBe(503);
    expect(during.body.code).toBe(ErrorCode.Unavailable);

    await database.restore();
    await expect.poll(async () => (await profile()).status, { timeout: 10_000 }).toBe(200);
  });
});

describe('a database busy with every connection', () => {
  it('lets a request wait its turn instead of answering that the database is away', async () => {
    const opened = await openDatabase(await databaseUrl(), { migrate: false });
    try {
      // Each of the pool's connections busy for longer than a connection may take to open
      // (drizzle's queries start when awaited: Promise.resolve starts them now).
      const busy = Array.from({ length: postgresPoolSize }, () => Promise.resolve(opened.db.execute(sql`select pg_sleep(3.5)`)));
      const waiting = Promise.resolve(opened.db.execute(sql`select 1 as one`));
      const [, answer] = await Promise.all([Promise.all(busy), waiting]);
      expect((answer as { rows: unknown[] }).rows).toEqual([{ one: 1 }]);
    } finally {
      await opened.close();
    }
  });
});

describe('Redis going away and coming back', () => {
  let redis: TcpProxy;
  let a: HubApp;
  let b: HubApp;

  beforeAll(async () => {
    redis = await proxyFor(redisUrl);
    const shared = {
      DATABASE_URL: await databaseUrl(),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'beacon-outage-')),
      // A database of its own in Redis: the other scale-out file's rate-limit counts (loopback's among them) are not this one's.
      REDIS_URL: through(redis, redisUrl, '/1'),
      RATE_LIMIT_PER_MINUTE: '6',
    };
    a = await startHubApp(shared);
    b = await startHubApp(shared);
  });
  afterAll(async () => {
    await redis?.restore().catch(() => {});
    await a?.close();
    await b?.close();
    await redis?.close();
  });

  it('keeps answering at once, limits each address in the instance’s memory, says Redis is down when asked, and pushes between instances again once it is back', async () => {
    const me = await a.newUser();
    await redis.cut();

    const ask = () => a.call(system.publicKey, { ip: '203.0.113.91' });
    const started = performance.now();
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await ask()).status);
    expect(performance.now() - started).toBeLessThan(3000);
    // The limit still holds, counted by this instance alone.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    const ready = await a.call(system.ready);
    expect(ready.status).toBe(200);
    expect(ready.body.data).toMatchObject({ Database: 'up', Redis: 'down' });

    await redis.restore();
    await expect.poll(async () => (await a.call(system.ready)).body.data?.Redis, { timeout: 15_000 }).toBe('up');
    const onB = hubClient(b.url, HttpTransportType.WebSockets, () => a.hubToken(me.accessToken));
    await onB.start();
    try {
      // B's subscription came back with Redis: a push made on A reaches B's client.
      await expect
        .poll(
          async () => {
            const pushed = nextCall(onB, hubEvents.raffleCount.name);
            await a.app.pusher!.toUser(me.userId, hubEvents.raffleCount, [{ RaffleId: 1, Count: 1 }]);
            return Promise.race([pushed.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 500))]);
          },
          { timeout: 15_000 },
        )
        .toBe(true);
    } finally {
      await onB.stop();
    }
  });
});
