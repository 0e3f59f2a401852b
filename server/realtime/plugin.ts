/**
 * The realtime hub of the app (`app.hub`): WebSockets for the whole server,
 * the hub with its backplane (Redis when REDIS_URL is set), its open
 * connections counted across instances (`app.hubConnections`), and its goodbye
 * to every client — with leave to reconnect — before the server closes.
 *
 * WebSocket upgrades are handled for the whole server, so an upgrade to any
 * other path must be refused here: otherwise its socket would be served a page
 * and then never closed.
 */
import websocket from '@fastify/websocket';
import fp from 'fastify-plugin';
import { lifetimes } from '#contract/identity.ts';
import { hubPath, hubTiming, statefulReconnect } from '#contract/realtime.ts';
import { verifyToken } from '../crypto/signed.ts';
import { localBackplane, redisBackplane } from './backplane.ts';
import { connectionCount, type ConnectionCount } from './connection-count.ts';
import { Hub } from './hub.ts';
import { maxMessageChars } from './protocol.ts';
import type {} from './pusher.ts';

declare module 'fastify' {
  interface FastifyInstance {
    hub: Hub;
    /** The hub's open connections now on every instance (connection-count.ts), and how many instances were counted. */
    hubConnections: ConnectionCount['count'];
  }
}

/** Where the hub's routes are: under the API base. */
export const hubUrl = `/api${hubPath}`;

export default fp(
  async (app) => {
    const { config, keys, redis } = app;
    const hub = await Hub.create({
      authenticate: (token) => {
        const claims = token ? verifyToken(keys.secret, 'hub', token) : null;
        return claims ? { userId: claims.sub, sessionId: claims.sid ?? null } : null;
      },
      timing: {
        keepAliveMs: config.HUB_KEEP_ALIVE_MS,
        timeoutMs: config.HUB_TIMEOUT_MS,
        handshakeTimeoutMs: hubTiming.handshakeTimeoutMs,
        longPollMs: config.HUB_LONG_POLL_MS,
        disconnectMs: hubTiming.disconnectMs,
      },
      tokenLifetimeMs: lifetimes.hubTokenMs,
      statefulReconnect,
      backplane: async (deliver) => (redis ? redisBackplane(redis, deliver, app.log) : localBackplane(deliver)),
      log: app.log,
    });
    app.decorate('hub', hub);
    // What the operators' commands push through (admin-command.ts): a server pushes through its hub.
    app.decorate('pusher', hub);
    const counted = connectionCount(hub, redis, app.log);
    app.decorate('hubConnections', counted.count);
    app.addHook('preClose', async () => {
      await counted.stop();
      await hub.close();
    });

    await app.register(websocket, { options: { maxPayload: maxMessageChars * 4 } });
    app.addHook('onRequest', async (request, reply) => {
      if (request.ws && request.url.split('?')[0] !== hubUrl) {
        // The websocket plugin destroys the socket once this answer is sent.
        return reply.code(404).header('connection', 'close').send();
      }
    });
  },
  { name: 'hub', dependencies: ['config', 'keys', 'redis'] },
);
