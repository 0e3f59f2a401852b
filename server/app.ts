/**
 * Builds the whole application as one Fastify instance — the API under /api
 * and the static site at / — from plugins in order: the outside world
 * (config, outbound HTTP, database, keys, Redis, messengers, the realtime hub, the metrics), the API's
 * common behaviour, then the modules, each owning its routes, hub methods and
 * clean-up (modules/index.ts, the one list of modules, which the CLI reads too
 * for their commands). `main.ts` only listens. Closing the app closes everything it opened.
 */
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import { encryption } from '#contract/crypto.ts';
import { standInPages } from '#contract/dev.ts';
import { registerCommands } from './command-app.ts';
import { devStandInsAllowed, type Config } from './config.ts';
import { adminAccess } from './modules/admin/plugin.ts';
import { modulePlugins } from './modules/index.ts';
import configPlugin from './plugins/config.ts';
import database from './plugins/database.ts';
import errors from './plugins/errors.ts';
import keys from './plugins/keys.ts';
import locale from './plugins/locale.ts';
import messengers from './plugins/messengers.ts';
import metrics from './plugins/metrics.ts';
import openapi from './plugins/openapi.ts';
import outbound from './plugins/outbound.ts';
import payments from './plugins/payments.ts';
import redis from './plugins/redis.ts';
import sealing from './plugins/sealing.ts';
import uploads from './plugins/uploads.ts';
import { apiProtection, securityHeaders } from './plugins/security.ts';
import site from './plugins/site.ts';
import hub from './realtime/plugin.ts';
import { hubRoutes } from './realtime/routes.ts';

/** The request as logged: the hub token of a browser's WebSocket or EventSource travels in the query, and must never reach a log. */
function loggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(/([?&]access_token=)[^&]*/g, '$1[hidden]'),
    remoteAddress: request.ip,
  };
}

export interface BuildOptions {
  /** Where the log goes instead of standard output (tests read it). */
  logStream?: { write(line: string): void };
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.LOG_LEVEL, serializers: { req: loggedRequest }, ...(options.logStream ? { stream: options.logStream } : {}) },
    // One line per request only when debugging; otherwise the log shows what matters.
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace' }),
    trustProxy: config.TRUST_PROXY,
    // Every log line of a request carries this id, and a 500 tells the customer it to quote: the trusted
    // proxy's own (nginx's $request_id) when it sends a well-formed one, so both logs name one request.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = config.TRUST_PROXY ? request.headers['x-request-id'] : undefined;
      // Sixteen hex digits of a random UUID: Node draws those from a pool, where randomBytes asks OpenSSL on every request.
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID().replaceAll('-', '').slice(0, 16);
    },
    bodyLimit: encryption.maxBodyBytes,
    // No timer on starting: a first start on a busy machine (creating and migrating the database) may take minutes, and only
    // waiting on an outside service can hang — that has its own deadline and message (DATABASE_CONNECT_TIMEOUT, Redis's connect).
    pluginTimeout: 0,
    // Closing answers what arrives on open connections instead of refusing it with 503 (see the hooks below).
    return503OnClosing: false,
  });

  // A rolling restart loses no request (docs/deploy.md): closing first stops taking connections, so the proxy sends new
  // ones to another instance; then the hub ends its connections (preClose, realtime/plugin.ts), whose clients reconnect
  // there; then every request in flight finishes before the database closes.
  let drained: Promise<void> = Promise.resolve();
  app.addHook('preClose', async () => {
    if (app.server.listening) drained = new Promise((resolve) => app.server.close(() => resolve()));
  });

  await app.register(configPlugin, { config });
  await app.register(outbound);
  await app.register(database);
  await app.register(keys);
  await app.register(redis);
  await app.register(messengers);
  await app.register(payments);
  await app.register(uploads);
  await app.register(hub);
  app.addHook('preClose', () => drained);
  await app.register(metrics);
  await app.register(adminAccess);
  await registerCommands(app);
  await securityHeaders(app);

  await app.register(
    async (api) => {
      await apiProtection(api);
      await api.register(locale);
      await api.register(sealing);
      await api.register(errors);
      // The calls' larger answers are compressed on the fly; the hub's streams and polls are not (they must flow as they are written).
      await api.register(async (calls) => {
        await calls.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } });
        for (const module of await modulePlugins('routes', config)) await calls.register(module);
      });
      await hubRoutes(api);
      await api.register(openapi);
    },
    { prefix: '/api' },
  );
  await app.register(site, {
    root: config.SITE_DIR,
    connectSources: config.PUBLIC_API_ORIGIN ? [config.PUBLIC_API_ORIGIN] : [],
    hiddenPages: devStandInsAllowed(config) ? [] : standInPages,
  });
  return app;
}
