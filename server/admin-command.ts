/**
 * How the server runs the operators' commands declared in contract/commands/:
 * each module's commands plugin adds a handler per declaration to the app's
 * registry (`app.adminCommands`) — how it runs, with the app and the caller as
 * a route runs with the app and the request, and how its result reads on a
 * terminal. Every way of running one goes through `runCommand`: the console's
 * route (modules/operators), the admin endpoint of a running server
 * (modules/admin) and the CLI on a free database (cli/), so all three take
 * the same arguments, checked by the same schema, and answer alike.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { OperatorRole } from '#contract/admin.ts';
import { checkArgs, UsageError, type Command, type ParsedArgsOf, type ResultOf } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import { roleIncludes } from '#contract/console.ts';
import type { LocaleCode } from '#contract/locales.ts';
import type { Actor } from './db/audit.ts';
import { message, type MessageKey } from './i18n/messages.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The handler of every operators' command the modules registered so far. */
    adminCommands: AdminCommands;
  }
}

/** Who runs a command and what they sent with it. */
export interface Caller {
  /** Who runs it, for the audit log. */
  actor: Actor;
  /** The language a refusal is told in: the console user's, or English at the shell. */
  locale: LocaleCode;
  /** A file sent with the command (a raffle's cover): the console's upload, or what the CLI read for `readFiles`; null otherwise. */
  attachment: Buffer | null;
}

/** How one declared command runs, and how its result reads on a terminal. */
export interface CommandHandler<C extends Command = Command> {
  command: C;
  /** Runs it with the app's decorators (`app.db`, `app.pusher`, …), as a route does. */
  run(app: FastifyInstance, args: ParsedArgsOf<C>, caller: Caller): Promise<ResultOf<C>>;
  /** The result as text for a terminal (`--json` prints it as it is). */
  format(result: ResultOf<C>): string;
  /** False when what the command names (a user, an order) does not exist, or it refused: the CLI prints the text to stderr and exits 1. */
  found?(result: ResultOf<C>): boolean;
  /**
   * Words that name files on the operator's machine (`raffle create --file`), which the CLI reads there before the
   * command goes where the database is: it gets the words and attachment a console would send instead. Nothing that
   * runs in a server ever opens a path a caller named. Throws UsageError for a file that cannot be read.
   */
  readFiles?(rest: string[]): { rest: string[]; attachment: Buffer | null };
}

/** A handler of the command, typed by its declaration. */
export function handle<C extends Command>(command: C, handler: NoInfer<Omit<CommandHandler<C>, 'command'>>): CommandHandler {
  return { command, ...handler } as unknown as CommandHandler;
}

/** The handlers the modules added, by their command's name. */
export class AdminCommands {
  readonly #handlers = new Map<string, CommandHandler>();

  add(handlers: readonly CommandHandler[]): void {
    for (const handler of handlers) {
      const { name } = handler.command;
      if (this.#handlers.has(name)) throw new Error(`Two handlers of the operators' command "${name}"`);
      if (!operatorCommands.some((declared) => declared === handler.command))
        throw new Error(`The operators' command "${name}" is not declared in contract/commands.ts`);
      this.#handlers.set(name, handler);
    }
  }

  /** The handler of the command named so; null for a name no module handles. */
  get(name: string): CommandHandler | null {
    return this.#handlers.get(name) ?? null;
  }
}

/**
 * Runs the command named so with the arguments sent (checked against its declaration) where the database is. `role`:
 * the console session's, which must include the command's; null at the server's shell, which may run every command that
 * is not the CLI's alone. Throws UsageError for a name or arguments the command does not take.
 */
export async function runCommand(app: FastifyInstance, name: string, args: unknown, caller: Caller, role: OperatorRole | null): Promise<unknown> {
  const handler = app.adminCommands.get(name);
  if (!handler || handler.command.local || (role !== null && !handler.command.role)) throw new UsageError(`unknown command "${name}"`);
  if (role !== null && !roleIncludes(role, handler.command.role!)) throw new RoleTooLowError();
  const result = await handler.run(app, checkArgs(handler.command, args), caller);
  // As a route's answer: a result outside its declaration fails loudly outside production, so a test sees the drift.
  if (app.config.NODE_ENV !== 'production') handler.command.result.parse(result);
  return result;
}

/** Why a command did nothing: a message of the server's dictionary, told in the caller's language (`refusalText`). */
export interface Refusal {
  key: MessageKey;
  params?: Record<string, string>;
}

/** A refusal in the caller's language: the console user's, or English at the shell. */
export const refusalText = ({ locale }: Pick<Caller, 'locale'>, refusal: Refusal): string => message(locale, refusal.key, refusal.params);

/**
 * A refusal of a command whose result has no room for one (`cdkey create` of a batch name taken): a UsageError whose
 * message is the refusal in English, for the shell; the console answers it in the operator's language.
 */
export class CommandRefused extends UsageError {
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super(refusalText({ locale: 'en' }, refusal));
    this.refusal = refusal;
  }
}

/** The console session's role does not include the command's. */
export class RoleTooLowError extends Error {}

/** The registry, `app.adminCommands`, which every module's commands plugin adds to. */
export const adminCommandRegistry = fp(async (app) => void app.decorate('adminCommands', new AdminCommands()), { name: 'admin-commands' });

/** A module's command handlers as a plugin (`<module>-commands`): it needs nothing opened, so the CLI registers it too. */
export const commandsPlugin = (module: string, handlers: readonly CommandHandler[]) =>
  fp(async (app) => app.adminCommands.add(handlers), { name: `${module}-commands`, dependencies: ['admin-commands'] });
