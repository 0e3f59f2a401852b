/** The cloud-idling module: what a user's page may ask the hub about its status, and the games the user wants idled. */
import fp from 'fastify-plugin';
import { hubMethods } from '#contract/realtime.ts';
import { idleGameRoutes } from './games.ts';
import { readCloudIdleStatus } from './status.ts';

export default fp(
  async (app) => {
    app.hub.addMethod(hubMethods.getCloudIdleStatus, (caller) => readCloudIdleStatus(app.db, caller.userId));
    idleGameRoutes(app);
  },
  { name: 'cloud-idle', dependencies: ['database', 'hub'] },
);
