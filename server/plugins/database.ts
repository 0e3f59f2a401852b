/**
 * The app's database (DATABASE_URL), opened and migrated at start and closed
 * with the app: `app.db`; and the job queue that lives in it: `app.jobs`.
 * The operators' command opens it `forCommands` (app.ts): not migrated, as only
 * a server migrates, and without the job queue, as a command starts no job
 * (there is no `app.jobs` then, and no module plugin that would use it).
 */
import type { PGlite } from '@electric-sql/pglite';
import fp from 'fastify-plugin';
import { openJobs, type Jobs } from '../db/jobs.ts';
import type { Database } from '../db/database.ts';
import { openDatabase } from '../db/open.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    /** The embedded database's one connection (backups dump it); null on PostgreSQL. */
    pglite: PGlite | null;
    jobs: Jobs;
  }
}

/** How long closing waits for running jobs before it leaves them to be retried. */
const jobsStopTimeoutMs = 10_000;

export default fp<{ forCommands?: boolean }>(
  async (app, { forCommands = false }) => {
    const database = await openDatabase(app.config.DATABASE_URL, {
      migrate: !forCommands,
      progress: (step) => app.log.info(step),
      log: (line) => app.log.warn(line),
      connectTimeoutSeconds: app.config.DATABASE_CONNECT_TIMEOUT,
    });
    app.decorate('db', database.db);
    app.decorate('pglite', database.pglite);
    if (forCommands) {
      app.addHook('onClose', () => database.close());
      return;
    }
    let jobs: Jobs;
    try {
      app.log.info('Starting the job queue…');
      jobs = await openJobs(database, app.config, { warn: (error) => app.log.warn({ err: error }, 'job queue') });
    } catch (error) {
      await database.close();
      throw error;
    }
    app.decorate('jobs', jobs);
    app.addHook('onClose', async () => {
      await jobs.stop({ graceful: true, close: true, timeout: jobsStopTimeoutMs });
      await database.close();
    });
  },
  { name: 'database', dependencies: ['config'] },
);
