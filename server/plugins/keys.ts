/** The server's key pairs and token secret, from the database (KEYS_SEALING_KEY) or `<DATA_DIR>/keys`, made on first start: `app.keys`. */
import fp from 'fastify-plugin';
import { loadKeys, type ServerKeys } from '../crypto/keys.ts';

declare module 'fastify' {
  interface FastifyInstance {
    keys: ServerKeys;
  }
}

export default fp(
  async (app) => {
    app.decorate('keys', await loadKeys(app.config, app.db, (step) => app.log.info(step)));
  },
  { name: 'keys', dependencies: ['config', 'database'] },
);
