/**
 * The operators' commands as an app (`npm run admin`, cli/): every module's
 * commands plugin — the same plugins `buildApp` registers for its admin
 * endpoint — and, when no server answers, what a command runs with, opened by
 * the server's own plugins. It imports no module's routes, so the CLI starts
 * quickly and parses its words without opening anything.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { adminCommandRegistry } from './admin-command.ts';
import type { Config } from './config.ts';
import { modulePlugins } from './modules/index.ts';
import configPlugin from './plugins/config.ts';
import database from './plugins/database.ts';
import keys from './plugins/keys.ts';
import messengers from './plugins/messengers.ts';
import outbound from './plugins/outbound.ts';
import payments from './plugins/payments.ts';
import redis from './plugins/redis.ts';
import uploads from './plugins/uploads.ts';
import { publisher } from './realtime/pusher.ts';

/** The registry and every module's command handlers (modules/index.ts): the server's and the CLI's alike. */
export async function registerCommands(app: FastifyInstance): Promise<void> {
  await app.register(adminCommandRegistry);
  for (const plugin of await modulePlugins('commands')) await app.register(plugin);
}

/**
 * The operators' commands in the CLI's own process: every module's commands plugin and nothing
 * opened, since parsing the words and the usage text need no configuration, database or network.
 * Warnings (a stale database lock taken over, Redis trouble) go to stderr as plain lines.
 */
export async function commandApp(): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: 'warn', stream: { write: (line: string) => console.error(warningText(line)) } },
    pluginTimeout: 0,
  });
  await registerCommands(app);
  return app;
}

function warningText(line: string): string {
  const { msg, err } = JSON.parse(line) as { msg?: string; err?: { message?: string } };
  return err?.message ? `${msg}: ${err.message}` : String(msg);
}

/**
 * What a command run without a server needs, opened on `commandApp` by the server's own plugins:
 * the database (not migrated, without the job queue), the keys, Redis's backplane when REDIS_URL
 * is set (the only way to reach open pages from here), the SMS and e-mail providers (the development
 * outbox here is the CLI's own, which prints what it keeps), the payment provider (the sandbox's
 * lives inside a server, so it is not reachable), and the uploads' folder or bucket. Closing the app closes them.
 */
export async function openForCommands(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(configPlugin, { config });
  await app.register(database, { forCommands: true });
  await app.register(keys);
  await app.register(redis);
  await app.register(publisher);
  await app.register(outbound);
  await app.register(messengers, { forCommands: true });
  await app.register(payments);
  await app.register(uploads);
  await app.ready();
}
