/**
 * Runs an operators' command where the database is. A running server of the
 * same database goes first: only one process may open an embedded (PGlite)
 * folder (two corrupt it), and only a server can push a change to its users'
 * open pages. With no server answering, the command opens the database itself,
 * with the server's own plugins (`openForCommands`), and pushes through Redis
 * when REDIS_URL is set.
 */
import { existsSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { admin, adminTokenHeader, type CommandAnswer } from '#contract/admin.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { runCommand } from '../admin-command.ts';
import { openForCommands } from '../command-app.ts';
import type { Config } from '../config.ts';
import { shellActor } from '../db/audit.ts';
import { DatabaseLockedError } from '../db/folder-lock.ts';
import { pgliteFolder } from '../db/open.ts';
import { adminFilePath, databaseFingerprint, readAdminFile, type AdminEndpoint } from '../modules/admin/admin-file.ts';
import { StartupError } from '../startup-error.ts';

/** Who runs this CLI, for the audit log: the account and machine of its process. */
export const operator = (): string => `${userInfo().username}@${hostname()}`;

/** A failure the operator can act on; printed as is, without a stack. */
export class CliError extends Error {}

/** A command as the CLI hands it where the database is: its name, its arguments, and the file its words named, read on the operator's side. */
export interface SentCommand {
  command: string;
  args: unknown;
  attachment: Buffer | null;
}

/** `sent` is handed to the server when one is running, else run on `app`, the CLI's `commandApp`, opened here. */
export async function runAdminCommand(config: Config, app: FastifyInstance, sent: SentCommand): Promise<CommandAnswer> {
  const endpoint = readAdminFile(config.DATA_DIR);
  if (endpoint?.database === databaseFingerprint(config.DATABASE_URL)) {
    const answer = await runThroughServer(config, endpoint, sent);
    if (answer) return answer;
  }

  const url = config.DATABASE_URL;
  if (url === 'memory://')
    throw new CliError('DATABASE_URL is memory://, a new empty database for tests, and no server of it answered: there is nothing to look at.');
  // Opening a folder that does not exist would create an empty database there.
  if (url.startsWith('file://') && !existsSync(pgliteFolder(url))) throw new CliError(`There is no database at ${pgliteFolder(url)} (DATABASE_URL=${url}).`);

  try {
    await openForCommands(app, config);
  } catch (error) {
    // What opened before the failure (the database) is closed, so the command ends.
    await app.close();
    if (error instanceof DatabaseLockedError)
      throw new CliError(`${error.message} No server answered at the address in ${adminFilePath(config.DATA_DIR)} (is DATA_DIR the one the server uses?).`);
    // Anything else the operator must fix (the keys' sealing key, a database that does not answer) is told as a server's start tells it.
    if (error instanceof StartupError) throw new CliError(error.message);
    throw error;
  }
  try {
    const caller = { actor: shellActor(operator(), null), locale: 'en' as const, attachment: sent.attachment };
    return (await runCommand(app, sent.command, sent.args, caller, null)) as CommandAnswer;
  } finally {
    await app.close();
  }
}

/** The server's answer; null when nothing listens there (a file left by a server that was killed). */
async function runThroughServer(config: Config, endpoint: AdminEndpoint, { command, args, attachment }: SentCommand): Promise<CommandAnswer | null> {
  const url = `http://127.0.0.1:${endpoint.port}/api${admin.run.path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: admin.run.method,
      // The server's words (a refusal) in the shell's English.
      headers: { 'content-type': 'application/json', 'accept-language': 'en', [adminTokenHeader]: endpoint.token },
      body: JSON.stringify({ command, args, actor: operator(), attachment: attachment?.toString('base64') }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    return null;
  }
  const body = (await response.json().catch(() => null)) as { code?: number; message?: string; data?: unknown } | null;
  const result = body?.code === SUCCESS ? admin.run.response.safeParse(body.data) : null;
  if (!result?.success) {
    throw new CliError(
      `The server at ${url} refused the admin call (HTTP ${response.status}${body?.message ? `, "${body.message}"` : ''}); ${adminFilePath(config.DATA_DIR)} may be left from another server.`,
    );
  }
  return result.data;
}
