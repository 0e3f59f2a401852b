/**
 * Uploaded files (avatars, raffle covers) through the real API routes, in either place they
 * may be kept: the uploads folder under DATA_DIR, and an S3-compatible bucket on s3rver (an
 * S3 implementation we did not write) — the same tests for both. Then storage that cannot
 * take a file: the folder on a real, tiny file system (tmpfs, mounted for the test) that
 * fills up, and buckets that are full, unreachable or too slow. An upload then answers in
 * the reader's language (507 no room, 503 unreachable), nothing half-written stays behind,
 * the old avatar is still shown, and the site keeps serving.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCalls } from '#contract/account.ts';
import { ErrorCode } from '#contract/errors.ts';
import { localeCodes } from '#contract/locales.ts';
import { raffleCalls } from '#contract/raffle.ts';
import { loadConfig } from '../../../server/config.ts';
import { raffles, users } from '../../../server/db/schema.ts';
import { startS3, type TestS3 } from '../../setup/s3.ts';
import { mountSmallDisk, type SmallDisk } from '../../setup/small-disk.ts';
import { loggedInUsers, runAdmin, startApp, type TestApp } from './harness.ts';

const noRoom = 'The server has no room to store your file right now, so nothing was changed. Please try again later.';
const unreachable = 'We cannot reach the file storage right now, so nothing was changed. Please try again in a moment.';

const image = (background: string, width = 300, height = 300) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
const upload = async (t: TestApp, token: string, background: string, locale?: string) =>
  t.call(accountCalls.uploadAvatar, { body: { Image: (await image(background)).toString('base64') }, token, locale });
/** The path part of a file's address (the API answers it under PUBLIC_API_ORIGIN when one is set). */
const pathOf = (url: string) => new URL(url, 'http://localhost').pathname;

/** A raffle definition file naming a cover beside it, as an operator writes them for `raffle create --file`. */
async function raffleFile(): Promise<{ file: string; remove: () => void }> {
  const folder = mkdtempSync(path.join(tmpdir(), 'beacon-cover-'));
  writeFileSync(path.join(folder, 'cover.png'), await image('#336699', 1600, 900));
  const everywhere = (text: string) => Object.fromEntries(localeCodes.map((locale) => [locale, text]));
  const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  const definition = {
    Kind: 'registration',
    Title: everywhere('Covered'),
    Description: everywhere('A raffle with a cover.'),
    Prizes: [{ Name: everywhere('CN¥5'), Quantity: 1, Grant: { Kind: 'wallet', Amount: 500 } }],
    OpensAt: at(-1),
    ClosesAt: at(1),
    DrawAt: at(2),
    PublicSource: everywhere('The next lottery draw'),
    Cover: 'cover.png',
  };
  writeFileSync(path.join(folder, 'raffle.json'), JSON.stringify(definition));
  return { file: path.join(folder, 'raffle.json'), remove: () => rmSync(folder, { recursive: true }) };
}

type RaffleAnswer = { raffle: { id: number } | null; refused: string | null };
const createRaffle = (t: TestApp, file: string) => runAdmin<RaffleAnswer>(t, 'raffle', 'create', '--file', file);

/** The folder keeps uploads in DATA_DIR; the bucket in s3rver. */
const places: Array<[string, () => Promise<TestS3>]> = [
  ['the uploads folder', async () => ({ settings: {}, stop: async () => {} })],
  ['an S3-compatible bucket', startS3],
];

describe.each(places)('uploads in %s', (place, start) => {
  let s3: TestS3;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await start();
    t = await startApp(s3.settings);
  });
  afterAll(async () => {
    await t.close();
    await s3.stop();
  });

  it('stores an avatar and serves it for good: its type, cache headers and ETag, 304 when the browser has it, 404 once replaced', async () => {
    const [{ userId, token }] = await loggedInUsers(t, 1);
    const first = await upload(t, token, '#aa3300');
    expect(first.body.code).toBe(200);
    const large = pathOf(first.body.data.AvatarUrl.large);
    expect(large).toMatch(/^\/api\/avatars\/[0-9a-f]{20}-256\.webp$/);

    const served = await t.app.inject({ url: large });
    expect(served.statusCode).toBe(200);
    expect(served.headers).toMatchObject({ 'content-type': 'image/webp', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(Number(served.headers['content-length'])).toBe(served.rawPayload.length);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });
    const etag = String(served.headers.etag);
    const again = await t.app.inject({ url: large, headers: { 'if-none-match': etag } });
    expect([again.statusCode, again.rawPayload.length]).toEqual([304, 0]);
    const head = await t.app.inject({ method: 'HEAD', url: large });
    expect([head.statusCode, head.headers['content-type'], head.rawPayload.length]).toEqual([200, 'image/webp', 0]);

    const next = await upload(t, token, '#0033aa');
    expect(next.body.code).toBe(200);
    expect((await t.app.inject({ url: pathOf(next.body.data.AvatarUrl.large) })).statusCode).toBe(200);
    // The old files, which no one shows any more, are gone.
    expect((await t.app.inject({ url: large })).statusCode).toBe(404);
    const [row] = await t.app.db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, userId));
    expect(pathOf(next.body.data.AvatarUrl.large)).toContain(row.avatarUrl.large);
  });

  it('serves a raffle cover the operators’ command stored', async () => {
    const { file, remove } = await raffleFile();
    const made = await createRaffle(t, file);
    expect(made.data.refused).toBeNull();
    const cover = (await t.call(raffleCalls.info, { params: { id: made.data.raffle!.id } })).body.data.Cover!;
    const served = await t.app.inject({ url: pathOf(cover) });
    expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'image/webp']);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 1200, height: 630 });
    remove();
  });

  it('answers 404 for a file it does not hold, and never asks the storage for a name it could not hold', async () => {
    for (const url of [
      '/api/avatars/0123456789abcdef0123-256.webp',
      '/api/avatars/..%2F..%2Fkeys%2Ftoken-secret',
      '/api/avatars/%2E%2E',
      '/api/avatars/.hidden',
      '/api/raffle-covers/..%5Cadmin.json',
      '/api/raffle-covers/a%00b.webp',
    ]) {
      const answer = await t.app.inject({ url });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json(), url).toMatchObject({ code: ErrorCode.NotFound, data: null });
    }
  });

  it('backs up the files with the database, or says the bucket keeps them', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'beacon-backup-'));
    const taken = await runAdmin<{ saved: { counts: { files: number }; uploadsBucket: string | null } }>(t, 'backup', path.join(folder, 'backup.tar.gz'));
    rmSync(folder, { recursive: true });
    if (place === 'an S3-compatible bucket') expect(taken.data.saved).toMatchObject({ counts: { files: 0 }, uploadsBucket: s3.settings.S3_BUCKET });
    else expect(taken.data.saved.uploadsBucket).toBeNull();
    if (place === 'the uploads folder') expect(taken.data.saved.counts.files).toBeGreaterThan(0);
  });
});

describe('the bucket settings', () => {
  const bucket = bucketAt('https://s3.oss-cn-hangzhou.aliyuncs.com');

  it('go together: a bucket half described stops the start, naming what is missing, rather than keep files on this host', () => {
    expect(() => loadConfig({ ...bucket, S3_SECRET_ACCESS_KEY: undefined })).toThrow(
      'required with S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_ENDPOINT, S3_FORCE_PATH_STYLE: the S3_* settings go together (docs/deploy.md, "Uploaded files")\n  → at S3_SECRET_ACCESS_KEY',
    );
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio.internal:9000' })).toThrow(
      /required with S3_ENDPOINT: [^\n]*\n {2}→ at S3_BUCKET\n[^\n]*\n {2}→ at S3_REGION\n[^\n]*\n {2}→ at S3_ACCESS_KEY_ID\n[^\n]*\n {2}→ at S3_SECRET_ACCESS_KEY$/,
    );
    expect(() => loadConfig({ ...bucket, S3_BUCKET: 'Not_A_Bucket' })).toThrow(
      'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens\n  → at S3_BUCKET',
    );
    expect(() => loadConfig({ ...bucket, S3_ENDPOINT: 'ftp://files.example.com' })).toThrow('Invalid URL\n  → at S3_ENDPOINT');
    expect(loadConfig(bucket)).toMatchObject({ S3_BUCKET: 'beacon-uploads', S3_FORCE_PATH_STYLE: true, S3_TIMEOUT_MS: 5000 });
    expect(loadConfig({}).S3_BUCKET).toBeUndefined();
  });
});

describe('two instances with a DATA_DIR each and one bucket', () => {
  it('serve on one the avatar uploaded through the other', async () => {
    const s3 = await startS3();
    const [one, other] = await Promise.all([startApp(s3.settings), startApp(s3.settings)]);
    try {
      expect(one.app.config.DATA_DIR).not.toBe(other.app.config.DATA_DIR);
      const [{ token }] = await loggedInUsers(one, 1);
      const uploaded = await upload(one, token, '#118844');
      const served = await other.app.inject({ url: pathOf(uploaded.body.data.AvatarUrl.large) });
      expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'image/webp']);
    } finally {
      await Promise.all([one.close(), other.close()]);
      await s3.stop();
    }
  });
});

/** An S3 error answer, as the service sends it. */
const s3Error = (code: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${code}</Message><RequestId>test</RequestId><HostId>test</HostId></Error>`;

/** A bucket endpoint that answers every request with `status` and the error `code`. */
async function refusingBucket(status: number, code: string): Promise<{ server: HttpServer; endpoint: string }> {
  const server = createHttpServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status, { 'content-type': 'application/xml' }).end(s3Error(code)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, endpoint: `http://127.0.0.1:${port}` };
}

/** A bucket endpoint where nothing listens: connections are refused. */
async function closedPort(): Promise<{ server: { close(): void }; endpoint: string }> {
  const { server, endpoint } = await refusingBucket(500, 'InternalError');
  await new Promise((resolve) => server.close(resolve));
  return { server: { close: () => {} }, endpoint };
}

/** A bucket endpoint that takes connections and never answers. */
async function silentBucket(): Promise<{ server: TcpServer; sockets: Set<Socket>; endpoint: string }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, sockets, endpoint: `http://127.0.0.1:${port}` };
}

const bucketAt = (endpoint: string, more: Record<string, string> = {}) => ({
  S3_BUCKET: 'beacon-uploads',
  S3_REGION: 'us-east-1',
  S3_ENDPOINT: endpoint,
  S3_FORCE_PATH_STYLE: 'true',
  S3_ACCESS_KEY_ID: 'test-key',
  S3_SECRET_ACCESS_KEY: 'test-secret',
  ...more,
});

describe('a bucket that fails', () => {
  it.each([
    [507, 'XMinioStorageFull'],
    [400, 'XMinioAdminBucketQuotaExceeded'],
    [403, 'QuotaExceeded'],
  ])('that is full (%i %s) is told as a full disk is: 507, nothing changed', async (status, code) => {
    const bucket = await refusingBucket(status, code);
    const t = await startApp(bucketAt(bucket.endpoint));
    try {
      const [{ userId, token }] = await loggedInUsers(t, 1);
      const refused = await upload(t, token, '#aa3300');
      expect(refused.status).toBe(507);
      expect(refused.body).toMatchObject({ code: ErrorCode.StorageFull, message: noRoom, data: null });
      const [row] = await t.app.db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, userId));
      expect(row.avatarUrl).toEqual({});
    } finally {
      await t.close();
      bucket.server.close();
    }
  });

  it.each([
    ['answers 500', () => refusingBucket(500, 'InternalError')],
    ['takes no connection', closedPort],
  ])('that %s answers uploads and files with 503 in the reader’s language, and the rest of the site serves', async (_, start) => {
    const bucket = await start();
    const t = await startApp(bucketAt(bucket.endpoint));
    try {
      const [{ token }] = await loggedInUsers(t, 1);
      const refused = await upload(t, token, '#aa3300');
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: ErrorCode.Unavailable, message: unreachable, data: null });
      const ja = await upload(t, token, '#aa3300', 'ja');
      expect(ja.body.message).toBe('現在、ファイルの保存先に接続できないため、何も変更されていません。しばらくしてから、もう一度お試しください。');
      const file = await t.app.inject({ url: '/api/avatars/0123456789abcdef0123-256.webp', headers: { 'accept-language': 'en' } });
      expect(file.statusCode).toBe(503);
      expect(file.json()).toMatchObject({ code: ErrorCode.Unavailable, message: unreachable });
      expect((await t.call(accountCalls.updateNickname, { body: { NickName: 'Still here' }, token })).status).toBe(200);
      const { file: definition, remove } = await raffleFile();
      expect((await createRaffle(t, definition)).data).toMatchObject({ raffle: null, refused: unreachable });
      expect(await t.app.db.select().from(raffles)).toEqual([]);
      remove();
    } finally {
      await t.close();
      bucket.server.close();
    }
  });

  it('that never answers is given up on at S3_TIMEOUT_MS: the upload answers 503, not a request held', async () => {
    const bucket = await silentBucket();
    const t = await startApp(bucketAt(bucket.endpoint, { S3_TIMEOUT_MS: '1000' }));
    try {
      const [{ token }] = await loggedInUsers(t, 1);
      const started = Date.now();
      const refused = await upload(t, token, '#aa3300');
      expect(refused.status).toBe(503);
      expect(refused.body.message).toBe(unreachable);
      const file = await t.app.inject({ url: '/api/avatars/0123456789abcdef0123-256.webp' });
      expect(file.statusCode).toBe(503);
      // Each waited on the bucket for the timeout, and not much longer.
      expect(Date.now() - started).toBeLessThan(3_500);
    } finally {
      await t.close();
      for (const socket of bucket.sockets) socket.destroy();
      bucket.server.close();
    }
  });
});

/** Every file under the uploads folder but the disk's filler, by its path there. */
const storedFiles = (uploads: string) =>
  readdirSync(uploads, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== '.filler')
    .map((entry) => path.relative(uploads, path.join(entry.parentPath, entry.name)))
    .sort();

describe('a full uploads disk', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beacon-full-disk-'));
  const uploads = path.join(dataDir, 'uploads');
  let disk: SmallDisk | null;
  let t: TestApp;

  beforeAll(async () => {
    disk = mountSmallDisk(uploads, '256k');
    if (disk) t = await startApp({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await t?.close();
    disk?.unmount();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses an avatar with 507 in the reader’s language, keeps the old one and leaves nothing behind', async (context) => {
    if (!disk) return context.skip('mounting a small file system needs root');
    const [{ userId, token }] = await loggedInUsers(t, 1);
    const first = await upload(t, token, '#aa3300');
    expect(first.body.code).toBe(200);
    const shown = pathOf(first.body.data.AvatarUrl.large);
    const before = storedFiles(uploads);

    disk.fill();
    const refused = await upload(t, token, '#0033aa');
    expect(refused.status).toBe(507);
    expect(refused.body).toMatchObject({ code: ErrorCode.StorageFull, message: noRoom, data: null });
    // Each language says it in its own words.
    const told = await Promise.all(localeCodes.map((locale) => upload(t, token, '#0033aa', locale)));
    expect(told.map((answer) => answer.status)).toEqual(localeCodes.map(() => 507));
    expect(new Set(told.map((answer) => answer.body.message)).size).toBe(localeCodes.length);
    // No temporary file, no part of the new avatar; the row still names the old one, which is still served.
    expect(storedFiles(uploads)).toEqual(before);
    const [row] = await t.app.db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, userId));
    expect(Object.values(row.avatarUrl).map((name) => `avatars/${name}`)).toEqual(expect.arrayContaining(before));
    expect((await t.app.inject({ url: shown })).statusCode).toBe(200);
    // The site keeps serving what needs no room.
    expect((await t.call(accountCalls.updateNickname, { body: { NickName: 'Still here' }, token })).status).toBe(200);

    // With room again, the same upload works.
    disk.free();
    const after = await upload(t, token, '#0033aa');
    expect(after.body.code).toBe(200);
    expect(pathOf(after.body.data.AvatarUrl.large)).not.toBe(shown);
  });

  it('refuses a raffle cover, saying so, and makes no raffle', async (context) => {
    if (!disk) return context.skip('mounting a small file system needs root');
    const { file, remove } = await raffleFile();
    const before = storedFiles(uploads);
    disk.fill();
    expect((await createRaffle(t, file)).data).toMatchObject({ raffle: null, refused: noRoom });
    expect(await t.app.db.select().from(raffles)).toEqual([]);
    expect(storedFiles(uploads)).toEqual(before);
    expect((await t.call(raffleCalls.list, { params: { a: 1, b: 10 } })).status).toBe(200);

    disk.free();
    const made = await createRaffle(t, file);
    expect(made.data.refused).toBeNull();
    const cover = (await t.call(raffleCalls.info, { params: { id: made.data.raffle!.id } })).body.data.Cover!;
    expect((await t.app.inject({ url: pathOf(cover) })).statusCode).toBe(200);
    remove();
  });
});
