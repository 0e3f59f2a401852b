/**
 * The admin endpoint (contract `admin.run`): runs an operators' command inside
 * the running server, for `npm run admin` while this server holds the embedded
 * database (only one process may open it, DESIGN.md §6) and so that its
 * pushes reach the open pages. Only loopback callers with the token of
 * `<DATA_DIR>/admin.json` get in (`app.isAdminCaller`); to anyone else the
 * path does not exist.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { admin } from '#contract/admin.ts';
import { ErrorCode } from '#contract/errors.ts';
import type { Database } from '../../db/database.ts';
import { ApiError } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';
import { isAdminCaller, newAdminToken } from './access.ts';
import { parseCommand, UsageError, type AdminCommand, type CommandContext } from '../../cli/command.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** `main.ts` hands it to the CLI through `<DATA_DIR>/admin.json`. */
    adminToken: string;
  }
}

export interface AdminOptions {
  commands: readonly AdminCommand[];
  findUser: (db: Database, key: string) => Promise<{ id: number } | null>;
}

/** The admin token and who may use it, for the whole app: `main.ts` hands the token to the CLI. */
export const adminAccess = fp(
  async (app) => {
    const token = newAdminToken();
    app.decorate('adminToken', token);
    app.decorate('isAdminCaller', (request: FastifyRequest) => isAdminCaller(request, token));
  },
  { name: 'admin-access' },
);

export default fp<AdminOptions>(
  async (app, { commands, findUser }) => {
    const context: CommandContext = {
      db: app.db,
      pglite: app.pglite,
      pusher: app.hub,
      metrics: app.metrics,
      findUser: (key) => findUser(app.db, key),
      paymentProvider: () => app.payments.provider(),
      secret: () => app.keys.secret,
      dataDir: app.config.DATA_DIR,
    };

    registerRoute(app, admin.run, async ({ body }) => {
      let run;
      try {
        run = parseCommand(commands, body.command);
      } catch (error) {
        if (error instanceof UsageError) throw new ApiError(ErrorCode.BadRequest, 'badRequest');
        throw error;
      }
      return { data: await run(context) };
    });
  },
  { name: 'admin', dependencies: ['admin-access', 'database', 'hub', 'payments'] },
);
