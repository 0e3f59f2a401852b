/**
 * Makes the embedded database in a new folder in a short-lived child process
 * (new-folder-process.ts): creating a PGlite database and applying every
 * migration grows its WebAssembly memory to some 450 MB and the process to
 * 1.2 GB at its peak, and a process keeps most of that resident after the
 * database is closed. Made elsewhere, a first start holds no more than every
 * later start (about 300 MB at rest instead of about 740 MB).
 *
 * There is no deadline: on a busy machine creation takes as long as it takes,
 * and a child that fails says why in the error this rejects with.
 */
import { fork } from 'node:child_process';
import { StartupError } from '../startup-error.ts';

/** What the child sends: a step as it starts, or why it failed. */
export type CreationMessage = { progress: string } | { failed: string };

export function createFolderDatabase(folder: string, options: { migrate: boolean; progress: (step: string) => void }): Promise<void> {
  const child = fork(new URL('./new-folder-process.ts', import.meta.url), [folder, options.migrate ? 'migrate' : 'bare'], {
    // Not the parent's flags: a profiler's or an inspector's would follow it into the child.
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let failure: string | undefined;
  child.on('message', (message: CreationMessage) => {
    if ('progress' in message) options.progress(message.progress);
    else failure = message.failed;
  });
  return new Promise((resolve, reject) => {
    child.on('error', (error) => reject(new StartupError(`Could not start creating the database in ${folder}: ${error.message}`)));
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new StartupError(`Creating the database in ${folder} failed: ${failure ?? (signal ? `stopped by ${signal}` : `exit code ${code}`)}`));
    });
  });
}
