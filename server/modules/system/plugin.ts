/** The public key that encrypted calls wrap their AES key with, and whether this instance is ready to serve. */
import { sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { ErrorCode } from '#contract/errors.ts';
import { system } from '#contract/identity.ts';
import { publicKeyCacheMs } from '../../crypto/keyring.ts';
import { databaseRetryAfterMs } from '../../db/errors.ts';
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
      } catch (error) {
        app.log.warn({ err: error }, 'not ready');
        throw new ApiError(ErrorCode.Unavailable, 'unavailable', {}, { retryAfterMs: databaseRetryAfterMs });
      }
      // Without Redis the instance still serves (rate limits in its memory, pushes to its own connections): reported, not required.
      const redis = !app.redis
        ? ('none' as const)
        : await app.redis.ping().then(
            () => 'up' as const,
            () => 'down' as const,
          );
      return { data: { Database: 'up' as const, Jobs: 'up' as const, Redis: redis } };
    });
  },
  { name: 'system', dependencies: ['keys', 'database', 'redis'] },
);
