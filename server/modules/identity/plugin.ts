/**
 * The identity module (spec §7): its calls, the sessions behind bearer tokens
 * — which it provides to every route as `app.authenticate` — and the demo
 * account. A session that ends closes its live hub connections at once.
 */
import fp from 'fastify-plugin';
import { seedDemoAccount } from './demo.ts';
import { identityRoutes } from './routes.ts';
import { SessionStore } from './sessions.ts';
import { UserInfoStore } from './users.ts';

export default fp(
  async (app) => {
    const sessions = new SessionStore(app.db, (sessionIds) => void app.hub.endSessions(sessionIds));
    const users = new UserInfoStore(app.db);
    await sessions.prune();
    if (app.config.DEMO_DATA && (await seedDemoAccount(app.db))) app.log.info('Seeded the demo account');
    app.decorate('authenticate', (accessToken: string) => sessions.authenticate(accessToken));
    identityRoutes(app, sessions, users);
  },
  { name: 'identity', dependencies: ['database', 'keys', 'messengers', 'hub'] },
);
