/**
 * `npm run admin -- <command> [--json]`: the operators' command (README.md
 * next to this file). Exit codes: 0 done, 1 failed or not found, 2 usage.
 * The words are parsed here into the command's arguments, against its
 * declaration (contract/commands/); the modules' handlers — the same plugins
 * as the server's (`commandApp`) — run it and format its result.
 */
import path from 'node:path';
import { checkArgs, findCommand, usage, UsageError } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import type { CommandHandler } from '../admin-command.ts';
import { commandApp } from '../command-app.ts';
import { loadConfig, type Config } from '../config.ts';
import { shellActor } from '../db/audit.ts';
import { CliError, operator, runAdminCommand, type SentCommand } from './run.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
// The file a backup writes is named as the operator typed it, but written by the server, which may run elsewhere in the file system.
const isBackupFile = (arg: string, i: number, all: string[]) => all[0] === 'backup' && i > 0 && !arg.startsWith('--');
const words = args.filter((arg) => arg !== '--json').map((arg, i, all) => (isBackupFile(arg, i, all) ? path.resolve(arg) : arg));
const app = await commandApp();

/** The command the words name, its handler and what goes where the database is: its arguments, and the file its words name, read here. */
function parseOrExit(): { handler: CommandHandler; sent: SentCommand } {
  try {
    const found = findCommand(operatorCommands, words);
    const handler = found && app.adminCommands.get(found.command.name);
    if (!found || !handler) throw new UsageError(`unknown command "${words.join(' ')}"`);
    const read = handler.readFiles?.(found.rest) ?? { rest: found.rest, attachment: null };
    return { handler, sent: { command: found.command.name, args: checkArgs(found.command, found.command.words(read.rest)), attachment: read.attachment } };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${usage(operatorCommands)}`);
    process.exit(2);
  }
}

/** A bad environment variable is the operator's to fix: its message, not a stack. */
function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

if (words.length === 0 || ['help', '--help', '-h'].includes(words[0])) {
  console.log(usage(operatorCommands));
} else {
  const { handler, sent } = parseOrExit();
  try {
    const result = handler.command.local
      ? await handler.run(app, sent.args, { actor: shellActor(operator(), null), locale: 'en', attachment: null })
      : await runAdminCommand(configOrExit(), app, sent);
    const found = handler.found?.(result) ?? true;
    if (json) console.log(JSON.stringify(result, null, 2));
    else (found ? console.log : console.error)(handler.format(result));
    if (!found) process.exitCode = 1;
  } catch (error) {
    // Failures the operator can act on are told plainly; anything else keeps its stack.
    if (!(error instanceof CliError) && !(error instanceof UsageError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}
