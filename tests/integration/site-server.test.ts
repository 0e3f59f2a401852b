/** The one-process server's static side: pretty URLs, 404 pages by locale, cache headers, no escapes. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';

const root = mkdtempSync(path.join(tmpdir(), 'site-'));
const files: Record<string, string> = {
  'index.html': 'home zh',
  'en/index.html': 'home en',
  'en/download/index.html': 'download en',
  'not-found/index.html': 'not found zh',
  'en/not-found/index.html': 'not found en',
  'account/not-found/index.html': 'account not found zh',
  'en/account/not-found/index.html': 'account not found en',
  'en/raffle/index.html': 'raffle en',
  '_astro/app.abc123.js': 'console.log(1)',
  'en/article/rss.xml': '<rss/>',
  // Made by site/precompress.ts at build time (here: stand-ins that tell which file was sent).
  'en/download/index.html.br': 'download en, brotli',
  'en/download/index.html.gz': 'download en, gzip',
};
let app: FastifyInstance;

beforeAll(async () => {
  for (const [file, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), body);
  }
  // A database of its own in memory: the default folder (./data/db, with demo data) is the developer's, and making it
  // on a fresh clone is slow enough to miss the hook's time on a busy machine.
  app = await buildApp(
    loadConfig({
      SITE_DIR: root,
      LOG_LEVEL: 'silent',
      DATABASE_URL: 'memory://',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'site-data-')),
      DEMO_DATA: 'false',
    }),
  );
});

afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url });

describe('static site', () => {
  it('serves folder pages with and without a trailing slash', async () => {
    for (const url of ['/en/download', '/en/download/']) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('download en');
      expect(response.headers['content-type']).toContain('text/html');
    }
    expect((await get('/')).body).toBe('home zh');
    expect((await get('/en')).body).toBe('home en');
  });

  it('keeps hashed assets forever and makes HTML revalidate', async () => {
    expect((await get('/_astro/app.abc123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/en/download')).headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect((await get('/en/article/rss.xml')).headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  it('answers unknown paths with 404 and the not-found page of their locale', async () => {
    const en = await get('/en/missing');
    expect(en.statusCode).toBe(404);
    expect(en.body).toBe('not found en');
    expect(en.headers['cache-control']).toBe('no-store');
    expect((await get('/missing/deeper')).body).toBe('not found zh');
  });

  it('uses the account centre’s not-found page under /account', async () => {
    expect((await get('/en/account/center/missing')).body).toBe('account not found en');
    expect((await get('/account/x')).body).toBe('account not found zh');
  });

  it('shows the raffle page for any path below /raffle/', async () => {
    const response = await get('/en/raffle/2026-anniversary');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('raffle en');
  });

  it('never leaves the site folder', async () => {
    for (const url of ['/../package.json', '/%2e%2e/package.json', '/en/..%2f..%2fetc%2fpasswd', '/%00']) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('sends the pre-compressed copy a browser accepts, and the plain file to others', async () => {
    const withEncoding = (encoding: string) => app.inject({ method: 'GET', url: '/en/download', headers: { 'accept-encoding': encoding } });
    const brotli = await withEncoding('gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.body).toBe('download en, brotli');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await withEncoding('gzip')).body).toBe('download en, gzip');
    const plain = await withEncoding('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('download en');
  });

  it('refuses methods other than GET and HEAD on pages', async () => {
    const response = await app.inject({ method: 'POST', url: '/en/download', payload: {} });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/en/download' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });
});

describe('configuration', () => {
  it('rejects a bad port with a clear message', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/Invalid configuration[\s\S]*PORT/);
  });

  it('defaults to port 4321 and the dist folder', () => {
    expect(loadConfig({})).toMatchObject({ PORT: 4321, SITE_DIR: 'dist' });
  });
});
