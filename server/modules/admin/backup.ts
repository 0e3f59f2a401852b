/**
 * `backup <file>` and `restore <file> --into <folder>` (docs/backup.md). A
 * backup is taken where the database is open — inside the running server, or
 * by the CLI on a folder no server holds — and written by that process; a
 * restore is the CLI's alone and only ever makes a new folder.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BackupCounts } from '#contract/admin.ts';
import { adminCommands, backupForce } from '#contract/commands/admin.ts';
import { recordAudit } from '../../db/audit.ts';
import { BackupFileError, readBackupFile, restoreInto, takeSnapshot, writeBackupFile } from '../../db/backup.ts';
import { handle } from '../../admin-command.ts';
import type { Uploads } from '../../services/file-store.ts';

/** What a backup holds, in words. */
const backupCounts = (counts: BackupCounts) =>
  `${counts.users} users, ${counts.orders} orders, ${counts.ledgerEntries} wallet ledger entries, ${counts.raffles} raffles with ${counts.raffleEntries} registrations, ${counts.files} uploaded files`;

const size = (bytes: number) => (bytes < 1_000_000 ? `${Math.ceil(bytes / 1000)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`);

/** Where the uploaded files are when they are not in a backup: in a bucket, which its own tools back up. */
const inBucket = (bucket: string) =>
  `The uploaded files are in the bucket ${bucket}, not in this backup: back them up with the bucket's own tools (docs/backup.md).`;

/** Where the server's keys are for a backup of the database: in it, sealed, or in the keys folder beside it (docs/keys.md). */
const keysBeside =
  "The server's keys are in the database, sealed, when KEYS_SEALING_KEY is set: keep that key apart from the backups. Else they are in DATA_DIR's keys/ folder: keep a copy of it apart (docs/backup.md).";

/** PostgreSQL has its own tools, which need no server of ours and restore into any PostgreSQL. */
const usePgDump = (file: string, uploads: Uploads) =>
  `Not saved: the database is PostgreSQL, which is backed up with its own tool: pg_dump --format=custom --file="${file}" "$DATABASE_URL" (restored with pg_restore into a new database: docs/backup.md). ${
    'bucket' in uploads.location ? `${keysBeside} ${inBucket(uploads.location.bucket)}` : `Copy DATA_DIR's uploads/ folder with it. ${keysBeside}`
  }`;

/** Why `file` cannot be written, or null. */
function fileProblem(file: string, replace: boolean): string | null {
  if (!existsSync(path.dirname(file))) return `Not saved: the folder ${path.dirname(file)} does not exist.`;
  if (existsSync(file) && !replace) return `Not saved: ${file} exists already. Choose another name, or add ${backupForce} to replace it.`;
  return null;
}

export const backupCommands = [
  handle(adminCommands.backup, {
    async run(app, args, { actor }) {
      const { pglite, uploads, db } = app;
      // The CLI sends an absolute path: this may run in a server with another working directory.
      const file = path.resolve(args.file);
      if (!pglite) return { command: 'backup', file, saved: null, refused: usePgDump(file, uploads) };
      const refused = fileProblem(file, args.force);
      if (refused) return { command: 'backup', file, saved: null, refused };
      const snapshot = await takeSnapshot(pglite, uploads);
      try {
        const bytes = await writeBackupFile(file, snapshot);
        // After the snapshot, so the backup does not hold its own line: who took a copy of every customer's data, and where it went.
        await recordAudit(db, actor, { action: 'backup', target: `file ${file}`, before: null, after: { bytes, counts: snapshot.counts } });
        const uploadsBucket = 'bucket' in uploads.location ? uploads.location.bucket : null;
        return { command: 'backup', file, saved: { bytes, counts: snapshot.counts, uploadsBucket }, refused: null };
      } catch (error) {
        // The file system's refusal (no permission, disk full) is the operator's to fix; the server may run as another user.
        if (!(error as NodeJS.ErrnoException).syscall) throw error;
        return { command: 'backup', file, saved: null, refused: `Not saved: ${(error as Error).message}.` };
      }
    },
    format(result) {
      if (!result.saved) return `${result.refused}`;
      const bucket = result.saved.uploadsBucket ? `\n\n${inBucket(result.saved.uploadsBucket)}` : '';
      return `Saved ${result.file} (${size(result.saved.bytes)}): ${backupCounts(result.saved.counts)}.${bucket}\n\n${keysBeside}`;
    },
    found: (result) => result.refused === null,
  }),
];

const countsDiffer = (restored: BackupCounts, saved: BackupCounts) =>
  (Object.keys(saved) as Array<keyof BackupCounts>)
    .filter((key) => restored[key] !== saved[key])
    .map((key) => `${key} ${restored[key]} (the backup recorded ${saved[key]})`);

export const restoreCommands = [
  handle(adminCommands.restore, {
    async run(_app, args) {
      const [file, into] = [path.resolve(args.file), path.resolve(args.into)];
      const result = { command: 'restore' as const, file, into };
      if (existsSync(into) && (!statSync(into).isDirectory() || readdirSync(into).length > 0))
        return {
          ...result,
          counts: null,
          refused: `Not restored: ${into} exists and is not an empty folder. Restore into a new one; a restore never replaces anything.`,
        };
      if (!existsSync(file)) return { ...result, counts: null, refused: `Not restored: there is no file ${file}.` };
      let backup;
      try {
        backup = await readBackupFile(file);
      } catch (error) {
        if (error instanceof BackupFileError) return { ...result, counts: null, refused: `Not restored: ${error.message}` };
        throw error;
      }
      const counts = await restoreInto(backup, into);
      const differ = countsDiffer(counts, backup.counts);
      return {
        ...result,
        counts,
        refused: differ.length ? `Restored into ${into}, but it does not hold what the backup recorded: ${differ.join(', ')}. Do not use it.` : null,
      };
    },
    format(result) {
      if (!result.counts) return `${result.refused}`;
      if (result.refused) return `${result.refused}\nIt holds ${backupCounts(result.counts)}.`;
      return `Restored ${result.file} into ${result.into}: ${backupCounts(result.counts)}, as when it was saved.\n\nTo run the server on it, give it the same KEYS_SEALING_KEY (the keys came back with the database) or, when the keys are in a folder, copy that folder to ${path.join(result.into, 'keys')}, and start it with\n  DATA_DIR=${result.into} DATABASE_URL=file://${path.join(result.into, 'db')}`;
    },
    found: (result) => result.refused === null,
  }),
];
