/**
 * The operators' console calls (contract/console.ts): what the signed-in
 * customer may do at the console, enrolling and confirming an authenticator,
 * signing in and out, and running an operators' command — the same commands
 * `npm run admin` runs, each allowed from the role its module gave it, and
 * written to the audit log as the console user who ran it.
 */
import fastifyCookie from '@fastify/cookie';
import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { OperatorRole } from '#contract/admin.ts';
import { consoleCalls, consoleCookie, consoleCsrfHeader, consolePath, type ConsoleSession } from '#contract/console.ts';
import { ErrorCode } from '#contract/errors.ts';
import type { CommandAnswer } from '#contract/admin.ts';
import { UsageError } from '#contract/command.ts';
import { CommandRefused, RoleTooLowError, runCommand } from '../../admin-command.ts';
import { consoleActor, recordAudit } from '../../db/audit.ts';
import { committingRefusals } from '../../db/committing-refusals.ts';
import type { Transaction } from '../../db/database.ts';
import { users } from '../../db/schema/identity.ts';
import { operatorRoleGrants } from '../../db/schema/operators.ts';
import { ApiError } from '../../http/api-error.ts';
import type { Authenticated, ConsoleCaller } from '../../http/auth.ts';
import { registerRoute } from '../../http/route.ts';
import { ConsoleSessions } from './console-sessions.ts';
import { confirm, enrol, factorState, proveSecondFactor } from './second-factor.ts';

const signInAgain = () => new ApiError(ErrorCode.ConsoleSignIn, 'consoleSignIn');
const forbidden = () => new ApiError(ErrorCode.ConsoleForbidden, 'consoleForbidden');

/** Compares as equal-length digests never leak where they differ. */
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The customer's account and operator's role (null: none). */
async function operatorOf(app: FastifyInstance, userId: number) {
  const [row] = await app.db
    .select({ userId: users.id, nickname: users.nickname, phone: users.phone, email: users.email, role: operatorRoleGrants.role })
    .from(users)
    .leftJoin(operatorRoleGrants, eq(operatorRoleGrants.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}

/** The signed-in customer as an operator; refused without a role. */
async function requireOperator(app: FastifyInstance, auth: Authenticated) {
  const operator = await operatorOf(app, auth.userId);
  if (!operator?.role) throw forbidden();
  return { ...operator, role: operator.role };
}

export default fp(
  async (app) => {
    const consoleSessions = new ConsoleSessions(app.db, app.keys.secret);
    const signInLimit = { rateLimit: { max: app.config.IDENTITY_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } };

    await app.register(async (calls) => {
      await calls.register(fastifyCookie);

      // Every console call but a read must carry the session's CSRF value, and none may come from another site's page.
      calls.decorate('consoleCaller', async (request: FastifyRequest): Promise<ConsoleCaller> => {
        const token = request.cookies[consoleCookie];
        const caller = token ? await consoleSessions.authenticate(token) : null;
        if (!caller) throw signInAgain();
        const crossSite = request.headers['sec-fetch-site'] === 'cross-site';
        const given = request.headers[consoleCsrfHeader];
        const reads = request.method === 'GET';
        if (crossSite || (!reads && !(typeof given === 'string' && sameText(given, consoleSessions.csrfFor(caller.sessionHash)))))
          throw new ApiError(ErrorCode.ConsoleCrossSite, 'consoleCrossSite');
        return caller;
      });

      const cookieOptions = (request: FastifyRequest) => ({
        path: consolePath,
        httpOnly: true,
        sameSite: 'strict' as const,
        secure: request.protocol === 'https',
      });

      /** Opens the console session in the transaction that proved the second factor, with its audit line, and sets its cookie. */
      async function openSession(
        tx: Transaction,
        request: FastifyRequest,
        reply: FastifyReply,
        auth: Authenticated,
        operator: { userId: number; nickname: string; role: OperatorRole },
        how: string,
      ): Promise<ConsoleSession> {
        const opened = await consoleSessions.open(tx, operator, auth.sessionId, request.ip);
        await recordAudit(tx, consoleActor(operator, request.ip), {
          action: 'console sign-in',
          target: `user ${operator.userId}`,
          before: null,
          after: { with: how },
        });
        reply.setCookie(consoleCookie, opened.token, cookieOptions(request));
        return opened.session;
      }

      registerRoute(calls, consoleCalls.access, async ({ auth }) => {
        const operator = await operatorOf(app, auth.userId);
        if (!operator?.role) return { data: { Role: null, Enrolled: false, EnrolTo: null, LockedUntil: null } };
        const { enrolled, lockedUntil } = await factorState(app.db, auth.userId);
        const to = enrolled ? null : await app.accountCodes.destination(auth.userId);
        return {
          data: {
            Role: operator.role,
            Enrolled: enrolled,
            EnrolTo: to && { Channel: to.channel, To: to.shown },
            LockedUntil: lockedUntil?.getTime() ?? null,
          },
        };
      });

      // Only whoever holds the account's phone (or e-mail) enrols: a stolen login alone cannot put its own authenticator in.
      registerRoute(
        calls,
        consoleCalls.enrol,
        async ({ auth, body }) => {
          const operator = await requireOperator(app, auth);
          if (!operator.phone && !operator.email) throw new ApiError(ErrorCode.ConsoleContactMissing, 'consoleContactMissing');
          const label = operator.phone ?? operator.email ?? operator.nickname;
          return { data: await enrol(app.db, auth.userId, label, (tx) => app.accountCodes.consume(tx, auth.userId, body.Code)) };
        },
        signInLimit,
      );

      registerRoute(
        calls,
        consoleCalls.confirm,
        async ({ auth, body, request, reply }) => {
          const operator = await requireOperator(app, auth);
          const data = await committingRefusals(app.db, async (tx) => {
            const codes = await confirm(tx, auth.userId, body.Code, consoleActor(operator, request.ip));
            if (!codes.ok) return codes;
            return { ok: true, value: { RecoveryCodes: codes.value, Session: await openSession(tx, request, reply, auth, operator, 'a new authenticator') } };
          });
          return { data };
        },
        signInLimit,
      );

      registerRoute(
        calls,
        consoleCalls.signIn,
        async ({ auth, body, request, reply }) => {
          const operator = await requireOperator(app, auth);
          const data = await committingRefusals(app.db, async (tx) => {
            const how = await proveSecondFactor(tx, auth.userId, body, consoleActor(operator, request.ip));
            if (!how.ok) return how;
            return { ok: true, value: await openSession(tx, request, reply, auth, operator, how.value) };
          });
          return { data };
        },
        signInLimit,
      );

      registerRoute(calls, consoleCalls.session, async ({ auth }) => ({ data: consoleSessions.describe(auth) }));

      registerRoute(calls, consoleCalls.signOut, async ({ auth, request, reply }) => {
        await consoleSessions.end(auth.sessionHash);
        reply.clearCookie(consoleCookie, cookieOptions(request));
        return { data: null };
      });

      registerRoute(calls, consoleCalls.run, async ({ auth, body, request }) => {
        const attachment = body.Attachment === undefined ? null : Buffer.from(body.Attachment, 'base64');
        const caller = { actor: consoleActor(auth, request.ip), locale: request.locale, attachment };
        try {
          return { data: (await runCommand(app, body.Command, body.Args, caller, auth.role)) as CommandAnswer };
        } catch (error) {
          if (error instanceof RoleTooLowError) throw forbidden();
          // A refusal is told in the operator's language (the page's, as every answer's message).
          if (error instanceof CommandRefused) throw new ApiError(ErrorCode.BadRequest, error.refusal.key, error.refusal.params);
          // A command the console may not name, or arguments it cannot take, when checked or once it looks (a batch name taken).
          if (error instanceof UsageError) throw new ApiError(ErrorCode.BadRequest, 'badRequest');
          throw error;
        }
      });
    });
  },
  { name: 'console', dependencies: ['admin-commands', 'database', 'keys', 'config', 'hub', 'payments', 'metrics', 'identity'] },
);
