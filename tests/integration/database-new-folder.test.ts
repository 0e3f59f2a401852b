/**
 * A new embedded database folder is made in a child process (new-folder.ts),
 * so the server that opens it afterwards does not keep creation's memory:
 * the folder is created and migrated, its steps reach the opener's progress in
 * order, and a creation that fails is a start-up error naming the folder, with
 * the folder lock released.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/database.ts';
import { migrationJournal } from '../../server/db/migrate.ts';
import { openDatabase } from '../../server/db/open.ts';
import { StartupError } from '../../server/startup-error.ts';

const newFolder = () => path.join(mkdtempSync(path.join(tmpdir(), 'beacon-new-folder-')), 'db');

describe('a new database folder', () => {
  it('is created and migrated in a child process, reporting each step to the opener', { timeout: 60_000 }, async () => {
    const folder = newFolder();
    const steps: string[] = [];
    const database = await openDatabase(`file://${folder}`, { progress: (step) => steps.push(step) });
    try {
      const journal = migrationJournal();
      expect(steps).toEqual([
        `Creating the database in ${folder} (first start only)…`,
        ...journal.map(({ tag }, index) => `Applying migration ${index + 1} of ${journal.length} (${tag})…`),
      ]);
      const [{ n }] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`));
      expect(n).toBe(journal.length);
    } finally {
      await database.close();
    }
    // A later start opens what the child made, and has nothing left to apply.
    const later: string[] = [];
    const reopened = await openDatabase(`file://${folder}`, { progress: (step) => later.push(step) });
    await reopened.close();
    expect(later).toEqual([`Opening the database in ${folder}…`]);
  });

  it('fails as a start-up error naming the folder when the child cannot create it, and lets go of the lock', { timeout: 60_000 }, async () => {
    const folder = newFolder();
    mkdirSync(folder);
    // PostgreSQL's initdb makes a folder named `global`: a file in its place stops it.
    writeFileSync(path.join(folder, 'global'), 'in the way');
    const opening = openDatabase(`file://${folder}`);
    await expect(opening).rejects.toThrow(StartupError);
    await expect(opening).rejects.toThrow(`Creating the database in ${folder} failed: `);
    expect(existsSync(`${folder}.lock`)).toBe(false);
  });
});
