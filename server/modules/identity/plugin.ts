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
    // The sign-out has committed either way; when the backplane cannot carry the news (Redis down) it is logged, and those connections last until they drop.
    const endConnections = (sessionIds: string[]) =>
      app.hub.endSessions(sessionIds).catch((error: unknown) => app.log.warn({ err: error }, 'could not end the hub connections of signed-out sessions'));
    const sessions = new SessionStore(app.db, (sessionIds) => void endConnections(sessionIds));
    const users = new UserInfoStore(app.db);
    await sessions.prune();
    if (app.config.DEMO_DATA && (await seedDemoAccount(app.db))) app.log.info('Seeded the demo account');
    app.decorate('authenticate', (accessToken: string) => sessions.authenticate(accessToken));
    identityRoutes(app, sessions, users);
  },
  { name: 'identity', dependencies: ['database', 'keys', 'messengers', 'hub'] },
);
