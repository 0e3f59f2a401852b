/**
 * `npm start`: builds the app, listens, tells the operators' command where it
 * is, and on SIGTERM or SIGINT closes gracefully within a deadline — requests
 * in flight finish, hub clients are told to reconnect elsewhere, the database
 * is closed — or exits with an error when the deadline passes.
 */
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

closeWithGrace({ delay: closeDeadlineMs, logger: app.log }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an error');
  else app.log.info(`${signal} received, closing`);
  removeAdminFile(config.DATA_DIR, app.adminToken);
  await app.close();
});

await app.listen({ port: config.PORT, host: config.HOST });
const { port } = app.server.address() as { port: number };
// How `npm run admin` reaches this server: it may hold the database folder, and only it can push to its open pages.
writeAdminFile(config.DATA_DIR, { port, token: app.adminToken, database: databaseFingerprint(config.DATABASE_URL) });
console.log(`\n  Beacon Toolkit is running at http://localhost:${port}\n`);
