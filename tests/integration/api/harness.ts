/**
 * Starts the real app for API tests: in-memory PGlite by default, or a fresh
 * database on the PostgreSQL server named by TEST_POSTGRES_URL (the Postgres
 * run of the same suite). Requests are sealed exactly as the site seals them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { pathOf, requestInQuery, type ApiRoute, type ResponseOf } from '#contract/api.ts';
import { encryption } from '#contract/crypto.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { lifetimes, system } from '#contract/identity.ts';
import { checkArgs, findCommand, UsageError } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import { buildApp, type BuildOptions } from '../../../server/app.ts';
import { loadConfig } from '../../../server/config.ts';
import { hashOpaqueToken, newOpaqueToken } from '../../../server/crypto/opaque-tokens.ts';
import { sessions, tokens, users } from '../../../server/db/schema.ts';
import { createSealer, importPublicKey, requestParts } from '../../../src/lib/api/crypto.ts';

/** A database URL for one app: a new database per app on PostgreSQL, so test files never share rows. */
export async function databaseUrl(): Promise<string> {
  const server = process.env.TEST_POSTGRES_URL;
  if (!server) return 'memory://';
  const name = `beacon_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Each call comes from its own address unless a test says otherwise, so per-address limits only bite where tested. */
const randomAddress = () => `10.${randomBytes(3).join('.')}`;

/**
 * An answer as the contract types it. An envelope's `data` is checked against
 * the route's response schema when the call succeeded; a failure's `data` is null.
 */
export type Reply<R extends ApiRoute> = R['shape'] extends 'raw' ? ResponseOf<R> : { code: number; message: string; data: ResponseOf<R> };

export interface TestApp {
  app: FastifyInstance;
  /** The public key (base64 SPKI) that `call` seals for: the server's when the app started. */
  publicSpki: string;
  call<R extends ApiRoute>(route: R, options?: CallOptions): Promise<{ status: number; body: Reply<R>; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

export interface CallOptions {
  /** Sent as it is, so tests can send what the contract refuses. */
  body?: unknown;
  params?: Record<string, string | number>;
  token?: string;
  ip?: string;
  locale?: string;
  headers?: Record<string, string>;
}

/** Checks an answer against the contract: a drifting server fails the test that saw it. A refused raw call answers with an envelope. */
function parseReply<R extends ApiRoute>(route: R, status: number, json: unknown): Reply<R> {
  if (route.shape === 'raw' && status < 300) return route.response.parse(json) as Reply<R>;
  const envelope = json as { code: number; message: string; data: unknown };
  if (typeof envelope?.code !== 'number' || typeof envelope.message !== 'string') throw new Error(`Not an envelope: ${JSON.stringify(json)}`);
  return { ...envelope, data: envelope.code === SUCCESS ? route.response.parse(envelope.data) : envelope.data } as Reply<R>;
}

/** How a call reaches the server: Fastify's inject in the test's process, or HTTP to a server in another. */
type Send = (request: {
  method: string;
  url: string;
  query?: Record<string, string>;
  headers: Record<string, string>;
  payload?: string;
  remoteAddress: string;
}) => Promise<{
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}>;

function caller(publicKey: CryptoKey, send: Send): TestApp['call'] {
  return async (route, options = {}) => {
    const sealer = route.encrypted ? await createSealer(publicKey) : null;
    // A plain GET call's request is its query string.
    const query = requestInQuery(route) ? (options.body as Record<string, string> | undefined) : undefined;
    const parts = await requestParts({ ...options, body: query ? undefined : options.body, locale: options.locale ?? 'en' }, sealer);
    const response = await send({
      method: route.method,
      url: `/api${pathOf(route.path, options.params)}`,
      query,
      headers: { ...parts.headers, ...options.headers },
      payload: parts.body,
      remoteAddress: options.ip ?? randomAddress(),
    });
    // A redirect's answer is where it sends the browser.
    if (route.shape === 'redirect' && response.statusCode >= 300 && response.statusCode < 400) {
      return { status: response.statusCode, body: response.headers.location as Reply<typeof route>, headers: response.headers };
    }
    const sealed = String(response.headers['content-type'] ?? '').startsWith(encryption.contentType);
    const text = sealed && sealer ? await sealer.open(response.body) : response.body;
    return { status: response.statusCode, body: parseReply(route, response.statusCode, JSON.parse(text)), headers: response.headers };
  };
}

export async function startApp(env: Record<string, string> = {}, options: BuildOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beacon-test-'));
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: await databaseUrl(), DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_DATA: 'false', ...env });
  const app = await buildApp(config, options);
  const publicSpki = await app.keys.keyring.publicSpki();
  return { app, publicSpki, call: await callerFor(app, publicSpki), close: () => app.close() };
}

/** Calls to an app in this process sealed for the given public key (base64 SPKI): a page holding the key it fetched before or after a rotation. */
export async function callerFor(app: FastifyInstance, publicSpki: string): Promise<TestApp['call']> {
  return caller(await importPublicKey(publicSpki), async (request) => {
    const response = await app.inject(request);
    return { statusCode: response.statusCode, headers: response.headers, body: response.body };
  });
}

/** Calls, sealed as the site seals them, to a server running in another process at `origin` (every call comes from loopback). */
export async function httpCaller(origin: string): Promise<TestApp['call']> {
  const key = (await (await fetch(`${origin}/api${system.publicKey.path}`)).json()) as { data: { Spki: string } };
  return caller(await importPublicKey(key.data.Spki), async (request) => {
    const url = new URL(`${origin}${request.url}`);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    const response = await fetch(url, { method: request.method, headers: request.headers, body: request.payload });
    return { statusCode: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  });
}

/**
 * An operators' command through the running app's loopback admin endpoint, as `npm run admin` sends it: the words parsed
 * here into the command's arguments (a UsageError for words it cannot take), files they name read on this side; the
 * envelope's code and data.
 */
export async function runAdmin<T = Record<string, unknown>>(t: TestApp, ...words: string[]): Promise<{ code: number; data: T }> {
  const found = findCommand(operatorCommands, words);
  if (!found) throw new UsageError(`unknown command "${words.join(' ')}"`);
  const read = t.app.adminCommands.get(found.command.name)?.readFiles?.(found.rest) ?? { rest: found.rest, attachment: null };
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/admin/run',
    remoteAddress: '127.0.0.1',
    headers: { 'x-admin-token': t.app.adminToken },
    payload: { command: found.command.name, args: checkArgs(found.command, found.command.words(read.rest)), attachment: read.attachment?.toString('base64') },
  });
  return response.json() as { code: number; data: T };
}

/**
 * `count` new users, each logged in on a device of their own, written straight
 * to the database in three statements: the cheap way to get the many logins a
 * race needs. Their access tokens authenticate exactly as a login's do.
 */
export async function loggedInUsers(
  t: TestApp,
  count: number,
  /** Each user's row beyond the defaults (a nickname of its own, an older `createdAt`). */
  row: (i: number) => Partial<typeof users.$inferInsert> = () => ({}),
): Promise<Array<{ userId: number; token: string }>> {
  const tag = randomBytes(4).toString('hex');
  const made = await t.app.db
    .insert(users)
    .values(Array.from({ length: count }, (_, i) => ({ nickname: `Player ${tag}-${i}`, ...row(i) })))
    .returning({ id: users.id });
  const opened = await t.app.db
    .insert(sessions)
    .values(made.map((user, i) => ({ userId: user.id, deviceId: `bulk-${tag}-${i}`, device: 'Test device' })))
    .returning({ id: sessions.id, userId: sessions.userId });
  const expiresAt = new Date(Date.now() + lifetimes.accessTokenMs);
  const minted = opened.map((session) => ({ userId: session.userId, sessionId: session.id, token: newOpaqueToken() }));
  await t.app.db.insert(tokens).values(minted.map(({ sessionId, token }) => ({ hash: hashOpaqueToken(token), sessionId, kind: 'access' as const, expiresAt })));
  return minted.map(({ userId, token }) => ({ userId, token }));
}

/** Waits for what the sandbox and the job queue do a moment later. */
export async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean, what: string): Promise<T> {
  for (let tries = 0; tries < 100; tries++) {
    const value = await read();
    if (holds(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
