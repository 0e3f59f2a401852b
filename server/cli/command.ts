/**
 * What an operators' command is (`npm run admin -- …`). Each module owns its
 * commands; `server/commands.ts` lists them for both ways of running one —
 * the CLI on a free database, and the admin endpoint of a running server — so
 * both accept exactly the same words and answer exactly alike.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { CommandResult } from '#contract/admin.ts';
import type { Database } from '../db/database.ts';
import type { Metrics } from '../plugins/metrics.ts';
import type { Pusher } from '../realtime/backplane.ts';
import type { PaymentProvider } from '../services/wechatpay-adapter.ts';

/** The words do not form a command; the message says which part is wrong. */
export class UsageError extends Error {}

/** What a command runs with. */
export interface CommandContext {
  db: Database;
  /** The embedded database's one connection, which a backup dumps; null on PostgreSQL. */
  pglite: PGlite | null;
  /** Sends what a command changes to open pages; null when there is no way to reach them. */
  pusher: Pusher | null;
  /** The running server's metrics, which count what a command settles (a refund); null when the command runs without a server. */
  metrics: Metrics | null;
  /** The user an operator names by id, phone or e-mail. */
  findUser(key: string): Promise<{ id: number } | null>;
  /** The payment provider, for refunds; null when it cannot be reached from here (the sandbox lives inside a running server). */
  paymentProvider(): PaymentProvider | null;
  /** The server's HMAC secret (DATA_DIR/keys), from which cdkeys are derived. */
  secret(): Buffer;
  /** The server's DATA_DIR, where uploaded files are kept. */
  dataDir: string;
}

/** A parsed command, ready to run: parsing needs no database, so a typo costs none. */
export type RunCommand = (context: CommandContext) => Promise<CommandResult>;

export interface AdminCommand {
  /** The words that name it: two (`idle set`), or one (`backup`). */
  name: string;
  /** Its lines in the usage text, starting with its name and arguments. */
  usage: string;
  /** The words after its name → the command to run; throws UsageError. */
  parse(rest: string[]): RunCommand;
}

/** A command that runs in the operator's process alone: never through a server, never on DATABASE_URL's database (`restore`). */
export interface LocalCommand {
  name: string;
  usage: string;
  parse(rest: string[]): () => Promise<CommandResult>;
}

/** The command the words start with, and the words after its name; null when none does. */
export function findCommand<C extends { name: string }>(commands: readonly C[], words: string[]): { command: C; rest: string[] } | null {
  const [group = '', action = ''] = words;
  const command = commands.find((candidate) => candidate.name === `${group} ${action}`) ?? commands.find((candidate) => candidate.name === group);
  return command ? { command, rest: words.slice(command.name.split(' ').length) } : null;
}

/** Parses the words typed after `admin` against the known commands. */
export function parseCommand(commands: readonly AdminCommand[], words: string[]): RunCommand {
  const found = findCommand(commands, words);
  if (!found) throw new UsageError(`unknown command "${words.join(' ')}"`);
  return found.command.parse(found.rest);
}

export function usage(commands: ReadonlyArray<{ usage: string }>): string {
  const lines = commands.map((command) => `  ${command.usage}`).join('\n');
  return `Usage: npm run admin -- <command> [--json]\n\n${lines}\n  help                            this text\n\n  --json                          print JSON instead of tables`;
}

/** One user named by id, phone or e-mail, and nothing else. */
export function oneUser(name: string, rest: string[]): string {
  if (rest.length !== 1 || !rest[0].trim() || rest[0].startsWith('--')) throw new UsageError(`${name} takes one user id, phone or e-mail`);
  return rest[0];
}

/** False when the user a command names does not exist. */
export function foundWhatWasAsked(result: CommandResult): boolean {
  if (result.command === 'users show') return result.user !== null;
  if (result.command === 'idle show' || result.command === 'idle set' || result.command === 'idle games') return result.userId !== null;
  if (result.command === 'order fulfil' || result.command === 'order refund') return result.order !== null;
  if (result.command === 'cdkey export' || result.command === 'cdkey show') return result.batch !== null;
  if (result.command === 'cdkey check') return result.state !== null;
  if (result.command === 'donation hide' || result.command === 'donation show') return result.donation !== null;
  if (result.command === 'backup' || result.command === 'restore') return result.refused === null;
  if (result.command.startsWith('raffle ') && 'raffle' in result) return result.raffle !== null && result.refused === null;
  return true;
}
