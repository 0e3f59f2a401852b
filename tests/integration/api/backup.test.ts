/**
 * Backups that restore: a server on a PGlite folder with users, orders paid by
 * wallet and by WeChat Pay, a wallet recharge, raffles with registrations and
 * uploaded files; `npm run admin -- backup` through that server while
 * customers keep registering and paying; `restore` into a new folder; then the
 * rows and files of both compared — exactly for what the load left alone, and
 * for what it wrote, whole transactions or none. And what both commands refuse.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { asc } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCalls } from '#contract/account.ts';
import { activationCalls } from '#contract/activation.ts';
import type { ResultOf } from '#contract/command.ts';
import type { adminCommands } from '#contract/commands/admin.ts';
import { commerceCalls } from '#contract/commerce.ts';
import { paymentSandbox } from '#contract/dev.ts';
import { localeCodes } from '#contract/locales.ts';
import { raffleCalls, type LocalizedText } from '#contract/raffle.ts';
import { backupCommands } from '../../../server/modules/admin/backup.ts';
import type { Database } from '../../../server/db/database.ts';
import { readBackupFile, restoreInto, takeSnapshot, writeBackupFile } from '../../../server/db/backup.ts';
import { openDatabase, type OpenDatabase } from '../../../server/db/open.ts';
import type { RaffleDefinition } from '#contract/raffle.ts';
import { orderEvents, orders, payments, products, raffleEntries, raffles, users, walletLedger, wallets } from '../../../server/db/schema.ts';
import { databaseFingerprint, writeAdminFile } from '../../../server/modules/admin/admin-file.ts';
import { demoProducts } from '../../../server/modules/commerce/catalogue.ts';
import { changeBalance } from '../../../server/modules/commerce/wallet.ts';
import { tar, untar } from '../../../server/db/tar.ts';
import { folderUploads } from '../../../server/services/file-store.ts';
import { loginBySms } from './codes.ts';
import { loggedInUsers, runAdmin, startApp, type TestApp } from './harness.ts';
import { shellActor } from '../../../server/db/audit.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(path.join(tmpdir(), 'beacon-backup-'));
const dataDir = path.join(work, 'data');
const databaseUrl = `file://${path.join(dataDir, 'db')}`;
const cliEnv = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };

/** The real CLI in its own process, which the server in this one answers. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(path.join(root, 'node_modules/.bin/node'), ['server/cli/admin.ts', ...args], {
      cwd: root,
      env: cliEnv,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** `--json`'s answer of a command that succeeded. */
async function cliJson<C extends 'backup' | 'restore'>(command: C, ...args: string[]): Promise<ResultOf<(typeof adminCommands)[C]>> {
  const answer = await cli(command, ...args, '--json');
  expect(answer.stderr).toBe('');
  expect(answer.code).toBe(0);
  return JSON.parse(answer.stdout);
}

let t: TestApp;

beforeAll(async () => {
  mkdirSync(dataDir);
  t = await startApp({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
  await t.app.db.insert(products).values(demoProducts);
  // The payment sandbox notifies the server at its own address, and the CLI finds the server through admin.json.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  writeAdminFile(dataDir, { port, token: t.app.adminToken, database: databaseFingerprint(databaseUrl) });
}, 120_000);
// The last test closes the server itself.
afterAll(async () => {
  if (t.app.server.listening) await t.close();
});

const minute = 60_000;
const day = 86_400_000;
const at = (fromNow: number) => new Date(Date.now() + fromNow).toISOString();
const everywhere = (text: string) => Object.fromEntries(localeCodes.map((locale) => [locale, `${text} (${locale})`])) as LocalizedText;

const raffle = (title: string): RaffleDefinition => ({
  Kind: 'registration',
  Title: everywhere(title),
  Description: everywhere('Register once; the draw picks the winners.'),
  Prizes: [{ Name: everywhere('CN¥5'), Quantity: 2, Grant: { Kind: 'wallet', Amount: 500 } }],
  OpensAt: at(-day),
  ClosesAt: at(day),
  DrawAt: at(day + minute),
  PublicSource: everywhere('The next lottery draw'),
});

/** A raffle made by the operators' command from a definition file, with a cover when one is named. */
async function createRaffle(definition: RaffleDefinition, cover?: string): Promise<number> {
  const file = path.join(work, `${definition.Title.en}.json`);
  writeFileSync(file, JSON.stringify({ ...definition, ...(cover ? { Cover: cover } : {}) }));
  const made = await runAdmin<{ raffle: { id: number } }>(t, 'raffle', 'create', '--file', file);
  expect(made.code).toBe(200);
  return made.data.raffle.id;
}

const register = (token: string, id: number) => t.call(raffleCalls.registration, { token, params: { id } });

async function payByWallet(token: string): Promise<string> {
  const order = await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: 1000, Target: '12345678' } });
  expect(order.body.code).toBe(200);
  const paid = await t.call(commerceCalls.pay, { token, params: { key: order.body.data.Key }, body: { Method: 'wallet' } });
  expect(paid.body.code).toBe(200);
  return order.body.data.Key;
}

/** Customers of every kind, made through the API. */
async function customers() {
  const alice = await loginBySms(t, '13955500001', 'backup-alice');
  const bob = await loginBySms(t, '13955500002', 'backup-bob');
  const photo = await sharp({ create: { width: 320, height: 320, channels: 3, background: '#aa3300' } })
    .png()
    .toBuffer();
  expect((await t.call(accountCalls.uploadAvatar, { token: alice.AccessToken, body: { Image: photo.toString('base64') } })).body.code).toBe(200);

  // A wallet recharge with a cdkey, then an order paid from the wallet.
  const batch = await runAdmin<{ keys: string[] }>(t, 'cdkey', 'create', '--batch', 'backup', '--count', '1', '--grants', 'wallet:20000');
  expect((await t.call(activationCalls.redeem, { token: alice.AccessToken, body: { Key: batch.data.keys[0] } })).body.code).toBe(200);
  await payByWallet(alice.AccessToken);

  // An order paid by scanning, approved on the sandbox's phone page.
  const order = (await t.call(commerceCalls.createOrder, { token: bob.AccessToken, body: { Product: 'steam-cn', Amount: 3000, Target: '12345678' } })).body
    .data;
  const pay = (await t.call(commerceCalls.pay, { token: bob.AccessToken, params: { key: order.Key }, body: { Method: 'wechatpay' } })).body.data;
  const prepay = new URL(pay.CodeUrl!).searchParams.get('pr')!;
  expect((await t.call(paymentSandbox.act, { params: { id: prepay }, body: { Action: 'approve' } })).body.data.State).toBe('SUCCESS');

  // A raffle with a cover, both registered.
  await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#336699' } })
    .png()
    .toFile(path.join(work, 'cover.png'));
  const winter = await createRaffle(raffle('Winter'), 'cover.png');
  for (const who of [alice, bob]) expect((await register(who.AccessToken, winter)).body.code).toBe(200);
}

/** Waits for the load to reach a point: checked after each of its requests, never on a timer. */
function loadProgress() {
  const waiting = new Set<() => void>();
  return {
    progressed: () => waiting.forEach((check) => check()),
    until: (reached: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!reached()) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      }),
  };
}

/** Rows of a table in key order. */
const rowsOf = {
  users: (db: Database) => db.select().from(users).orderBy(asc(users.id)),
  orders: (db: Database) => db.select().from(orders).orderBy(asc(orders.id)),
  orderEvents: (db: Database) => db.select().from(orderEvents).orderBy(asc(orderEvents.id)),
  payments: (db: Database) => db.select().from(payments).orderBy(asc(payments.id)),
  walletLedger: (db: Database) => db.select().from(walletLedger).orderBy(asc(walletLedger.id)),
  wallets: (db: Database) => db.select().from(wallets).orderBy(asc(wallets.userId)),
  raffles: (db: Database) => db.select().from(raffles).orderBy(asc(raffles.id)),
  raffleEntries: (db: Database) => db.select().from(raffleEntries).orderBy(asc(raffleEntries.raffleId), asc(raffleEntries.number)),
};

/** Every file under a folder, by its path there, with its bytes. */
function filesUnder(folder: string): Record<string, string> {
  const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(
    files.map((file) => [path.relative(folder, path.join(file.parentPath, file.name)), readFileSync(path.join(file.parentPath, file.name)).toString('base64')]),
  );
}

describe('backup and restore', () => {
  const file = path.join(work, 'beacon.tar.gz');
  const into = path.join(work, 'restored');

  it('backs up through the running server while customers keep coming, and restores every row and file', { timeout: 240_000 }, async () => {
    await customers();

    // The load: customers registering for a raffle of their own, and one customer paying from the wallet again and again.
    const spring = await createRaffle(raffle('Spring'));
    const payer = await loginBySms(t, '13955500003', 'backup-payer');
    await t.app.db.transaction((tx) => changeBalance(tx, payer.User.Id, 50_000_000, 'credit', null));
    const entrants = new Set<number>();
    const registered: Array<{ userId: number; number: number; started: number; ended: number }> = [];
    const paid: Array<{ key: string; started: number; ended: number }> = [];
    const { until, progressed } = loadProgress();
    const accounts: Array<{ userId: number; token: string }> = [];
    let loading = true;
    async function registering() {
      while (loading) {
        if (accounts.length === 0) {
          const made = await loggedInUsers(t, 200);
          for (const account of made) entrants.add(account.userId);
          accounts.push(...made);
          continue;
        }
        const entrant = accounts.pop()!;
        const started = performance.now();
        const answer = await register(entrant.token, spring);
        expect(answer.body.code).toBe(200);
        registered.push({ userId: entrant.userId, number: answer.body.data.Number, started, ended: performance.now() });
        progressed();
      }
    }
    async function paying() {
      while (loading) {
        const started = performance.now();
        paid.push({ key: await payByWallet(payer.AccessToken), started, ended: performance.now() });
        progressed();
      }
    }
    // Several at a time, so the server always has requests waiting for the database.
    const load = Promise.all([registering(), registering(), registering(), registering(), paying(), paying()]);

    await until(() => registered.length >= 50 && paid.length >= 5);
    const backupStarted = performance.now();
    const backup = await cliJson('backup', file);
    const backupEnded = performance.now();
    await until(() => [registered, paid].every((requests) => requests.filter((request) => request.started > backupEnded).length >= 5));
    loading = false;
    await load;
    const uploads = filesUnder(path.join(dataDir, 'uploads'));
    expect(backup.saved!.counts).toMatchObject({ raffles: 2, files: Object.keys(uploads).length });
    const during = [...registered, ...paid].filter((request) => request.ended > backupStarted && request.started < backupEnded);
    expect(during.length).toBeGreaterThan(0);
    expect(statSync(file).size).toBe(backup.saved!.bytes);
    // Owner-only: it holds personal data.
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const restore = await cliJson('restore', file, '--into', into);
    expect(restore).toEqual({ command: 'restore', file, into, counts: backup.saved!.counts, refused: null });
    expect(filesUnder(path.join(into, 'uploads'))).toEqual(uploads);

    const restored = await openDatabase(`file://${path.join(into, 'db')}`);
    try {
      const source = Object.fromEntries(await Promise.all(Object.entries(rowsOf).map(async ([name, read]) => [name, await read(t.app.db)])));
      const copy = Object.fromEntries(await Promise.all(Object.entries(rowsOf).map(async ([name, read]) => [name, await read(restored.db)])));
      const payerOrders = new Set(
        source.orders.filter((order: { userId: number | null }) => order.userId === payer.User.Id).map((order: { id: number }) => order.id),
      );

      // What the load left alone is back exactly as it is.
      const untouched = {
        users: (row: { id: number }) => !entrants.has(row.id),
        orders: (row: { userId: number | null }) => row.userId !== payer.User.Id,
        orderEvents: (row: { orderId: number }) => !payerOrders.has(row.orderId),
        payments: (row: { orderId: number }) => !payerOrders.has(row.orderId),
        walletLedger: (row: { userId: number }) => row.userId !== payer.User.Id,
        wallets: (row: { userId: number }) => row.userId !== payer.User.Id,
        raffles: (row: { id: number }) => row.id !== spring,
        raffleEntries: (row: { raffleId: number }) => row.raffleId !== spring,
      } as Record<string, (row: never) => boolean>;
      for (const [name, keep] of Object.entries(untouched)) {
        expect(copy[name].filter(keep), name).toEqual(source[name].filter(keep));
        expect(source[name].filter(keep).length, name).toBeGreaterThan(0);
      }

      // What the load wrote is there as it was written, and as a whole: registrations with their count, payments with their ledger rows and balance.
      for (const user of copy.users.filter((row: { id: number }) => entrants.has(row.id))) expect(source.users).toContainEqual(user);
      const springEntries = copy.raffleEntries.filter((entry: { raffleId: number }) => entry.raffleId === spring);
      const springRow = copy.raffles.find((row: { id: number }) => row.id === spring);
      expect(springEntries.map((entry: { number: number }) => entry.number)).toEqual(Array.from({ length: springRow.entrants }, (_, i) => i + 1));
      for (const entry of springEntries) expect(source.raffleEntries).toContainEqual(entry);
      const savedEntries = new Set(springEntries.map((entry: { userId: number }) => entry.userId));
      for (const request of registered.filter((request) => request.ended < backupStarted)) expect(savedEntries.has(request.userId)).toBe(true);
      for (const request of registered.filter((request) => request.started > backupEnded)) expect(savedEntries.has(request.userId)).toBe(false);

      const payerLedger = copy.walletLedger.filter((row: { userId: number }) => row.userId === payer.User.Id);
      for (const row of payerLedger) expect(source.walletLedger).toContainEqual(row);
      expect(copy.wallets.find((row: { userId: number }) => row.userId === payer.User.Id).balance).toBe(payerLedger.at(-1).balanceAfter);
      const savedOrders = new Map(copy.orders.map((order: { key: string; id: number; state: string }) => [order.key, order]));
      for (const order of copy.orders.filter((order: { userId: number | null; state: string }) => order.userId === payer.User.Id && order.state === 'paid')) {
        expect(copy.payments.filter((payment: { orderId: number }) => payment.orderId === order.id)).toHaveLength(1);
        expect(payerLedger.filter((row: { orderId: number | null; reason: string }) => row.orderId === order.id && row.reason === 'payment')).toHaveLength(1);
      }
      for (const request of paid.filter((request) => request.ended < backupStarted)) expect(savedOrders.get(request.key)).toMatchObject({ state: 'paid' });
      for (const request of paid.filter((request) => request.started > backupEnded)) expect(savedOrders.has(request.key)).toBe(false);
    } finally {
      await restored.close();
    }
  });

  it('refuses to replace a file unless told to, and to write where there is no folder', { timeout: 120_000 }, async () => {
    const before = readFileSync(file);
    const again = await cli('backup', file);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Not saved: ${file} exists already. Choose another name, or add --force to replace it.`);
    expect(readFileSync(file).equals(before)).toBe(true);

    const replaced = await cli('backup', file, '--force');
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toContain(`Saved ${file} (`);
    expect(replaced.stdout).toMatch(/ MB\): \d+ users, \d+ orders, \d+ wallet ledger entries, 2 raffles with \d+ registrations, \d+ uploaded files\.$/m);
    expect(readFileSync(file).equals(before)).toBe(false);

    const nowhere = path.join(work, 'no-such-folder', 'beacon.tar.gz');
    expect(await cli('backup', nowhere)).toMatchObject({ code: 1, stderr: expect.stringContaining(`the folder ${path.dirname(nowhere)} does not exist`) });
    expect(readdirSync(work).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('restores only into a new or empty folder, and only a whole backup', { timeout: 120_000 }, async () => {
    const occupied = await cli('restore', file, '--into', into);
    expect(occupied.code).toBe(1);
    expect(occupied.stderr).toContain(`Not restored: ${into} exists and is not an empty folder.`);
    expect(await cli('restore', file, '--into', dataDir)).toMatchObject({ code: 1, stderr: expect.stringContaining('is not an empty folder') });

    const cut = path.join(work, 'cut.tar.gz');
    writeFileSync(cut, readFileSync(file).subarray(0, 100_000));
    const damaged = await cli('restore', cut, '--into', path.join(work, 'from-cut'));
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain(`Not restored: ${cut} is not a whole backup`);
    expect(existsSync(path.join(work, 'from-cut'))).toBe(false);

    const entries = await untar(gunzipSync(readFileSync(file)));
    const about = entries.find((entry) => entry.name === 'backup.json')!;
    const database = entries.find((entry) => entry.name === 'database.tar')!;
    const archive = async (name: string, contents: typeof entries) => {
      writeFileSync(path.join(work, name), gzipSync(await tar(contents, new Date())));
      return path.join(work, name);
    };
    const other = await archive('other.tar.gz', [{ name: 'notes.txt', bytes: Buffer.from('not a backup') }]);
    expect((await cli('restore', other, '--into', path.join(work, 'from-other'))).stderr).toContain(
      `Not restored: ${other} is not a backup made by \`npm run admin -- backup\`: it has no backup.json.`,
    );
    const climbing = await archive('climbing.tar.gz', [about, database, { name: 'uploads/../../escaped', bytes: Buffer.from('x') }]);
    expect((await cli('restore', climbing, '--into', path.join(work, 'from-climbing'))).stderr).toContain(
      'holds a file outside uploads/ (uploads/../../escaped)',
    );
    expect(existsSync(path.join(work, 'escaped'))).toBe(false);

    // A backup whose record of what it holds does not match what it holds.
    const record = JSON.parse(Buffer.from(about.bytes).toString('utf8'));
    record.counts.users += 1;
    const doctored = path.join(work, 'doctored.tar.gz');
    writeFileSync(
      doctored,
      gzipSync(await tar([{ name: 'backup.json', bytes: Buffer.from(JSON.stringify(record)) }, ...entries.filter((entry) => entry !== about)], new Date())),
    );
    const mismatch = await cli('restore', doctored, '--into', path.join(work, 'from-doctored'));
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain(
      `but it does not hold what the backup recorded: users ${record.counts.users - 1} (the backup recorded ${record.counts.users}). Do not use it.`,
    );
  });

  it('waits for a transaction half-way before it copies anything', { timeout: 60_000 }, async () => {
    const database = await openDatabase('memory://');
    try {
      let finish!: () => void;
      const halfway = new Promise<void>((resolve) => (finish = resolve));
      let begun!: () => void;
      const first = new Promise<void>((resolve) => (begun = resolve));
      const writing = database.db.transaction(async (tx) => {
        await tx.insert(users).values({ nickname: 'First' });
        begun();
        await halfway;
        await tx.insert(users).values({ nickname: 'Second' });
      });
      await first;
      let taken = false;
      const snapshot = takeSnapshot(database.pglite!, folderUploads(work)).then((result) => {
        taken = true;
        return result;
      });
      // A bare dump waits only for the statement running, so it runs now, half-way through the transaction; the backup's does not.
      await database.pglite!.dumpDataDir('none');
      expect(taken).toBe(false);
      finish();
      await writing;
      expect((await snapshot).counts.users).toBe(2);

      const saved = path.join(work, 'halfway.tar.gz');
      await writeBackupFile(saved, await snapshot);
      expect(await restoreInto(await readBackupFile(saved), path.join(work, 'restored-halfway'))).toMatchObject({ users: 2 });
    } finally {
      await database.close();
    }
  });

  it('tells PostgreSQL users the pg_dump command instead', async () => {
    const target = path.join(work, 'postgres.dump');
    // The app as it is on PostgreSQL: no embedded database to dump.
    const onPostgres = Object.assign(Object.create(t.app) as TestApp['app'], { pglite: null });
    const [backup] = backupCommands;
    const answer = await backup.run(onPostgres, { file: target, force: false }, { actor: shellActor('tester@test', null), locale: 'en', attachment: null });
    expect(answer).toEqual({
      command: 'backup',
      file: target,
      saved: null,
      refused: expect.stringContaining(`pg_dump --format=custom --file="${target}" "$DATABASE_URL"`),
    });
    expect(existsSync(target)).toBe(false);
  });

  it('backs up a folder no server holds, opening it itself', { timeout: 120_000 }, async () => {
    await t.close();
    const alone = path.join(work, 'alone.tar.gz');
    const backup = await cliJson('backup', alone);
    const database: OpenDatabase = await openDatabase(databaseUrl, { migrate: false });
    try {
      expect(backup.saved!.counts).toMatchObject({ users: await database.db.$count(users), orders: await database.db.$count(orders) });
    } finally {
      await database.close();
    }
    expect((await cliJson('restore', alone, '--into', path.join(work, 'restored-alone'))).counts).toEqual(backup.saved!.counts);
  });
});
