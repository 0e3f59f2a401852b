/**
 * Runs an operators' command where the database is. Only one process may open
 * an embedded (PGlite) folder (DESIGN.md §6): when it is free — or the
 * database is PostgreSQL — the command opens it itself; when a running server
 * holds it, the command goes through that server's loopback admin endpoint.
 */
import { existsSync } from 'node:fs';
import { SUCCESS } from '../../contract/envelope.ts';
import type { Config } from '../config.ts';
import { DatabaseLockedError, openDatabase, pgliteFolder } from '../db/open.ts';
import { adminFilePath, readAdminFile } from '../modules/admin/admin-file.ts';
import { runCommand, type Command, type CommandResult } from '../modules/admin/commands.ts';

/** A failure the operator can act on; printed as is, without a stack. */
export class CliError extends Error {}

/** `words` are the command as typed (without --json), handed to the server when it holds the database. */
export async function runAdminCommand(config: Config, command: Command, words: string[]): Promise<CommandResult> {
  const url = config.DATABASE_URL;
  if (url === 'memory://') throw new CliError('DATABASE_URL is memory://, a new empty database for tests: there is nothing to look at.');
  // Opening a folder that does not exist would create an empty database there.
  if (url.startsWith('file://') && !existsSync(pgliteFolder(url))) throw new CliError(`There is no database at ${pgliteFolder(url)} (DATABASE_URL=${url}).`);

  let database;
  try {
    database = await openDatabase(url, { migrate: false });
  } catch (error) {
    if (error instanceof DatabaseLockedError) return runThroughServer(config, words);
    throw error;
  }
  try {
    return await runCommand(database.db, command);
  } finally {
    await database.close();
  }
}

async function runThroughServer(config: Config, words: string[]): Promise<CommandResult> {
  const inUse = `The database ${pgliteFolder(config.DATABASE_URL)} is in use by another process`;
  const busy = `${inUse}, and the server did not answer`;
  const endpoint = readAdminFile(config.DATA_DIR);
  if (!endpoint) throw new CliError(`${busy}: there is no ${adminFilePath(config.DATA_DIR)} (is DATA_DIR the one the server uses?).`);

  const url = `http://127.0.0.1:${endpoint.port}/api/admin/run`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': endpoint.token },
      body: JSON.stringify({ command: words }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new CliError(`${busy} at ${url} (${reason}).`);
  }
  const body = (await response.json().catch(() => null)) as { code?: number; message?: string; data?: CommandResult } | null;
  if (body?.code !== SUCCESS || !body.data) {
    throw new CliError(
      `${inUse}, and the server at ${url} refused the admin call (HTTP ${response.status}${body?.message ? `, "${body.message}"` : ''}); ${adminFilePath(config.DATA_DIR)} may be left from another server.`,
    );
  }
  return body.data;
}
