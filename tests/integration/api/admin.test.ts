import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWords, UsageError } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import { commerceCalls } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { hubEvents } from '#contract/realtime.ts';
import { buildApp } from '../../../server/app.ts';
import { loadConfig } from '../../../server/config.ts';
import type { Database } from '../../../server/db/database.ts';
import { openDatabase } from '../../../server/db/open.ts';
import { externalAccounts, sessions, tokens, users } from '../../../server/db/schema.ts';
import { databaseFingerprint, writeAdminFile } from '../../../server/modules/admin/admin-file.ts';
import { changeBalance } from '../../../server/modules/commerce/wallet.ts';
import { loginBySms } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';

const hour = 3_600_000;

/** Two users, the newer with one live session, one revoked session and one whose tokens have expired. */
async function seedUsers(db: Database) {
  const [older] = await db
    .insert(users)
    .values({ phone: '13911112222', nickname: 'Older', createdAt: new Date('2026-01-01T00:00:00Z') })
    .returning();
  const [newer] = await db
    .insert(users)
    .values({ email: 'newer@example.com', nickname: 'Newer', passwordHash: 'x', createdAt: new Date('2026-02-01T00:00:00Z') })
    .returning();
  await db.insert(externalAccounts).values({ userId: newer.id, provider: 'steam', subject: '7656', displayName: 'NewerOnSteam' });
  const [live, revoked, expired] = await db
    .insert(sessions)
    .values([
      { userId: newer.id, deviceId: 'dev-live', device: 'Firefox on Linux' },
      { userId: newer.id, deviceId: 'dev-revoked', device: 'Old phone', revokedAt: new Date() },
      { userId: newer.id, deviceId: 'dev-expired', device: 'Forgotten laptop' },
    ])
    .returning();
  await db.insert(tokens).values([
    { hash: `live-${newer.id}`, sessionId: live.id, kind: 'refresh', expiresAt: new Date(Date.now() + hour) },
    { hash: `revoked-${newer.id}`, sessionId: revoked.id, kind: 'refresh', expiresAt: new Date(Date.now() + hour) },
    { hash: `expired-${newer.id}`, sessionId: expired.id, kind: 'refresh', expiresAt: new Date(Date.now() - hour) },
  ]);
  return { older, newer, live };
}

describe('POST /api/admin/run', () => {
  let t: TestApp;
  let seeded: Awaited<ReturnType<typeof seedUsers>>;

  beforeAll(async () => {
    t = await startApp();
    seeded = await seedUsers(t.app.db);
  });
  afterAll(() => t.close());

  /** The words parsed as the CLI parses them, sent as it sends them. */
  const run = (words: string[], options: { token?: string; ip?: string; headers?: Record<string, string> } = {}) => {
    const { command, args } = parseWords(operatorCommands, words);
    return t.app.inject({
      method: 'POST',
      url: '/api/admin/run',
      remoteAddress: options.ip ?? '127.0.0.1',
      headers: { 'x-admin-token': options.token ?? t.app.adminToken, ...options.headers },
      payload: { command: command.name, args },
    });
  };

  it('does not exist for a wrong or missing token, a remote address or a forwarded request', async () => {
    const refused = [
      await run(['users', 'list'], { token: 'wrong' }),
      await run(['users', 'list'], { token: '' }),
      await t.app.inject({ method: 'POST', url: '/api/admin/run', remoteAddress: '127.0.0.1', payload: { command: 'users list', args: {} } }),
      await run(['users', 'list'], { ip: '10.1.2.3' }),
      await run(['users', 'list'], { ip: '192.168.0.127' }),
      await run(['users', 'list'], { headers: { 'x-forwarded-for': '203.0.113.9' } }),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: ErrorCode.NotFound, data: null });
    }
  });

  it('answers loopback callers over IPv4, IPv6 and mapped IPv4', async () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect((await run(['migrations', 'status'], { ip })).statusCode).toBe(200);
  });

  it('lists users newest first with their active sessions', async () => {
    const response = await run(['users', 'list']);
    expect(response.json().code).toBe(200);
    expect(response.json().data).toEqual({
      command: 'users list',
      total: 2,
      page: 1,
      size: 25,
      rows: [
        { id: seeded.newer.id, phone: null, email: 'newer@example.com', nickname: 'Newer', createdAt: '2026-02-01T00:00:00.000Z', activeSessions: 1 },
        { id: seeded.older.id, phone: '13911112222', email: null, nickname: 'Older', createdAt: '2026-01-01T00:00:00.000Z', activeSessions: 0 },
      ],
    });
    const second = (await run(['users', 'list', '--size', '1', '--page', '2'])).json().data;
    expect({ ids: second.rows.map((user: { id: number }) => user.id), total: second.total }).toEqual({ ids: [seeded.older.id], total: 2 });
  });

  it('shows one user by id, phone or e-mail, with bound accounts and active sessions', async () => {
    const byId = (await run(['users', 'show', String(seeded.newer.id)])).json().data;
    expect(byId.user).toMatchObject({ id: seeded.newer.id, email: 'newer@example.com', hasPassword: true });
    expect(byId.user.externalAccounts).toEqual([expect.objectContaining({ provider: 'steam', subject: '7656', displayName: 'NewerOnSteam' })]);
    expect(byId.user.activeSessions).toEqual([expect.objectContaining({ id: seeded.live.id, device: 'Firefox on Linux', deviceId: 'dev-live' })]);
    expect((await run(['users', 'show', 'NEWER@example.com'])).json().data.user.id).toBe(seeded.newer.id);
    expect((await run(['users', 'show', '13911112222'])).json().data.user).toMatchObject({ id: seeded.older.id, hasPassword: false, activeSessions: [] });
    expect((await run(['users', 'show', 'nobody@example.com'])).json().data).toEqual({ command: 'users show', key: 'nobody@example.com', user: null });
  });

  it('reports each migration as applied', async () => {
    const { migrations } = (await run(['migrations', 'status'])).json().data;
    expect(migrations).toContainEqual({ tag: '0000_identity', createdAt: expect.any(String), applied: true });
    expect(migrations.every((migration: { applied: boolean }) => migration.applied)).toBe(true);
  });

  it('sets a user’s cloud idling, pushes it, and shows it', async () => {
    const pushes: unknown[][] = [];
    const push = t.app.hub.toUser.bind(t.app.hub);
    t.app.hub.toUser = async (...args) => void pushes.push(args);
    try {
      const set = (
        await run(['idle', 'set', '13911112222', '--state', 'Idling', '--game', '730:3:Counter-Strike 2', '--game', '440:1:Team Fortress: 2'])
      ).json().data;
      expect(set).toEqual({
        command: 'idle set',
        key: '13911112222',
        userId: seeded.older.id,
        status: {
          State: 'Idling',
          Games: [
            { AppId: 730, Name: 'Counter-Strike 2', CardsRemaining: 3 },
            { AppId: 440, Name: 'Team Fortress: 2', CardsRemaining: 1 },
          ],
          CardsRemaining: 4,
          UpdatedAt: expect.any(String),
        },
        pushed: true,
      });
      expect(pushes).toEqual([[seeded.older.id, hubEvents.cloudIdleStatus, [set.status]]]);
    } finally {
      t.app.hub.toUser = push;
    }
    expect((await run(['idle', 'show', String(seeded.older.id)])).json().data).toMatchObject({
      userId: seeded.older.id,
      status: { State: 'Idling', CardsRemaining: 4 },
    });
    expect((await run(['idle', 'show', String(seeded.newer.id)])).json().data).toEqual({
      command: 'idle show',
      key: String(seeded.newer.id),
      userId: seeded.newer.id,
      status: null,
    });
    expect((await run(['idle', 'set', 'nobody@example.com', '--state', 'Stopped'])).json().data).toMatchObject({ userId: null, status: null, pushed: false });
  });

  it('sells: sets and lists products, lists, fulfils and refunds orders, and turns payments off for maintenance', async () => {
    const set = await run(['product', 'set', 'cloud-idle-test', '--kind', 'membership', '--months', '2', '--price', '1100', '--renewal-plan', '77']);
    expect(set.json().data).toMatchObject({
      command: 'product set',
      product: { Code: 'cloud-idle-test', Months: 2, Price: 1100, AutoRenew: true, Active: true },
    });
    expect(
      (
        await run([
          'product',
          'set',
          'steam-us',
          '--kind',
          'steamRecharge',
          '--currency',
          'USD',
          '--region',
          'US',
          '--rate',
          '7.3',
          '--presets',
          '500,1000',
          '--min',
          '500',
          '--max',
          '20000',
        ])
      ).json().data.product,
    ).toMatchObject({ RatePpm: 7_300_000, Presets: [500, 1000] });
    expect(
      (await run(['product', 'set', 'cloud-idle-test', '--kind', 'membership', '--months', '2', '--price', '1100', '--inactive'])).json().data.product,
    ).toMatchObject({ Active: false, AutoRenew: true });
    const listed = (await run(['product', 'list'])).json().data.products.map((product: { Code: string }) => product.Code);
    expect(listed).toEqual(expect.arrayContaining(['cloud-idle-test', 'steam-us']));

    // A customer pays two recharges from the wallet.
    const { AccessToken: token, User } = await loginBySms(t, '13911119999', 'admin-test-device');
    await t.app.db.transaction((tx) => changeBalance(tx, User.Id, 20_000, 'credit', null));
    const paid: string[] = [];
    for (let i = 0; i < 2; i++) {
      const order = (await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-us', Amount: 1000, Target: '12345678' } })).body.data;
      expect((await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wallet' } })).body.code).toBe(200);
      paid.push(order.Key);
    }
    const waiting = (await run(['order', 'list', '--state', 'paid'])).json().data.rows.map((order: { Key: string }) => order.Key);
    expect(waiting).toEqual(expect.arrayContaining(paid));

    const fulfilled = (await run(['order', 'fulfil', paid[0]])).json().data;
    expect(fulfilled).toMatchObject({ command: 'order fulfil', key: paid[0], order: { State: 'fulfilled' }, refused: null });
    expect((await run(['order', 'fulfil', paid[0]])).json().data).toMatchObject({ order: null, refused: expect.any(String) });
    const refunded = (await run(['order', 'refund', paid[1]])).json().data;
    expect(refunded).toMatchObject({ command: 'order refund', order: { State: 'refunded' }, refused: null });
    expect((await t.call(commerceCalls.wallet, { token, params: { page: 1 } })).body.data.Balance).toBe(20_000 - 7300);

    expect((await run(['maintenance', 'on'])).json().data).toEqual({ command: 'maintenance on', maintenance: true });
    const refused = await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-us', Amount: 1000, Target: '12345678' } });
    expect(refused.body.code).toBe(ErrorCode.Maintenance);
    expect((await run(['maintenance', 'status'])).json().data.maintenance).toBe(true);
    expect((await run(['maintenance', 'off'])).json().data).toEqual({ command: 'maintenance off', maintenance: false });
    expect((await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-us', Amount: 1000, Target: '12345678' } })).body.code).toBe(200);
  });

  it('refuses words the CLI cannot read, and arguments outside a command’s declaration sent to it anyway', async () => {
    for (const words of [
      [],
      ['users'],
      ['users', 'list', '--size', '0'],
      ['users', 'list', '--limit', '1'],
      ['users', 'list', '--sort', 'password'],
      ['users', 'show'],
      ['drop', 'everything'],
      ['idle', 'set', '1'],
      ['idle', 'set', '1', '--state', 'Sleeping'],
      ['idle', 'set', '1', '--state', 'Idling', '--game', '730:x:CS'],
      ['idle', 'set', '1', '--state', 'Idling', '--cards', '-3'],
      ['idle', 'set', '1', '--state', 'Idling', '--colour', 'red'],
      ['idle', 'show'],
      ['product', 'set', 'x', '--kind', 'membership'],
      ['product', 'set', 'steam-xx', '--kind', 'steamRecharge', '--rate', 'abc'],
      ['order', 'fulfil', '123'],
      ['order', 'list', '--state', 'lost'],
      ['maintenance', 'sideways'],
    ]) {
      expect(() => parseWords(operatorCommands, words), words.join(' ')).toThrow(UsageError);
    }
    const send = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/run',
        remoteAddress: '127.0.0.1',
        headers: { 'x-admin-token': t.app.adminToken },
        payload: payload as object,
      });
    for (const payload of [
      { command: 'users list', args: { size: 0 } },
      { command: 'users list', args: { size: 201 } },
      { command: 'users list', args: { sort: 'passwordHash' } },
      { command: 'users list', args: [] },
      { command: 'users list' },
      { command: 'users show', args: {} },
      { command: 'drop everything', args: {} },
      { command: 'idle set', args: { user: '1', state: 'Sleeping', games: [] } },
      { command: 'idle set', args: { user: '1', state: 'Idling', games: [{ AppId: 730, CardsRemaining: -1, Name: 'CS' }] } },
      { command: 'order list', args: { state: 'lost' } },
      { command: 'restore', args: { file: '/tmp/a.tar.gz', into: '/tmp/b' } },
    ]) {
      expect((await send(payload)).json().code, JSON.stringify(payload)).toBe(ErrorCode.BadRequest);
    }
  });
});

describe('npm run admin', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beacon-admin-'));
  const env = { ...process.env, DATABASE_URL: `file://${path.join(dataDir, 'db')}`, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };

  /** The real CLI in its own process; never blocks this one, which may be the server it calls. */
  async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await promisify(execFile)(path.join(root, 'node_modules/.bin/node'), ['server/cli/admin.ts', ...args], { cwd: root, env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  beforeAll(async () => {
    const database = await openDatabase(env.DATABASE_URL);
    await seedUsers(database.db);
    await database.close();
  });

  it('opens a free database folder itself', { timeout: 60_000 }, async () => {
    const list = await cli('users', 'list', '--json');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).rows.map((user: { nickname: string }) => user.nickname)).toEqual(['Newer', 'Older']);

    const status = await cli('migrations', 'status', '--json');
    expect(JSON.parse(status.stdout).migrations).toContainEqual({ tag: '0000_identity', createdAt: expect.any(String), applied: true });
    expect((await cli('migrations', 'status')).stdout).toMatch(/^0000_identity\s.*\syes$/m);

    const idle = await cli('idle', 'set', '13911112222', '--state', 'Paused', '--cards', '9');
    expect(idle.code).toBe(0);
    expect(idle.stdout).toMatch(/^state\s+Paused$/m);
    expect(idle.stdout).toContain('Saved. No server was running to push it to');
    expect((await cli('idle', 'show', '13911112222')).stdout).toMatch(/^cards remaining\s+9$/m);

    const missing = await cli('users', 'show', 'nobody@example.com');
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('No user with id, phone or e-mail "nobody@example.com"') });
    expect((await cli('users', 'frob')).code).toBe(2);
  });

  it('goes through the running server while it holds the folder, and says so when it cannot', { timeout: 60_000 }, async () => {
    const app = await buildApp(loadConfig({ ...env, DEMO_DATA: 'false' }));
    try {
      const noFile = await cli('users', 'list');
      expect(noFile.code).toBe(1);
      expect(noFile.stderr).toMatch(/is in use by process \d+ on .*No server answered at the address in .*admin\.json/);

      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      writeAdminFile(dataDir, { port, token: app.adminToken, database: databaseFingerprint(env.DATABASE_URL) });
      const list = await cli('users', 'list');
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/^ID\s+PHONE\s+EMAIL\s+NICKNAME\s+CREATED\s+SESSIONS$/m);
      expect(list.stdout).toMatch(/newer@example\.com\s+Newer\s+2026-02-01 00:00:00Z\s+1$/m);

      // The server's key pair, made at its start, is retired for the window; the server itself picks up the new one.
      const rotate = await cli('keys', 'rotate');
      expect(rotate.code).toBe(0);
      expect(rotate.stdout).toMatch(/^PUBLIC KEY \(SHA-256\)\s+OPENS SEALED CALLS$/m);
      expect(rotate.stdout).toMatch(/^[0-9a-f]{64}\s+current: served from now on$/m);
      expect(rotate.stdout).toMatch(/^[0-9a-f]{64}\s+until \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/m);

      writeAdminFile(dataDir, { port, token: 'stale', database: databaseFingerprint(env.DATABASE_URL) });
      expect((await cli('users', 'list')).stderr).toMatch(/refused the admin call \(HTTP 404/);
    } finally {
      await app.close();
    }
  });
});
