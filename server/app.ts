import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { encryption } from '../contract/crypto.ts';
import { hubTiming } from '../contract/realtime.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { loadKeys } from './crypto/keys.ts';
import { verifyToken } from './crypto/signed.ts';
import { openDatabase } from './db/open.ts';
import { seedDemoData } from './db/seed.ts';
import { newAdminToken } from './modules/admin/access.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { cloudIdleHubMethods } from './modules/cloud-idle/status.ts';
import { identityRoutes } from './modules/identity/routes.ts';
import { pruneTokens } from './modules/identity/sessions.ts';
import { supportRoutes } from './modules/support/routes.ts';
import { systemRoutes } from './modules/system/routes.ts';
import envelope from './plugins/envelope.ts';
import { apiProtection, securityHeaders } from './plugins/security.ts';
import site from './plugins/site.ts';
import { localBackplane, redisBackplane } from './realtime/backplane.ts';
import { Hub } from './realtime/hub.ts';
import { hubRoutes } from './realtime/routes.ts';
import { devMessenger, gatewayMessenger, type Messenger } from './services/messenger.ts';
import { connectRedis } from './services/redis.ts';

declare module 'fastify' {
  interface FastifyInstance {
    context: AppContext;
  }
}

function messenger(config: Config, channel: 'SMS' | 'EMAIL'): Messenger {
  const url = config[`${channel}_GATEWAY_URL`];
  const secret = config[`${channel}_GATEWAY_SECRET`];
  if (config[`${channel}_PROVIDER`] === 'http' && url && secret) return gatewayMessenger(url, secret);
  const print = config.LOG_LEVEL === 'silent' ? () => {} : (line: string) => console.log(line);
  return devMessenger(channel.toLowerCase(), print);
}

/**
 * Builds the whole application as one Fastify instance — the API under /api
 * and the static site at / — and opens (and migrates) its database; `main.ts`
 * only listens. Closing the app closes the database.
 */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.LOG_LEVEL },
    // One line per request only when debugging; otherwise the log shows what matters.
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace' }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: encryption.maxBodyBytes,
  });

  const database = await openDatabase(config.DATABASE_URL);
  app.addHook('onClose', () => database.close());
  await pruneTokens(database.db);
  if (config.DEMO_DATA && (await seedDemoData(database.db))) app.log.info('Seeded the demo account');

  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL, app.log) : null;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));

  const keys = loadKeys(config.DATA_DIR);
  const hub = await Hub.create({
    authenticate: (token) => (token ? (verifyToken(keys.secret, 'hub', token)?.sub ?? null) : null),
    methods: cloudIdleHubMethods(database.db),
    timing: {
      keepAliveMs: config.HUB_KEEP_ALIVE_MS,
      timeoutMs: config.HUB_TIMEOUT_MS,
      handshakeTimeoutMs: hubTiming.handshakeTimeoutMs,
      longPollMs: config.HUB_LONG_POLL_MS,
      disconnectMs: hubTiming.disconnectMs,
    },
    backplane: async (deliver) => (redis ? redisBackplane(redis, deliver, app.log) : localBackplane(deliver)),
    log: app.log,
  });

  const context: AppContext = { config, db: database.db, keys, sms: messenger(config, 'SMS'), email: messenger(config, 'EMAIL'), hub, adminToken: newAdminToken() };
  app.decorate('context', context);

  await securityHeaders(app);
  await app.register(
    async (api) => {
      await apiProtection(api, config, redis);
      await api.register(envelope);
      identityRoutes(api, context);
      supportRoutes(api, context);
      systemRoutes(api, context);
      adminRoutes(api, context);
      await hubRoutes(api, hub);
    },
    { prefix: '/api' },
  );
  await app.register(site, { root: config.SITE_DIR, connectSources: config.PUBLIC_API_URL ? [new URL(config.PUBLIC_API_URL).origin] : [] });
  return app;
}
