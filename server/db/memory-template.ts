/**
 * In-memory databases (tests, benchmarks) start from a dump of a freshly
 * created and migrated one: creating a PGlite database costs seconds of CPU,
 * loading a dump a fraction of one, and a test run starts dozens. The dump is
 * kept in the system's temporary folder under a name that hashes PGlite's
 * version and the migrations, so changing either makes a new one (and removes
 * the old); it is written under another name and renamed, so no process ever
 * reads half of one.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { applyMigrations, migrationsFolder } from './migrate.ts';
import type { Database } from './database.ts';

const prefix = 'beacon-pglite-template-';

function templateFile(): string {
  const pglitePackage = path.resolve(path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))), '..', 'package.json');
  const hash = createHash('sha256').update(readFileSync(pglitePackage));
  for (const migration of readMigrationFiles({ migrationsFolder })) hash.update(migration.hash);
  return path.join(tmpdir(), `${prefix}${hash.digest('hex').slice(0, 16)}.tar`);
}

async function make(file: string, progress: (step: string) => void): Promise<Blob> {
  progress('Creating the template of in-memory databases (once per change of the migrations)…');
  const client = new PGlite();
  try {
    await applyMigrations(drizzle(client) as unknown as Database, progress);
    const dump = await client.dumpDataDir('none');
    // Other versions' dumps go; one that another process is writing right now (a `.part`) stays.
    for (const old of readdirSync(tmpdir()).filter((name) => name.startsWith(prefix) && name.endsWith('.tar') && name !== path.basename(file)))
      rmSync(path.join(tmpdir(), old), { force: true });
    writeFileSync(`${file}.${process.pid}.part`, Buffer.from(await dump.arrayBuffer()));
    renameSync(`${file}.${process.pid}.part`, file);
    return dump;
  } finally {
    await client.close();
  }
}

let template: Promise<Blob> | undefined;

/** The dump an in-memory database loads: read once per process, made once per machine and change. */
export function memoryTemplate(progress: (step: string) => void): Promise<Blob> {
  template ??= (async () => {
    const file = templateFile();
    try {
      return new Blob([readFileSync(file)]);
    } catch {
      return make(file, progress);
    }
  })();
  return template;
}
