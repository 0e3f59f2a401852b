/** The public key that encrypted calls wrap their AES key with, and whether this instance is ready to serve. */
import { sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { ErrorCode } from '#contract/errors.ts';
import { system } from '#contract/identity.ts';
import { publicKeyCacheMs } from '../../crypto/keyring.ts';
import { ApiError } from '../../http/api-error.ts';
import { publicFor } from '../../http/cache-control.ts';
import { registerRoute } from '../../http/route.ts';

export default fp(
  async (app) => {
    registerRoute(app, system.publicKey, async ({ reply }) => {
      reply.header('cache-control', publicFor(publicKeyCacheMs));
      return { data: { Spki: await app.keys.keyring.publicSpki() } };
    });

    registerRoute(app, system.live, async ({ reply }) => {
      reply.header('cache-control', 'no-store');
      return { data: { Process: 'up' as const } };
    });

    registerRoute(app, system.ready, async ({ reply }) => {
      reply.header('cache-control', 'no-store');
      try {
        await app.db.execute(sql`select 1`);
        await app.jobs.getQueues();
        await app.redis?.ping();
      } catch (error) {
        app.log.warn({ err: error }, 'not ready');
        throw new ApiError(ErrorCode.Unavailable, 'unavailable');
      }
      return { data: { Database: 'up' as const, Jobs: 'up' as const, Redis: app.redis ? ('up' as const) : ('none' as const) } };
    });
  },
  { name: 'system', dependencies: ['keys', 'database', 'redis'] },
);
