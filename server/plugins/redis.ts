/** The Redis of a several-instance deployment (REDIS_URL), or null: `app.redis`. */
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { connectRedis } from '../services/redis.ts';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | null;
  }
}

export default fp(
  async (app) => {
    const url = app.config.REDIS_URL;
    const redis = url ? await connectRedis(url, app.log) : null;
    app.decorate('redis', redis);
    // Stopping while Redis is away (a restart during its outage): there is nothing to say goodbye to.
    if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  },
  { name: 'redis', dependencies: ['config'] },
);
