/**
 * The operators' commands (`npm run admin -- …`): parsed from the words typed
 * after `admin`, then run against a database. The CLI parses before it opens
 * anything, so a typo costs no database; the admin endpoint parses the same
 * words again, so a running server accepts exactly what the CLI accepts.
 */
import { CloudIdleState, CloudIdleUpdate, IdledGame, type CloudIdleStatus } from '../../../contract/realtime.ts';
import type { Database } from '../../db/open.ts';
import { readCloudIdleStatus, setCloudIdleStatus, type Pusher } from '../cloud-idle/status.ts';
import { findUser, listUsers, migrationStatus, showUser, type MigrationStatus, type UserDetail, type UserSummary } from './queries.ts';

/** The words do not form a command; the message says which part is wrong. */
export class UsageError extends Error {}

export type Command =
  | { name: 'users list'; limit: number }
  | { name: 'users show'; key: string }
  | { name: 'idle show'; key: string }
  | { name: 'idle set'; key: string; update: CloudIdleUpdate }
  | { name: 'migrations status' };

export type CommandResult =
  | { command: 'users list'; users: UserSummary[] }
  | { command: 'users show'; key: string; user: UserDetail | null }
  | { command: 'idle show'; key: string; userId: number | null; status: CloudIdleStatus | null }
  /** `pushed`: sent to the user's open pages (false when no server could be reached to do it). */
  | { command: 'idle set'; key: string; userId: number | null; status: CloudIdleStatus | null; pushed: boolean }
  | { command: 'migrations status'; migrations: MigrationStatus[] };

/** False when the user a command names does not exist. */
export function foundWhatWasAsked(result: CommandResult): boolean {
  if (result.command === 'users show') return result.user !== null;
  if (result.command === 'idle show' || result.command === 'idle set') return result.userId !== null;
  return true;
}

export const usage = `Usage: npm run admin -- <command> [--json]

  users list [--limit N]          newest users first (default 50)
  users show <id|phone|email>     one user, bound accounts and active sessions
  idle show <user>                a user's cloud-idling status
  idle set <user> --state <state> [--game <appid>:<cards>:<name>]... [--cards N]
                                  store a user's cloud-idling status and push it
                                  to their open pages; state is one of
                                  ${CloudIdleState.options.join(', ')}; each --game
                                  is a game being idled and the cards it has left;
                                  --cards is the account's total (default: the
                                  games' sum)
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
  if (name === 'idle show') return { name, key: oneUser(name, rest) };
  if (name === 'idle set') return { name, key: oneUser(name, rest.slice(0, 1)), update: parseIdleUpdate(rest.slice(1)) };
  if (name === 'migrations status') {
    if (rest.length > 0) throw new UsageError('migrations status takes no arguments');
    return { name };
  }
  throw new UsageError(`unknown command "${words.join(' ')}"`);
}

function oneUser(name: string, rest: string[]): string {
  if (rest.length !== 1 || !rest[0].trim() || rest[0].startsWith('--')) throw new UsageError(`${name} takes one user id, phone or e-mail`);
  return rest[0];
}

/** `--state S [--game appid:cards:name]... [--cards N]`; a name may itself hold colons. */
function parseIdleUpdate(flags: string[]): CloudIdleUpdate {
  let state: string | undefined;
  let cards: number | undefined;
  const games: IdledGame[] = [];
  for (let i = 0; i < flags.length; i += 2) {
    const [flag, value] = [flags[i], flags[i + 1]];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--state') state = value;
    else if (flag === '--cards') cards = /^\d+$/.test(value) ? Number(value) : NaN;
    else if (flag === '--game') games.push(parseGame(value));
    else throw new UsageError(`idle set does not know ${flag}`);
  }
  const parsedState = CloudIdleState.safeParse(state);
  if (!parsedState.success) throw new UsageError(`idle set needs --state, one of ${CloudIdleState.options.join(', ')}`);
  const total = cards ?? games.reduce((sum, game) => sum + game.CardsRemaining, 0);
  if (!Number.isSafeInteger(total) || total < 0) throw new UsageError('--cards takes a whole number of cards');
  const update = CloudIdleUpdate.safeParse({ State: parsedState.data, Games: games, CardsRemaining: total });
  if (!update.success) throw new UsageError(`idle set: ${update.error.issues[0].path.join('.')} ${update.error.issues[0].message}`);
  return update.data;
}

function parseGame(value: string): IdledGame {
  const match = /^(\d+):(\d+):(.+)$/.exec(value);
  const game = match ? IdledGame.safeParse({ AppId: Number(match[1]), CardsRemaining: Number(match[2]), Name: match[3].trim() }) : null;
  if (!game?.success) throw new UsageError(`--game takes <appid>:<cards>:<name>, e.g. 730:3:Counter-Strike 2 (got "${value}")`);
  return game.data;
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

/** `pusher` sends what a command changes to open pages; null when there is no way to reach them. */
export async function runCommand(db: Database, command: Command, pusher: Pusher | null): Promise<CommandResult> {
  switch (command.name) {
    case 'users list':
      return { command: command.name, users: await listUsers(db, command.limit) };
    case 'users show':
      return { command: command.name, key: command.key, user: await showUser(db, command.key) };
    case 'idle show': {
      const user = await findUser(db, command.key.trim());
      return { command: command.name, key: command.key, userId: user?.id ?? null, status: user ? await readCloudIdleStatus(db, user.id) : null };
    }
    case 'idle set': {
      const user = await findUser(db, command.key.trim());
      if (!user) return { command: command.name, key: command.key, userId: null, status: null, pushed: false };
      const status = await setCloudIdleStatus(db, pusher, user.id, command.update);
      return { command: command.name, key: command.key, userId: user.id, status, pushed: pusher !== null };
    }
    case 'migrations status':
      return { command: command.name, migrations: await migrationStatus(db) };
  }
}
