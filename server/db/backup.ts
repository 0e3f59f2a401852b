/**
 * Backups of the embedded (PGlite) database with the files users uploaded: one
 * `.tar.gz` holding `backup.json` (when it was taken and what it holds),
 * `database.tar` (PGlite's dump of its folder) and `uploads/…` (DATA_DIR's
 * uploaded files, which database rows name; files kept in a bucket are not in
 * it, the bucket's own tools back them up). The server's keys are in it only
 * as the database holds them with KEYS_SEALING_KEY, sealed; a keys folder is
 * not (docs/backup.md says why and how to keep them).
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { BackupCounts } from '#contract/admin.ts';
import { uploadsFolder, type Uploads } from '../services/file-store.ts';
import { replaceFile } from '../services/whole-file.ts';
import { tar, TarError, untar, type TarEntry } from './tar.ts';
import { openDatabase } from './open.ts';
import { orders, raffleEntries, raffles, users, walletLedger } from './schema.ts';

const databaseEntry = 'database.tar';
const manifestEntry = 'backup.json';

const manifest = z.object({
  format: z.literal(1),
  takenAt: z.string(),
  counts: BackupCounts,
});
type Manifest = z.infer<typeof manifest>;

/** A file that is not a whole backup; its message says what is wrong. */
export class BackupFileError extends Error {}

const counting = new PgDialect().sqlToQuery(sql`select
  (select count(*) from ${users})::int as "users",
  (select count(*) from ${orders})::int as "orders",
  (select count(*) from ${walletLedger})::int as "ledgerEntries",
  (select count(*) from ${raffles})::int as "raffles",
  (select count(*) from ${raffleEntries})::int as "raffleEntries"`);

async function countRows(client: PGlite | Transaction): Promise<Omit<BackupCounts, 'files'>> {
  return (await client.query<Omit<BackupCounts, 'files'>>(counting.sql, counting.params)).rows[0];
}

/** Every stored file under the uploads folder (DATA_DIR/uploads), named by its path from DATA_DIR; none when a bucket keeps them. */
async function readUploads(uploads: Uploads): Promise<TarEntry[]> {
  if (!('folder' in uploads.location)) return [];
  const root = uploads.location.folder;
  const found = await readdir(root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const entries: TarEntry[] = [];
  // A `.tmp` is a file being written (whole-file.ts): no committed row names it yet.
  for (const file of found.filter((entry) => entry.isFile() && !entry.name.endsWith('.tmp'))) {
    const full = path.join(file.parentPath, file.name);
    try {
      entries.push({ name: [uploadsFolder, ...path.relative(root, full).split(path.sep)].join('/'), bytes: await readFile(full) });
    } catch (error) {
      // Removed since it was listed: only a file no row names any more is removed.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return entries;
}

export interface Snapshot {
  counts: BackupCounts;
  entries: TarEntry[];
}

/**
 * The database and the uploaded files as they are at one moment, taken on the
 * server's own connection. PGlite's dump on its own waits only for the
 * statement running, which may be half-way through a transaction; but every
 * query, exec and transaction of the app and the job queue holds PGlite's
 * transaction lock throughout, so the dump is taken inside a transaction of
 * its own (which writes nothing): no other is half-way while the folder is
 * dumped and the files are read (a file is stored before the row naming it
 * commits, and removed only after no row names it). The server answers
 * meanwhile; its queries wait until the copy is in memory.
 */
export async function takeSnapshot(pglite: PGlite, uploads: Uploads): Promise<Snapshot> {
  const taken = await pglite.transaction(async (tx) => {
    // The data files then hold every commit, so a restore need not replay the write-ahead log.
    await tx.exec('checkpoint');
    const counts = await countRows(tx);
    const database = new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
    return { counts, database, uploads: await readUploads(uploads) };
  });
  const counts = { ...taken.counts, files: taken.uploads.length };
  const about: Manifest = { format: 1, takenAt: new Date().toISOString(), counts };
  return {
    counts,
    entries: [
      { name: manifestEntry, bytes: Buffer.from(`${JSON.stringify(about, null, 2)}\n`) },
      { name: databaseEntry, bytes: taken.database },
      ...taken.uploads,
    ],
  };
}

/**
 * Writes the snapshot to `file` (owner-only: it holds personal data), whole or
 * not at all, and returns its size.
 */
export async function writeBackupFile(file: string, snapshot: Snapshot): Promise<number> {
  const archive = await promisify(gzip)(await tar(snapshot.entries, new Date()));
  await replaceFile(file, archive);
  return archive.length;
}

export interface Backup {
  counts: BackupCounts;
  database: Uint8Array;
  uploads: TarEntry[];
}

/** A stored file's path under DATA_DIR: `uploads/` and names that never climb out of it. */
const uploadPath = /^uploads(?:\/[\w-][\w.-]*)+$/;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Reads a file `writeBackupFile` wrote; throws BackupFileError for anything else or a damaged one. */
export async function readBackupFile(file: string): Promise<Backup> {
  let entries: TarEntry[];
  try {
    entries = await untar(await promisify(gunzip)(await readFile(file)));
  } catch (error) {
    if (error instanceof TarError || (error as NodeJS.ErrnoException).code?.startsWith('Z_'))
      throw new BackupFileError(`${file} is not a whole backup: ${(error as Error).message}`);
    throw error;
  }
  const about = entries.find((entry) => entry.name === manifestEntry);
  const database = entries.find((entry) => entry.name === databaseEntry);
  if (!about || !database)
    throw new BackupFileError(`${file} is not a backup made by \`npm run admin -- backup\`: it has no ${about ? databaseEntry : manifestEntry}.`);
  const parsed = manifest.safeParse(parseJson(Buffer.from(about.bytes).toString('utf8')));
  if (!parsed.success) throw new BackupFileError(`${file} has a ${manifestEntry} that this version cannot read.`);
  const uploads = entries.filter((entry) => entry.name.startsWith(`${uploadsFolder}/`));
  const stray = uploads.find((entry) => !uploadPath.test(entry.name));
  if (stray) throw new BackupFileError(`${file} holds a file outside uploads/ (${stray.name}); it was not made by \`npm run admin -- backup\`.`);
  return { counts: parsed.data.counts, database: database.bytes, uploads };
}

/**
 * Restores a backup into `folder`, which must be new or empty: the uploaded
 * files under `folder/uploads`, the database in `folder/db`, opened and brought
 * to this version's migrations. Returns what the restored database holds.
 */
export async function restoreInto(backup: Backup, folder: string): Promise<BackupCounts> {
  for (const upload of backup.uploads) {
    const target = path.join(folder, ...upload.name.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, upload.bytes, { flag: 'wx' });
  }
  const database = await openDatabase(`file://${path.join(folder, 'db')}`, {
    loadDataDir: new Blob([new Uint8Array(backup.database)], { type: 'application/x-tar' }),
  });
  try {
    return { ...(await countRows(database.pglite!)), files: backup.uploads.length };
  } finally {
    await database.close();
  }
}
