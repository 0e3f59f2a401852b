/**
 * `app.pusher`: where what changes is sent to open pages. In a server it is the
 * hub (realtime/plugin.ts); in a process that holds no connections — the
 * operators' command run without a server — it publishes straight onto Redis's
 * backplane when REDIS_URL is set, and is null when there is no way to reach them.
 */
import fp from 'fastify-plugin';
import { backplanePusher, redisBackplane, type Pusher } from './backplane.ts';
import type {} from '../plugins/redis.ts';

declare module 'fastify' {
  interface FastifyInstance {
    pusher: Pusher | null;
  }
}

export const publisher = fp(async (app) => void app.decorate('pusher', app.redis ? backplanePusher(await redisBackplane(app.redis)) : null), {
  name: 'pusher',
  dependencies: ['redis'],
});
