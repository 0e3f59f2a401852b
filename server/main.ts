/**
 * `npm start`: builds the app, listens, tells the operators' command where it
 * is, and on SIGTERM or SIGINT closes gracefully within a deadline — it keeps
 * listening until connections stop coming (a proxy took it out), then requests
 * in flight finish, hub clients are told to reconnect elsewhere, the database
 * is closed — or exits with an error when the deadline passes.
 */
import type { Server } from 'node:http';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { databaseFingerprint, removeAdminFile, writeAdminFile } from './modules/admin/admin-file.ts';
import { StartupError } from './startup-error.ts';

/** How long closing may take before the process gives up and exits. */
const closeDeadlineMs = 10_000;

/** A setting or a database the operator must fix: its message, not a stack. */
function exitWith(error: unknown): never {
  if (!(error instanceof StartupError)) throw error;
  console.error(`\n  ${error.message.replaceAll('\n', '\n  ')}\n`);
  process.exit(1);
}

const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    return exitWith(error);
  }
})();
const app = await buildApp(config).catch(exitWith);

/** How long no new connection must come before a closing instance stops listening, and the most it waits for that. */
const lameDuck = { quietMs: 500, mostMs: 3_000 };

/** Resolves once `server` has taken no connection for `lameDuck.quietMs`, or after `lameDuck.mostMs` at the latest. */
function quietListener(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(quiet);
      clearTimeout(most);
      server.off('connection', restart);
      resolve();
    };
    let quiet = setTimeout(done, lameDuck.quietMs);
    const most = setTimeout(done, lameDuck.mostMs);
    const restart = () => {
      clearTimeout(quiet);
      quiet = setTimeout(done, lameDuck.quietMs);
    };
    server.on('connection', restart);
  });
}

closeWithGrace({ delay: closeDeadlineMs, logger: app.log }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an error');
  else app.log.info(`${signal} received, closing`);
  removeAdminFile(config.DATA_DIR, app.adminToken);
  // A proxy that took this instance out may still send it what it had in hand under its old configuration (an nginx
  // worker finishing its requests after a reload): closing stops listening, which resets the connections the kernel had
  // accepted but the process had not taken yet, so it waits for the connections to stop coming first.
  if (!err) await quietListener(app.server);
  await app.close();
});

await app.listen({ port: config.PORT, host: config.HOST });
const { port } = app.server.address() as { port: number };
// How `npm run admin` reaches this server: it may hold the database folder, and only it can push to its open pages.
writeAdminFile(config.DATA_DIR, { port, token: app.adminToken, database: databaseFingerprint(config.DATABASE_URL) });
console.log(`\n  Beacon Toolkit is running at http://localhost:${port}\n`);
