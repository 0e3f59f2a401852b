import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { DatabaseLockedError } from './db/open.ts';
import { removeAdminFile, writeAdminFile } from './modules/admin/admin-file.ts';

const config = loadConfig();
const app = await buildApp(config).catch((error: unknown) => {
  if (!(error instanceof DatabaseLockedError)) throw error;
  console.error(`\n  ${error.message}\n`);
  process.exit(1);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    app.log.info(`${signal} received, closing`);
    removeAdminFile(config.DATA_DIR, app.context.adminToken);
    await app.close();
    process.exit(0);
  });
}

await app.listen({ port: config.PORT, host: config.HOST });
const { port } = app.server.address() as { port: number };
// How `npm run admin` reaches this server: it may hold the database folder, and only it can push to its open pages.
writeAdminFile(config.DATA_DIR, { port, token: app.context.adminToken, databaseUrl: config.DATABASE_URL });
console.log(`\n  Beacon Toolkit is running at http://localhost:${port}\n`);
