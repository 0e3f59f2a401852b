/**
 * `POST /api/admin/run {command: string[]}`: runs an operators' command inside
 * the running server, for `npm run admin` while this server holds the embedded
 * database (only one process may open it, DESIGN.md §6). Loopback callers with
 * the admin token only; to anyone else the path does not exist.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SUCCESS } from '../../../contract/envelope.ts';
import { ErrorCode } from '../../../contract/errors.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/api-error.ts';
import { message } from '../../i18n/messages.ts';
import { isAdminCaller } from './access.ts';
import { parseCommand, runCommand, UsageError, type Command } from './commands.ts';

const body = z.object({ command: z.array(z.string().max(500)).max(100) });

export function adminRoutes(app: FastifyInstance, context: AppContext): void {
  app.post('/admin/run', {
    // Checked before the body is even read.
    onRequest: async (request) => {
      if (!isAdminCaller(request, context.adminToken)) throw new ApiError(ErrorCode.NotFound, 'notFound');
    },
    handler: async (request) => {
      const parsed = body.safeParse(request.body);
      if (!parsed.success) throw new ApiError(ErrorCode.BadRequest, 'badRequest');
      const data = await runCommand(context.db, commandOf(parsed.data.command), context.hub);
      return { code: SUCCESS, message: message(request.locale, 'ok'), data };
    },
  });
}

function commandOf(words: string[]): Command {
  try {
    return parseCommand(words);
  } catch (error) {
    if (error instanceof UsageError) throw new ApiError(ErrorCode.BadRequest, 'badRequest');
    throw error;
  }
}
