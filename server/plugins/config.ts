/** The checked configuration, read once by `buildApp`: `app.config`. */
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

export default fp<{ config: Config }>(async (app, { config }) => void app.decorate('config', config), { name: 'config' });
