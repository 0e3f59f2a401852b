/**
 * The operators' vocabulary (`npm run admin -- …`): what a command is, what it
 * runs with, and the registry the modules add theirs to (`app.adminCommands`).
 * Each module owns its commands — their words, their usage lines, how they run
 * and how their result reads on a terminal — and its commands plugin adds them.
 * Both ways of running one take them from this registry: the admin endpoint of
 * a running server (modules/admin) and the CLI on a free database (cli/), so
 * both accept exactly the same words and answer exactly alike.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { CommandResult, OperatorRole } from '#contract/admin.ts';
import type { LocaleCode } from '#contract/locales.ts';
import type { Keyring } from './crypto/keyring.ts';
import type { Actor } from './db/audit.ts';
import type { Database } from './db/database.ts';
import type { Channel, Messenger } from './messages/messenger.ts';
import type { Metrics } from './plugins/metrics.ts';
import type { Pusher } from './realtime/backplane.ts';
import type { Uploads } from './services/file-store.ts';
import type { PaymentProvider, ProviderMethod } from './services/payment-provider.ts';
import type {} from './plugins/config.ts';
import type {} from './plugins/database.ts';
import type {} from './plugins/keys.ts';
import type {} from './plugins/messengers.ts';
import type {} from './plugins/payments.ts';
import type {} from './plugins/uploads.ts';
import type {} from './realtime/pusher.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every operators' command of the modules registered so far. */
    adminCommands: AdminCommands;
    /** The user an operator names by id, phone or e-mail (the identity module's commands plugin provides it). */
    findUser(key: string): Promise<{ id: number } | null>;
  }
}

/** The words do not form a command; the message says which part is wrong. */
export class UsageError extends Error {}

/** What a command runs with: `commandContext` makes it from the app's plugins, on either path. */
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
  /** A payment provider, for refunds; null when it is not configured or cannot be reached from here (a sandbox lives inside a running server). */
  paymentProvider(method: ProviderMethod): PaymentProvider | null;
  /** Where a provider sends its notifications (a refund's outcome). */
  paymentNotifyUrl(method: ProviderMethod): string;
  /** The server's HMAC secret (docs/keys.md), from which cdkeys are derived. */
  secret(): Buffer;
  /** The server's key pairs of sealed calls, in whichever store holds them (`keys rotate`). */
  keyring(): Keyring;
  /** The server's DATA_DIR. */
  dataDir: string;
  /** Where uploaded files are kept (a raffle's cover, what a backup copies). */
  uploads: Uploads;
  /** The configured SMS or e-mail provider (`messages test`). */
  messenger(channel: Channel): Messenger;
  /** Who runs the command, for the audit log. */
  actor: Actor;
  /** The language a refusal is told in: the console user's, or English at the shell. */
  locale: LocaleCode;
  /** What the actor may refund: a support user's limits, null for everyone else. */
  refundLimits: RefundLimits | null;
  /** A file sent with the command (a raffle's cover): the console's upload, or what the CLI read for `readFiles`; null otherwise. */
  attachment: Buffer | null;
}

/** A support user's refund limits (fen): what one order's refunds may come to with theirs, and what theirs may come to in 24 hours. */
export interface RefundLimits {
  perOrder: number;
  perDay: number;
}

/** One command's result, by the command's name. */
export type ResultOf<Name extends CommandResult['command']> = CommandResult & { command: Name };

/** A parsed command, ready to run: parsing needs no database, so a typo costs none. */
export type RunCommand<R extends CommandResult = CommandResult> = (context: CommandContext) => Promise<R>;

interface CommandWords<R extends CommandResult> {
  /** The words that name it: two (`idle set`), or one (`backup`). */
  name: string;
  /** The least role that may run it from the console (contract/admin.ts `operatorRoles`); absent, it runs only at the server's shell. */
  role?: OperatorRole;
  /** Its lines in the usage text, starting with its name and arguments. */
  usage: string;
  /** The result as text for a terminal (`--json` prints it as it is). */
  format(result: R): string;
  /** False when what the command names (a user, an order) does not exist, or it refused: the CLI prints the text to stderr and exits 1. */
  found?(result: R): boolean;
}

/** A command run where the database is: in the running server, or by the CLI when none runs. */
export interface AdminCommand<R extends CommandResult = CommandResult> extends CommandWords<R> {
  local?: false;
  /** The words after its name → the command to run; throws UsageError. */
  parse(rest: string[]): RunCommand<R>;
  /**
   * Words that name files on the operator's machine (`raffle create --file`), which the CLI reads there before the
   * command goes where the database is: it gets the words and attachment a console would send instead. Nothing that
   * runs in a server ever opens a path a caller named. Throws UsageError for a file that cannot be read.
   */
  readFiles?(rest: string[]): { rest: string[]; attachment: Buffer | null };
}

/** A command that runs in the operator's process alone: never through a server, never on DATABASE_URL's database (`restore`). */
export interface LocalCommand<R extends CommandResult = CommandResult> extends CommandWords<R> {
  local: true;
  parse(rest: string[]): () => Promise<R>;
}

export type AnyCommand = AdminCommand | LocalCommand;

/** The commands the modules added, in the order they were added (the usage text's order). */
export class AdminCommands {
  readonly #commands: AnyCommand[] = [];

  get all(): readonly AnyCommand[] {
    return this.#commands;
  }

  add(commands: readonly AnyCommand[]): void {
    for (const command of commands) {
      if (this.#commands.some((known) => known.name === command.name)) throw new Error(`Two operators' commands are named "${command.name}"`);
      this.#commands.push(command);
    }
  }

  /** The command the words start with, and the words after its name; null when none does. */
  find(words: readonly string[]): { command: AnyCommand; rest: string[] } | null {
    return findCommand(this.#commands, words);
  }
}

export function findCommand<C extends { name: string }>(commands: readonly C[], words: readonly string[]): { command: C; rest: string[] } | null {
  const [group = '', action = ''] = words;
  const command = commands.find((candidate) => candidate.name === `${group} ${action}`) ?? commands.find((candidate) => candidate.name === group);
  return command ? { command, rest: words.slice(command.name.split(' ').length) } : null;
}

/** Parses the words typed after `admin` against the commands that run where the database is. */
export function parseCommand(commands: readonly AnyCommand[], words: readonly string[]): RunCommand {
  const found = findCommand(commands, words);
  if (!found || found.command.local) throw new UsageError(`unknown command "${words.join(' ')}"`);
  return found.command.parse(found.rest);
}

/** A command as the CLI hands it where the database is: its words (without --json) and the file it read for them, if any. */
export interface SentCommand {
  words: string[];
  attachment: Buffer | null;
}

/**
 * How the CLI sends a command where the database is: the files its words name are read here, on the operator's
 * side (`readFiles`), and travel as the words and attachment a console would send. `rest` is what `parse` takes.
 */
export function sentFromShell(command: AdminCommand, rest: string[]): SentCommand & { rest: string[] } {
  const read = command.readFiles?.(rest) ?? { rest, attachment: null };
  return { words: [...command.name.split(' '), ...read.rest], rest: read.rest, attachment: read.attachment };
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

/** The registry, `app.adminCommands`, which every module's commands plugin adds to. */
export const adminCommandRegistry = fp(async (app) => void app.decorate('adminCommands', new AdminCommands()), { name: 'admin-commands' });

/** A module's commands as a plugin (`<module>-commands`): it needs nothing opened, so the CLI registers it to parse and show usage. */
export const commandsPlugin = (module: string, commands: readonly AnyCommand[]) =>
  fp(async (app) => app.adminCommands.add(commands), { name: `${module}-commands`, dependencies: ['admin-commands'] });

/** What a command runs with, from the app's plugins: the server's (buildApp) or the CLI's (openForCommands, app.ts). */
export function commandContext(app: FastifyInstance, actor: Actor, locale: LocaleCode = 'en', attachment: Buffer | null = null): CommandContext {
  return {
    actor,
    locale,
    attachment,
    refundLimits: actor.role === 'support' ? { perOrder: app.config.SUPPORT_REFUND_LIMIT_FEN, perDay: app.config.SUPPORT_REFUND_DAILY_LIMIT_FEN } : null,
    db: app.db,
    pglite: app.pglite,
    pusher: app.pusher,
    // Only a server counts what happens (the CLI's app has no metrics plugin).
    metrics: app.hasDecorator('metrics') ? app.metrics : null,
    findUser: (key) => app.findUser(key),
    paymentProvider: (method) => app.payments.provider(method),
    paymentNotifyUrl: (method) => app.payments.channel(method).notifyUrl(),
    secret: () => app.keys.secret,
    keyring: () => app.keys.keyring,
    dataDir: app.config.DATA_DIR,
    uploads: app.uploads,
    messenger: (channel) => app[channel],
  };
}
