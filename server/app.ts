import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import site from './plugins/site.ts';

/** Builds the whole application as one Fastify instance; `main.ts` only listens. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: config.LOG_LEVEL }, disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace' });
  await app.register(site, { root: config.SITE_DIR });
  return app;
}
