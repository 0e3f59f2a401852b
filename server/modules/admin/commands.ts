/**
 * The operators' commands (`npm run admin -- …`): parsed from the words typed
 * after `admin`, then run against a database. The CLI parses before it opens
 * anything, so a typo costs no database; the admin endpoint parses the same
 * words again, so a running server accepts exactly what the CLI accepts.
 */
import type { Database } from '../../db/open.ts';
import { listUsers, migrationStatus, showUser, type MigrationStatus, type UserDetail, type UserSummary } from './queries.ts';

/** The words do not form a command; the message says which part is wrong. */
export class UsageError extends Error {}

export type Command = { name: 'users list'; limit: number } | { name: 'users show'; key: string } | { name: 'migrations status' };

export type CommandResult =
  | { command: 'users list'; users: UserSummary[] }
  | { command: 'users show'; key: string; user: UserDetail | null }
  | { command: 'migrations status'; migrations: MigrationStatus[] };

export const usage = `Usage: npm run admin -- <command> [--json]

  users list [--limit N]          newest users first (default 50)
  users show <id|phone|email>     one user, bound accounts and active sessions
  migrations status               each migration and whether it is applied
  help                            this text

  --json                          print JSON instead of tables`;

const defaultLimit = 50;
const maxLimit = 10_000;

export function parseCommand(words: string[]): Command {
  const [group, action, ...rest] = words;
  const name = `${group ?? ''} ${action ?? ''}`;
  if (name === 'users list') return { name, limit: parseLimit(rest) };
  if (name === 'users show') {
    if (rest.length !== 1 || !rest[0].trim()) throw new UsageError('users show takes one id, phone or e-mail');
    return { name, key: rest[0] };
  }
  if (name === 'migrations status') {
    if (rest.length > 0) throw new UsageError('migrations status takes no arguments');
    return { name };
  }
  throw new UsageError(`unknown command "${words.join(' ')}"`);
}

function parseLimit(rest: string[]): number {
  if (rest.length === 0) return defaultLimit;
  const [flag, value, ...extra] = rest;
  const limit = Number(value);
  if (flag !== '--limit' || extra.length > 0 || !/^\d+$/.test(value ?? '') || limit < 1 || limit > maxLimit) {
    throw new UsageError(`users list takes only --limit N (1 to ${maxLimit})`);
  }
  return limit;
}

export async function runCommand(db: Database, command: Command): Promise<CommandResult> {
  switch (command.name) {
    case 'users list':
      return { command: command.name, users: await listUsers(db, command.limit) };
    case 'users show':
      return { command: command.name, key: command.key, user: await showUser(db, command.key) };
    case 'migrations status':
      return { command: command.name, migrations: await migrationStatus(db) };
  }
}
