/**
 * `npm run admin -- <command> [--json]`: the operators' command (README.md
 * next to this file). Exit codes: 0 done, 1 failed or not found, 2 usage.
 */
import path from 'node:path';
import type { CommandResult } from '#contract/admin.ts';
import { adminCommands, localCommands } from '../commands.ts';
import { loadConfig, type Config } from '../config.ts';
import { findCommand, foundWhatWasAsked, parseCommand, usage, UsageError } from './command.ts';
import { formatResult } from './print.ts';
import { CliError, runAdminCommand } from './run.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
// A file the command reads (or a backup writes) is named as the operator typed it, but opened by the server, which may run elsewhere in the file system.
const isFile = (arg: string, i: number, all: string[]) => all[i - 1] === '--file' || (all[0] === 'backup' && i > 0 && !arg.startsWith('--'));
const words = args.filter((arg) => arg !== '--json').map((arg, i, all) => (isFile(arg, i, all) ? path.resolve(arg) : arg));
const commands = [...adminCommands, ...localCommands];

/** The command to run: a local one here, any other where the database is. */
function parseOrExit(): () => Promise<CommandResult> {
  try {
    const local = findCommand(localCommands, words);
    if (local) return local.command.parse(local.rest);
    const run = parseCommand(adminCommands, words);
    return () => runAdminCommand(configOrExit(), run, words);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${usage(commands)}`);
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
  console.log(usage(commands));
} else {
  const run = parseOrExit();
  try {
    const result = await run();
    const found = foundWhatWasAsked(result);
    if (json) console.log(JSON.stringify(result, null, 2));
    else (found ? console.log : console.error)(formatResult(result));
    if (!found) process.exitCode = 1;
  } catch (error) {
    // Failures the operator can act on are told plainly; anything else keeps its stack.
    if (!(error instanceof CliError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}
