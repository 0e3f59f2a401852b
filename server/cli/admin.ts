/**
 * `npm run admin -- <command> [--json]`: the operators' command (README.md
 * next to this file). Exit codes: 0 done, 1 failed or not found, 2 usage.
 * The commands are the modules' own, from the same plugins as the server's
 * (`commandApp`); each formats its own result.
 */
import path from 'node:path';
import type { CommandResult } from '#contract/admin.ts';
import { sentFromShell, usage, UsageError, type AnyCommand } from '../admin-command.ts';
import { commandApp } from '../command-app.ts';
import { loadConfig, type Config } from '../config.ts';
import { CliError, runAdminCommand } from './run.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
// The file a backup writes is named as the operator typed it, but written by the server, which may run elsewhere in the file system.
const isBackupFile = (arg: string, i: number, all: string[]) => all[0] === 'backup' && i > 0 && !arg.startsWith('--');
const words = args.filter((arg) => arg !== '--json').map((arg, i, all) => (isBackupFile(arg, i, all) ? path.resolve(arg) : arg));
const app = await commandApp();
const commands = app.adminCommands;

/** The command the words name, and how to run it: a local one here, any other where the database is. */
function parseOrExit(): { command: AnyCommand; run: () => Promise<CommandResult> } {
  try {
    const found = commands.find(words);
    if (!found) throw new UsageError(`unknown command "${words.join(' ')}"`);
    const { command, rest } = found;
    if (command.local) return { command, run: command.parse(rest) };
    const sent = sentFromShell(command, rest);
    const run = command.parse(sent.rest);
    return { command, run: () => runAdminCommand(configOrExit(), app, run, sent) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${usage(commands.all)}`);
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
  console.log(usage(commands.all));
} else {
  const { command, run } = parseOrExit();
  try {
    const result = await run();
    const found = command.found?.(result) ?? true;
    if (json) console.log(JSON.stringify(result, null, 2));
    else (found ? console.log : console.error)(command.format(result));
    if (!found) process.exitCode = 1;
  } catch (error) {
    // Failures the operator can act on are told plainly; anything else keeps its stack.
    if (!(error instanceof CliError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}
