/**
 * The admin endpoint (contract `admin.run`): runs an operators' command inside
 * the running server, for `npm run admin` while this server holds the embedded
 * database (only one process may open it: two corrupt it) and so that its
 * pushes reach the open pages. Only loopback callers with the token of
 * `<DATA_DIR>/admin.json` get in (`app.isAdminCaller`); to anyone else the
 * path does not exist.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { admin, type CommandAnswer } from '#contract/admin.ts';
import { UsageError } from '#contract/command.ts';
import { ErrorCode } from '#contract/errors.ts';
import { ApiError } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';
import { isAdminCaller, newAdminToken } from './access.ts';
import { CommandRefused, runCommand } from '../../admin-command.ts';
import { shellActor } from '../../db/audit.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** `main.ts` hands it to the CLI through `<DATA_DIR>/admin.json`. */
    adminToken: string;
  }
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

/** Runs the commands every module added to `app.adminCommands`, with the server's database, hub, metrics and payments. */
export default fp(
  async (app) => {
    registerRoute(app, admin.run, async ({ body, request }) => {
      const attachment = body.attachment === undefined ? null : Buffer.from(body.attachment, 'base64');
      const caller = { actor: shellActor(body.actor ?? 'an unnamed operator', request.ip), locale: 'en' as const, attachment };
      try {
        return { data: (await runCommand(app, body.command, body.args, caller, null)) as CommandAnswer };
      } catch (error) {
        // A refusal (a batch name taken) says why, in the shell's English (the CLI asks for it); other usage errors the CLI found before sending.
        if (error instanceof CommandRefused) throw new ApiError(ErrorCode.BadRequest, error.refusal.key, error.refusal.params);
        if (error instanceof UsageError) throw new ApiError(ErrorCode.BadRequest, 'badRequest');
        throw error;
      }
    });
  },
  { name: 'admin', dependencies: ['admin-access', 'admin-commands', 'identity-commands', 'database', 'hub', 'payments', 'metrics'] },
);
