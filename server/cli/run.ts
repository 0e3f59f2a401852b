/**
 * Runs an operators' command where the database is. A running server of the
 * same database goes first: only one process may open an embedded (PGlite)
 * folder (DESIGN.md §6), and only a server can push a change to its users'
 * open pages. With no server answering, the command opens the database itself
 * and pushes through Redis when REDIS_URL is set.
 */
import { existsSync } from 'node:fs';
import { admin, adminTokenHeader, type CommandResult } from '#contract/admin.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { findUser } from '../commands.ts';
import type { Config } from '../config.ts';
import { DatabaseLockedError } from '../db/folder-lock.ts';
import { openDatabase, pgliteFolder, type OpenDatabase } from '../db/open.ts';
import { adminFilePath, databaseFingerprint, readAdminFile, type AdminEndpoint } from '../modules/admin/admin-file.ts';
import type { RunCommand } from './command.ts';
import { backplanePusher, redisBackplane } from '../realtime/backplane.ts';
import { connectRedis } from '../services/redis.ts';
import { realProvider } from '../plugins/payments.ts';
import { loadSecret } from '../crypto/keys.ts';

/** A failure the operator can act on; printed as is, without a stack. */
export class CliError extends Error {}

/** `words` are the command as typed (without --json), handed to the server when one is running. */
export async function runAdminCommand(config: Config, run: RunCommand, words: string[]): Promise<CommandResult> {
  const endpoint = readAdminFile(config.DATA_DIR);
  if (endpoint?.database === databaseFingerprint(config.DATABASE_URL)) {
    const answer = await runThroughServer(config, endpoint, words);
    if (answer) return answer;
  }

  const url = config.DATABASE_URL;
  if (url === 'memory://')
    throw new CliError('DATABASE_URL is memory://, a new empty database for tests, and no server of it answered: there is nothing to look at.');
  // Opening a folder that does not exist would create an empty database there.
  if (url.startsWith('file://') && !existsSync(pgliteFolder(url))) throw new CliError(`There is no database at ${pgliteFolder(url)} (DATABASE_URL=${url}).`);

  let database;
  try {
    database = await openDatabase(url, { migrate: false, log: (line) => console.error(line) });
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    throw new CliError(`${error.message} No server answered at the address in ${adminFilePath(config.DATA_DIR)} (is DATA_DIR the one the server uses?).`);
  }
  try {
    return await runDirectly(config, database, run);
  } finally {
    await database.close();
  }
}

async function runDirectly(config: Config, { db, pglite }: OpenDatabase, run: RunCommand): Promise<CommandResult> {
  const provider = config.PAYMENT_PROVIDER === 'wechatpay' ? realProvider(config).provider() : null;
  const context = {
    db,
    metrics: null,
    pglite,
    findUser: (key: string) => findUser(db, key),
    paymentProvider: () => provider,
    secret: () => loadSecret(config.DATA_DIR),
    dataDir: config.DATA_DIR,
  };
  if (!config.REDIS_URL) return run({ ...context, pusher: null });
  const redis = await connectRedis(config.REDIS_URL, { warn: () => {} });
  try {
    return await run({ ...context, pusher: backplanePusher(await redisBackplane(redis)) });
  } finally {
    await redis.quit();
  }
}

/** The server's answer; null when nothing listens there (a file left by a server that was killed). */
async function runThroughServer(config: Config, endpoint: AdminEndpoint, words: string[]): Promise<CommandResult | null> {
  const url = `http://127.0.0.1:${endpoint.port}/api${admin.run.path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: admin.run.method,
      headers: { 'content-type': 'application/json', [adminTokenHeader]: endpoint.token },
      body: JSON.stringify({ command: words }),
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
