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
import { pathOf, type ApiRoute } from '../../../contract/api.ts';
import { encryption } from '../../../contract/crypto.ts';
import { buildApp } from '../../../server/app.ts';
import { loadConfig } from '../../../server/config.ts';
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

export interface TestApp {
  app: FastifyInstance;
  call(route: ApiRoute, options?: CallOptions): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  params?: Record<string, string | number>;
  token?: string;
  ip?: string;
  locale?: string;
}

export async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beacon-test-'));
  const config = loadConfig({ DATABASE_URL: await databaseUrl(), DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_DATA: 'false', ...env });
  const app = await buildApp(config);
  const publicKey = await importPublicKey(app.keys.publicSpki);

  return {
    app,
    async call(route, options = {}) {
      const sealer = route.encrypted ? await createSealer(publicKey) : null;
      const { headers, body: payload } = await requestParts({ ...options, locale: options.locale ?? 'en' }, sealer);
      const response = await app.inject({ method: route.method, url: `/api${pathOf(route.path, options.params)}`, headers, payload, remoteAddress: options.ip ?? randomAddress() });
      const sealed = String(response.headers['content-type'] ?? '').startsWith(encryption.contentType);
      const text = sealed && sealer ? await sealer.open(response.body) : response.body;
      return { status: response.statusCode, body: JSON.parse(text), headers: response.headers };
    },
    close: () => app.close(),
  };
}
