/** The app's database (DATABASE_URL), opened and migrated at start and closed with the app: `app.db`. */
import fp from 'fastify-plugin';
import { openDatabase, type Database } from '../db/open.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
  }
}

export default fp(
  async (app) => {
    const database = await openDatabase(app.config.DATABASE_URL, { log: (line) => app.log.warn(line) });
    app.decorate('db', database.db);
    app.addHook('onClose', () => database.close());
  },
  { name: 'database', dependencies: ['config'] },
);
