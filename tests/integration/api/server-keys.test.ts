/**
 * The server keys in the database, sealed with KEYS_SEALING_KEY: instances
 * with DATA_DIRs of their own share one secret and one keyring, agree on one
 * set when they first start at once, and see a rotation made by any process; a
 * deployment moving from `DATA_DIR/keys` keeps its secret (so its cdkeys and
 * tokens); a wrong sealing key, or none, stops the start and changes nothing.
 * The sealed rows are opened with WebCrypto's AES-GCM, an implementation this
 * project did not write (`openssl enc` does not do GCM). On PGlite, and on
 * PostgreSQL with TEST_POSTGRES_URL (the apps running side by side only there:
 * one process holds a PGlite database).
 */
import { execFile } from 'node:child_process';
import { constants, createHash, createPrivateKey, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerKeyInUse } from '#contract/admin.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { identity, system } from '#contract/identity.ts';
import { loadConfig } from '../../../server/config.ts';
import { openKey } from '../../../server/crypto/key-sealing.ts';
import { openKeyTable } from '../../../server/crypto/key-table.ts';
import { Keyring, keyRotationWindowMs } from '../../../server/crypto/keyring.ts';
import { loadKeys, type ServerKeys } from '../../../server/crypto/keys.ts';
import { signToken, verifyToken } from '../../../server/crypto/signed.ts';
import type { Database } from '../../../server/db/database.ts';
import { openDatabase } from '../../../server/db/open.ts';
import { serverKeys } from '../../../server/db/schema.ts';
import { readAdminFile, writeAdminFile } from '../../../server/modules/admin/admin-file.ts';
import { StartupError } from '../../../server/startup-error.ts';
import { loginBySms } from './codes.ts';
import { callerFor, databaseUrl, runAdmin, startApp, type TestApp } from './harness.ts';

const onPostgres = Boolean(process.env.TEST_POSTGRES_URL);
const sealingKeyHex = randomBytes(32).toString('hex');
const sealingKey = Buffer.from(sealingKeyHex, 'hex');
const newDataDir = () => mkdtempSync(path.join(tmpdir(), 'beacon-keys-'));

/** A database apps can open one after the other: a new one on PostgreSQL, a new PGlite folder otherwise. */
const sharedDatabaseUrl = async () => (onPostgres ? databaseUrl() : `file://${path.join(newDataDir(), 'db')}`);

/** Connections to one new database as separate instances hold them: pools of their own on PostgreSQL, PGlite's one connection shared. */
async function connections(count: number): Promise<{ dbs: Database[]; close(): Promise<void> }> {
  const url = await databaseUrl();
  const first = await openDatabase(url);
  const others = onPostgres ? await Promise.all(Array.from({ length: count - 1 }, () => openDatabase(url, { migrate: false }))) : [];
  return {
    dbs: onPostgres ? [first, ...others].map((opened) => opened.db) : Array.from({ length: count }, () => first.db),
    close: async () => {
      for (const opened of [first, ...others]) await opened.close();
    },
  };
}

/** The rows as they are stored, by name. */
const rowsOf = async (db: Database) =>
  Object.fromEntries(
    (await db.select({ name: serverKeys.name, sealed: serverKeys.sealed }).from(serverKeys).orderBy(asc(serverKeys.name))).map((row) => [
      row.name,
      row.sealed.toString('hex'),
    ]),
  );

/** A fresh AES key wrapped for a public key (base64 SPKI), as a page seals a call. */
function wrappedFor(publicSpki: string): { aesKey: Buffer; hex: string } {
  const aesKey = randomBytes(32);
  const key = createPublicKey({ key: Buffer.from(publicSpki, 'base64'), format: 'der', type: 'spki' });
  return { aesKey, hex: publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, aesKey).toString('hex') };
}

const fingerprint = (spki: string) => createHash('sha256').update(Buffer.from(spki, 'base64')).digest('hex');

const root = path.resolve(import.meta.dirname, '../../..');

const spkiOfPem = (pem: string) => createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'der' }).toString('base64');

describe('moving a deployment’s keys from DATA_DIR/keys into the database, one start after another', () => {
  const dataDir = newDataDir();
  let shared: { DATABASE_URL: string; DATA_DIR: string };
  const before: { secret?: Buffer; current?: string; retired?: string; cdkeys?: string[]; hubToken?: string } = {};

  beforeAll(async () => {
    shared = { DATABASE_URL: await sharedDatabaseUrl(), DATA_DIR: dataDir };
    // The deployment as it ran until now: keys in its folder, a rotation made, cdkeys handed out, a customer logged in.
    const t = await startApp(shared);
    try {
      before.retired = t.publicSpki;
      expect((await runAdmin(t, 'keys', 'rotate')).code).toBe(SUCCESS);
      before.current = (await t.call(system.publicKey)).body.data.Spki;
      before.secret = t.app.keys.secret;
      before.cdkeys = (await runAdmin<{ keys: string[] }>(t, 'cdkey', 'create', '--batch', 'moved', '--count', '3', '--grants', 'wallet:500')).data.keys;
      const login = await loginBySms(t, '13912345601', 'moving-in');
      before.hubToken = (await t.call(identity.hubToken, { token: login.AccessToken })).body.data!.AccessToken;
    } finally {
      await t.close();
    }
  });

  it('moves them in at the first start with KEYS_SEALING_KEY: cdkeys, tokens and calls sealed for the keys of before stay good', async () => {
    const steps: string[] = [];
    const t = await startApp(
      { ...shared, KEYS_SEALING_KEY: sealingKeyHex, LOG_LEVEL: 'info' },
      { logStream: { write: (line) => steps.push(JSON.parse(line).msg) } },
    );
    try {
      expect(steps).toContainEqual(expect.stringMatching(/^Moving the server's keys from .* into the database/));
      expect(t.app.keys.secret).toEqual(before.secret);
      expect(t.publicSpki).toBe(before.current);
      expect(Object.keys(await rowsOf(t.app.db))).toEqual(['rsa-current', expect.stringMatching(/^rsa-retired-\d+$/), 'token-secret']);
      // cdkeys are derived from the secret: the batch's unused keys are the ones handed out.
      expect((await runAdmin<{ keys: string[] }>(t, 'cdkey', 'export', 'moved')).data.keys).toEqual(before.cdkeys);
      expect(verifyToken(t.app.keys.secret, 'hub', before.hubToken!)).not.toBeNull();
      // A page still holding the key retired before the move: its call opens.
      expect((await (await callerFor(t.app, before.retired!))(system.publicKey)).body.code).toBe(SUCCESS);
      expect((await t.app.keys.keyring.unwrapKey(wrappedFor(before.retired!).hex)).symmetricKeySize).toBe(32);
    } finally {
      await t.close();
    }
  });

  it('gives an instance with a DATA_DIR of its own (no keys folder) the same keys', async () => {
    const t = await startApp({ DATABASE_URL: shared.DATABASE_URL, KEYS_SEALING_KEY: sealingKeyHex });
    try {
      expect(t.app.keys.secret).toEqual(before.secret);
      expect(t.publicSpki).toBe(before.current);
      expect((await runAdmin<{ keys: string[] }>(t, 'cdkey', 'export', 'moved')).data.keys).toEqual(before.cdkeys);
      expect(existsSync(path.join(t.app.config.DATA_DIR, 'keys'))).toBe(false);
    } finally {
      await t.close();
    }
    // So nothing may have made DATA_DIR before a server tells the operators' command where it listens.
    const notMade = path.join(newDataDir(), 'data');
    writeAdminFile(notMade, { port: 4321, token: 'a-token', database: 'a-database' });
    expect(readAdminFile(notMade)?.port).toBe(4321);
  });

  it(
    'lets the operators’ command rotate them from a process of its own, and tells it plainly when its sealing key is wrong',
    { timeout: 120_000 },
    async () => {
      const run = async (env: Record<string, string>, ...words: string[]) => {
        try {
          const { stdout, stderr } = await promisify(execFile)(path.join(root, 'node_modules/.bin/node'), ['server/cli/admin.ts', ...words], {
            cwd: root,
            env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: shared.DATABASE_URL, DATA_DIR: newDataDir(), ...env },
          });
          return { code: 0, stdout, stderr };
        } catch (error) {
          return error as { code: number; stdout: string; stderr: string };
        }
      };
      const wrong = await run({ KEYS_SEALING_KEY: randomBytes(32).toString('hex') }, 'keys', 'rotate');
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toMatch(/^KEYS_SEALING_KEY does not open the server key "[\w-]+" in the database/m);
      expect(wrong.stderr).not.toMatch(/^\s+at /m);

      const rotated = await run({ KEYS_SEALING_KEY: sealingKeyHex }, 'keys', 'rotate', '--json');
      expect(rotated.code).toBe(0);
      const keys = (JSON.parse(rotated.stdout) as { keys: ServerKeyInUse[] }).keys;
      expect(keys).toHaveLength(3);
      const t = await startApp({ DATABASE_URL: shared.DATABASE_URL, KEYS_SEALING_KEY: sealingKeyHex });
      try {
        expect(fingerprint(t.publicSpki)).toBe(keys[0].fingerprint);
        expect(keys.slice(1).map((key) => key.fingerprint)).toEqual([fingerprint(before.current!), fingerprint(before.retired!)]);
        expect((await (await callerFor(t.app, before.current!))(system.publicKey)).body.code).toBe(SUCCESS);
      } finally {
        await t.close();
      }
    },
  );

  // As the keys plugin of a starting app loads them (a start that fails leaves its database open in this process, and a PGlite folder locked).
  it('refuses to start with another KEYS_SEALING_KEY, with none, or beside a keys folder of another secret, and changes no row', async () => {
    const database = await openDatabase(shared.DATABASE_URL);
    try {
      const stored = await rowsOf(database.db);
      const otherKey = loadConfig({ KEYS_SEALING_KEY: randomBytes(32).toString('base64') }).KEYS_SEALING_KEY;
      const wrongKey = loadKeys({ DATA_DIR: newDataDir(), KEYS_SEALING_KEY: otherKey }, database.db);
      await expect(wrongKey).rejects.toThrow(StartupError);
      await expect(wrongKey).rejects.toThrow(/KEYS_SEALING_KEY does not open the server key "[\w-]+" in the database .*sealed with another KEYS_SEALING_KEY/);

      const withoutKey = newDataDir();
      await expect(loadKeys({ DATA_DIR: withoutKey, KEYS_SEALING_KEY: undefined }, database.db)).rejects.toThrow(
        /sealed with KEYS_SEALING_KEY, which is not set/,
      );
      expect(existsSync(path.join(withoutKey, 'keys'))).toBe(false);

      const otherFolder = newDataDir();
      mkdirSync(path.join(otherFolder, 'keys'));
      writeFileSync(path.join(otherFolder, 'keys', 'token-secret'), randomBytes(32).toString('hex'));
      await expect(loadKeys({ DATA_DIR: otherFolder, KEYS_SEALING_KEY: sealingKey }, database.db)).rejects.toThrow(
        /token-secret is not the secret the database holds/,
      );

      expect(await rowsOf(database.db)).toEqual(stored);
    } finally {
      await database.close();
    }
  });
});

describe('instances on one database', () => {
  const config = () => ({ DATA_DIR: newDataDir(), KEYS_SEALING_KEY: sealingKey });

  it('agree on one secret and one key pair when they first start at once', async () => {
    const { dbs, close } = await connections(3);
    try {
      const started: ServerKeys[] = await Promise.all(dbs.map((db) => loadKeys(config(), db)));
      const spkis = await Promise.all(started.map((keys) => keys.keyring.publicSpki()));
      expect(new Set(spkis).size).toBe(1);
      for (const keys of started) expect(keys.secret).toEqual(started[0].secret);
      expect(Object.keys(await rowsOf(dbs[0]))).toEqual(['rsa-current', 'token-secret']);
    } finally {
      await close();
    }
  });

  it('see a rotation made by any of them, open what was sealed for the old key during its window, and drop it after', async () => {
    const { dbs, close } = await connections(2);
    try {
      let clock = Date.now();
      const now = () => clock;
      await loadKeys(config(), dbs[0]);
      const a = await Keyring.open((await openKeyTable(dbs[0], sealingKey, newDataDir())).store, { now });
      const b = await Keyring.open((await openKeyTable(dbs[1], sealingKey, newDataDir())).store, { now });
      const old = await b.publicSpki();
      const sealedBefore = wrappedFor(old);

      const rotatedAt = clock;
      const rotation = await a.rotate();
      expect(rotation.removed).toBe(0);
      expect(rotation.keys.map((key) => key.acceptedUntil)).toEqual([null, rotatedAt + keyRotationWindowMs]);
      // B did nothing: a call sealed for the new key is its first news of it.
      const fresh = await a.publicSpki();
      expect(fresh).not.toBe(old);
      const sealedAfter = wrappedFor(fresh);
      expect((await b.unwrapKey(sealedAfter.hex)).export()).toEqual(sealedAfter.aesKey);
      expect(await b.publicSpki()).toBe(fresh);
      expect((await b.unwrapKey(sealedBefore.hex)).export()).toEqual(sealedBefore.aesKey);

      clock = rotatedAt + keyRotationWindowMs;
      await expect(b.unwrapKey(sealedBefore.hex)).rejects.toThrow();
      const next = await b.rotate();
      expect(next.removed).toBe(1);
      expect(Object.keys(await rowsOf(dbs[0]))).toEqual(['rsa-current', `rsa-retired-${clock}`, 'token-secret']);
    } finally {
      await close();
    }
  });

  it('keep them sealed with AES-256-GCM as WebCrypto opens it, each row bound to its name', async () => {
    const { dbs, close } = await connections(1);
    try {
      const keys = await loadKeys(config(), dbs[0]);
      const rows = Object.fromEntries((await dbs[0].select().from(serverKeys)).map((row) => [row.name, row.sealed]));
      // WebCrypto takes plain Uint8Arrays (over an ArrayBuffer of their own), not Node's Buffers.
      const bytes = (from: Buffer | string) => new Uint8Array(Buffer.from(from));
      const key = await crypto.subtle.importKey('raw', bytes(sealingKey), 'AES-GCM', false, ['encrypt', 'decrypt']);
      const open = async (sealed: Buffer, name: string) =>
        Buffer.from(
          await crypto.subtle.decrypt(
            { name: 'AES-GCM', iv: bytes(sealed.subarray(0, 12)), additionalData: bytes(name), tagLength: 128 },
            key,
            bytes(sealed.subarray(12)),
          ),
        );

      expect(await open(rows['token-secret'], 'token-secret')).toEqual(keys.secret);
      expect(spkiOfPem((await open(rows['rsa-current'], 'rsa-current')).toString('utf8'))).toBe(await keys.keyring.publicSpki());
      // Nothing in the clear, and a row opens under its own name only (rows swapped in the table do not open).
      expect(rows['token-secret'].includes(keys.secret)).toBe(false);
      await expect(open(rows['token-secret'], 'rsa-current')).rejects.toThrow();
      await expect(open(rows['rsa-current'], 'token-secret')).rejects.toThrow();
      // And what WebCrypto seals, the server opens.
      const iv = randomBytes(12);
      const sealed = Buffer.concat([
        iv,
        Buffer.from(
          await crypto.subtle.encrypt({ name: 'AES-GCM', iv: bytes(iv), additionalData: bytes('rsa-retired-1'), tagLength: 128 }, key, bytes('hello')),
        ),
      ]);
      expect(openKey(sealingKey, 'rsa-retired-1', sealed).toString()).toBe('hello');
      expect(() => openKey(sealingKey, 'rsa-retired-2', sealed)).toThrow(StartupError);
    } finally {
      await close();
    }
  });
});

describe.runIf(onPostgres)('two apps with DATA_DIRs of their own on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const databaseUrlOfBoth = await databaseUrl();
    // Started at once on a new database: they must agree on one set of keys.
    [a, b] = await Promise.all([0, 1].map(() => startApp({ DATABASE_URL: databaseUrlOfBoth, KEYS_SEALING_KEY: sealingKeyHex })));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('agree on one set of keys although they first started at once', async () => {
    expect(a.app.config.DATA_DIR).not.toBe(b.app.config.DATA_DIR);
    expect(b.publicSpki).toBe(a.publicSpki);
    expect(b.app.keys.secret).toEqual(a.app.keys.secret);
    expect(Object.keys(await rowsOf(a.app.db))).toEqual(['rsa-current', 'token-secret']);
  });

  it('take each other’s tokens, sealed calls and cdkeys', async () => {
    const login = await loginBySms(a, '13912345611', 'two-apps');
    const hubToken = (await a.call(identity.hubToken, { token: login.AccessToken })).body.data!.AccessToken;
    expect(verifyToken(b.app.keys.secret, 'hub', hubToken)?.sub).toBe(login.User.Id);
    expect(verifyToken(a.app.keys.secret, 'hub', signToken(b.app.keys.secret, 'hub', { sub: 7, exp: Date.now() + 60_000 }))?.sub).toBe(7);
    // A page that fetched A's key calls B.
    expect((await (await callerFor(b.app, a.publicSpki))(identity.sessions, { token: login.AccessToken })).body.code).toBe(SUCCESS);
    const made = (await runAdmin<{ keys: string[] }>(a, 'cdkey', 'create', '--batch', 'two-apps', '--count', '2', '--grants', 'wallet:500')).data.keys;
    expect((await runAdmin<{ keys: string[] }>(b, 'cdkey', 'export', 'two-apps')).data.keys).toEqual(made);
  });

  it('both serve the new key after keys rotate on one, and open calls sealed for the old one', async () => {
    const old = a.publicSpki;
    const rotation = await runAdmin<{ keys: ServerKeyInUse[] }>(a, 'keys', 'rotate');
    expect(rotation.code).toBe(SUCCESS);
    const fresh = (await b.call(system.publicKey)).body.data.Spki;
    expect(fresh).not.toBe(old);
    expect((await a.call(system.publicKey)).body.data.Spki).toBe(fresh);
    expect(rotation.data.keys.map((key) => key.acceptedUntil === null)).toEqual([true, false]);
    const login = await loginBySms(b, '13912345612', 'two-apps-rotate');
    for (const t of [a, b]) {
      for (const spki of [old, fresh]) expect((await (await callerFor(t.app, spki))(identity.sessions, { token: login.AccessToken })).body.code).toBe(SUCCESS);
    }
  });
});

describe('KEYS_SEALING_KEY', () => {
  const base = { NODE_ENV: 'test', DATABASE_URL: 'memory://' };

  it('takes 32 bytes as 64 hex digits or base64', () => {
    const bytes = randomBytes(32);
    expect(loadConfig({ ...base, KEYS_SEALING_KEY: bytes.toString('hex') }).KEYS_SEALING_KEY).toEqual(bytes);
    expect(loadConfig({ ...base, KEYS_SEALING_KEY: bytes.toString('hex').toUpperCase() }).KEYS_SEALING_KEY).toEqual(bytes);
    expect(loadConfig({ ...base, KEYS_SEALING_KEY: bytes.toString('base64') }).KEYS_SEALING_KEY).toEqual(bytes);
    expect(loadConfig(base).KEYS_SEALING_KEY).toBeUndefined();
  });

  it('refuses anything else, saying how to make one', () => {
    for (const wrong of [
      '',
      'fill-in',
      randomBytes(16).toString('hex'),
      randomBytes(33).toString('hex'),
      randomBytes(31).toString('base64'),
      `${'g'.repeat(64)}`,
    ])
      expect(() => loadConfig({ ...base, KEYS_SEALING_KEY: wrong })).toThrow(/openssl rand -hex 32`\n.*at KEYS_SEALING_KEY/);
  });
});
