/**
 * What an operators' command is, declared once like a route: its name, the
 * least console role that may run it, its arguments and its result (zod
 * schemas), and the words a person types for it at the shell (`usage`, and
 * `words`, which turns them into the arguments). The CLI parses words into
 * arguments; the console sends the arguments themselves (`{ Command, Args }`,
 * console.ts) and gets the result typed by the declaration. Each module
 * declares its commands in contract/commands/<module>.ts; the server runs
 * them (server/admin-command.ts).
 */
import * as z from 'zod/mini';
import type { OperatorRole } from './admin.ts';
import { text } from './fields.ts';

/** The words do not form the command; the message says which part is wrong. */
export class UsageError extends Error {}

interface Declaration<N extends string, A extends z.ZodMiniType, S extends z.core.$ZodLooseShape> {
  /** The words that name it: two (`idle set`), or one (`backup`). */
  name: N;
  /** The least role that may run it from the console; absent, it runs only at the server's shell. */
  role?: OperatorRole;
  /** It runs in the operator's own process alone: never through a server, never on DATABASE_URL's database (`restore`). */
  local?: true;
  /** Its lines in the usage text, starting with its name and arguments. */
  usage: string;
  args: A;
  /** The result's fields; the result also names its command (`command`), as `--json` prints it. */
  result: S;
  /** The words typed after its name → its arguments, which `args` then checks; throws UsageError for words it cannot read. */
  words(rest: string[]): { [K in keyof z.input<A>]?: unknown };
}

export type Command<N extends string = string, A extends z.ZodMiniType = z.ZodMiniType, R extends z.ZodMiniType = z.ZodMiniType> = Omit<
  Declaration<N, A, z.core.$ZodLooseShape>,
  'result'
> & { result: R };

/** A command's declaration, its result schema naming the command. */
export function command<const N extends string, A extends z.ZodMiniType, S extends z.core.$ZodLooseShape>(declaration: Declaration<N, A, S>) {
  return { ...declaration, result: z.object({ command: z.literal(declaration.name), ...declaration.result }) };
}

export type ArgsOf<C extends Command> = z.input<C['args']>;
export type ParsedArgsOf<C extends Command> = z.output<C['args']>;
export type ResultOf<C extends Command> = z.output<C['result']>;

/** The arguments of a command that takes none. */
export const NoArgs = z.strictObject({});

/** `words` of a command that takes nothing after its name. */
export const noWords =
  (name: string) =>
  (rest: string[]): Record<string, never> => {
    if (rest.length > 0) throw new UsageError(`${name} takes nothing more`);
    return {};
  };

/** A user named by id, phone or e-mail, as operators type one. */
export const UserKey = text(z.minLength(1), z.maxLength(320));

/** `words` of a command that takes one user named by id, phone or e-mail, and nothing else. */
export const oneUserWord =
  (name: string) =>
  (rest: string[]): { user: string } => {
    if (rest.length !== 1 || !rest[0].trim() || rest[0].startsWith('--')) throw new UsageError(`${name} takes one user id, phone or e-mail`);
    return { user: rest[0] };
  };

/** The command the words start with, and the words after its name; null when none does. */
export function findCommand<C extends { name: string }>(commands: readonly C[], words: readonly string[]): { command: C; rest: string[] } | null {
  const [group = '', action = ''] = words;
  const found = commands.find((candidate) => candidate.name === `${group} ${action}`) ?? commands.find((candidate) => candidate.name === group);
  return found ? { command: found, rest: words.slice(found.name.split(' ').length) } : null;
}

/** A command's arguments checked against its declaration; a failure is a UsageError naming the field. */
export function checkArgs<C extends Command>(declared: C, args: unknown): ParsedArgsOf<C> {
  const checked = declared.args.safeParse(args);
  if (checked.success) return checked.data as ParsedArgsOf<C>;
  const issue = checked.error.issues[0];
  const field = issue.path.length ? `${issue.path.join('.')}: ` : '';
  throw new UsageError(`${declared.name}: ${field}${issue.message}`);
}

/** The typed words → the command they name and its checked arguments; throws UsageError. */
export function parseWords<C extends Command>(commands: readonly C[], words: readonly string[]): { command: C; args: ParsedArgsOf<C> } {
  const found = findCommand(commands, words);
  if (!found) throw new UsageError(`unknown command "${words.join(' ')}"`);
  return { command: found.command, args: checkArgs(found.command, found.command.words(found.rest)) };
}

/** The usage text of the commands, in their order. */
export function usage(commands: ReadonlyArray<{ usage: string }>): string {
  const lines = commands.map((declared) => `  ${declared.usage}`).join('\n');
  return `Usage: npm run admin -- <command> [--json]\n\n${lines}\n  help                            this text\n\n  --json                          print JSON instead of tables`;
}
