/**
 * The identity module (contract/identity.ts): its calls, the sessions behind bearer tokens
 * — which it provides to every route as `app.authenticate` — the account's own
 * codes other modules check (`app.accountCodes`), and the demo
 * account. A session that ends closes its live hub connections at once.
 */
import fp from 'fastify-plugin';
import { avatarFilesPath } from '#contract/account.ts';
import { serveStore } from '../../services/file-store.ts';
import { apiBase } from '../../config.ts';
import { accountCodes } from './account-codes.ts';
import { accountEnding } from './account-ending.ts';
import { accountRoutes } from './account-routes.ts';
import { seedDemoAccount } from './demo.ts';
import { pruneDeviceRequests } from './device-login.ts';
import { pruneExternalLogins } from './external/routes.ts';
import { pruneLoginHistory } from './login-history.ts';
import { identityRoutes } from './routes.ts';
import { SessionStore } from './sessions.ts';
import { UserInfoStore } from './users.ts';

export default fp(
  async (app) => {
    // The sign-out has committed either way; when the backplane cannot carry the news (Redis down) it is logged, and those connections last until they drop.
    const endConnections = (sessionIds: string[]) =>
      app.hub.endSessions(sessionIds).catch((error: unknown) => app.log.warn({ err: error }, 'could not end the hub connections of signed-out sessions'));
    const sessions = new SessionStore(app.db, (sessionIds) => void endConnections(sessionIds));
    // However a session ended (a sign-out on another instance, an operator's `session end`), the backplane tells every instance.
    app.hub.onSessionsEnded((sessionIds) => sessions.forget(sessionIds));
    const users = new UserInfoStore(app.db, apiBase(app.config) + avatarFilesPath);
    await sessions.prune();
    await pruneLoginHistory(app.db);
    await pruneExternalLogins(app.db);
    await pruneDeviceRequests(app.db);
    if (app.config.DEMO_DATA && (await seedDemoAccount(app.db))) app.log.info('Seeded the demo account');
    app.decorate('authenticate', (accessToken: string) => sessions.authenticate(accessToken));
    app.decorate('accountCodes', accountCodes(app.db, app.keys.secret));
    // Modules registered after this one add what a deleted account loses with them, and what must end first.
    app.decorate('accountEnding', accountEnding());
    const avatars = app.uploads.store('avatars');
    serveStore(app, avatars, avatarFilesPath);
    accountRoutes(app, sessions, users, avatars);
    await identityRoutes(app, sessions, users);
  },
  { name: 'identity', dependencies: ['database', 'keys', 'messengers', 'hub', 'uploads'] },
);
