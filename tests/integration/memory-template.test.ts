/**
 * The dump in-memory databases start from (server/db/memory-template.ts) when
 * several processes make it at once, as parallel test files on a new machine
 * do: every one gets a database, and the folder ends with the one dump of this
 * version, an older version's gone.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { migrationJournal } from '../../server/db/migrate.ts';

const root = path.resolve(import.meta.dirname, '../..');
const opens = `
  import { openDatabase } from './server/db/open.ts';
  const database = await openDatabase('memory://');
  console.log((await database.pglite.query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0].n);
  await database.close();
`;

it('is made by three processes at once, each of which opens a migrated database', { timeout: 120_000 }, async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'beacon-template-'));
  writeFileSync(path.join(folder, 'beacon-pglite-template-0000000000000000.tar'), 'an older version');
  const runs = await Promise.all(
    [1, 2, 3].map(() => promisify(execFile)(process.execPath, ['--input-type=module', '-e', opens], { cwd: root, env: { ...process.env, TMPDIR: folder } })),
  );
  const migrations = String(migrationJournal().length);
  expect(runs.map((run) => run.stdout.trim())).toEqual([migrations, migrations, migrations]);
  const left = readdirSync(folder);
  expect(left).toHaveLength(1);
  expect(left[0]).toMatch(/^beacon-pglite-template-[0-9a-f]{16}\.tar$/);
  expect(left[0]).not.toBe('beacon-pglite-template-0000000000000000.tar');
});
