/** The operators' commands about the database: `migrations status`, `backup` and `restore` (the CLI's alone). None runs from the console. */
import * as z from 'zod/mini';
import { BackupCounts, MigrationStatus } from '../admin.ts';
import { command, NoArgs, UsageError } from '../command.ts';
import { text } from '../fields.ts';

/** The word that lets a backup replace a file that exists. */
export const backupForce = '--force';

const FilePath = text(z.minLength(1), z.maxLength(4096));

export const adminCommands = {
  migrations: command({
    name: 'migrations status',
    usage: 'migrations status               each migration and whether it is applied',
    args: NoArgs,
    words(rest) {
      if (rest.length > 0) throw new UsageError('migrations status takes no arguments');
      return {};
    },
    result: { migrations: z.array(MigrationStatus) },
  }),
  backup: command({
    name: 'backup',
    usage: `backup <file> [${backupForce}]         the database and uploaded files in one .tar.gz, taken by the running server if one runs`,
    /** `file`: where the process that holds the database writes it (the CLI sends it absolute); `force`: replace one that exists. */
    args: z.strictObject({ file: FilePath, force: z._default(z.boolean(), false) }),
    words(rest) {
      const files = rest.filter((word) => word !== backupForce);
      if (files.length !== 1 || files[0].startsWith('--'))
        throw new UsageError(`backup takes the file to write, and ${backupForce} to replace one that exists`);
      return { file: files[0], force: rest.includes(backupForce) };
    },
    /** The file written, its size and what it holds (`uploadsBucket`: the bucket that keeps the uploaded files instead); or, as a sentence, why nothing was written. */
    result: {
      file: text(),
      saved: z.nullable(z.object({ bytes: z.int(), counts: BackupCounts, uploadsBucket: z.nullable(text()) })),
      refused: z.nullable(text()),
    },
  }),
  restore: command({
    name: 'restore',
    local: true,
    usage:
      'restore <file> --into <folder>\n                                  a backup into a new or empty folder (database in db/, files in uploads/); never through a server',
    args: z.strictObject({ file: FilePath, into: FilePath }),
    words(rest) {
      if (rest.length !== 3 || rest[1] !== '--into' || rest[0].startsWith('--') || rest[2].startsWith('--'))
        throw new UsageError('restore takes the backup file and --into <folder>, a new or empty folder');
      return { file: rest[0], into: rest[2] };
    },
    /** What the restored database holds; or, as a sentence, what went wrong. */
    result: { file: text(), into: text(), counts: z.nullable(BackupCounts), refused: z.nullable(text()) },
  }),
};
