/** The operators' commands about users (contract/commands/identity.ts). Every value is plain JSON (dates as ISO strings). */
import { and, asc, count, desc, eq, gte, inArray, like, lt, or, sql, type SQL } from 'drizzle-orm';
import type { ParsedArgsOf } from '#contract/command.ts';
import { offsetOf } from '#contract/list.ts';
import fp from 'fastify-plugin';
import type { UserDetail, UserSummary } from '#contract/admin.ts';
import { identityCommands } from '#contract/commands/identity.ts';
import type { Database } from '../../db/database.ts';
import { startingWith } from '../../db/like.ts';
import { externalAccounts, sessions, users } from '../../db/schema/identity.ts';
import { handle } from '../../admin-command.ts';
import { indent, noUser, orDash, pageLine, table, time } from '../../admin-text.ts';
import { orders } from '../../db/schema/commerce.ts';
import { loginHistory } from './login-history.ts';
import { endSessionByOperator, isActiveSession } from './sessions.ts';
import { findByKey } from './users.ts';

/** What `users list` sorts by → the column; the id breaks ties (a user without a phone or e-mail sorts last going up). */
const userSortColumns = { created: users.id, nickname: users.nickname, email: users.email, phone: users.phone } as const;

/** A page of users, and how many pass the filter: signed up between the days given, whose phone, e-mail or nickname starts with the searched words (any case), or of that id. */
async function listUsers(
  db: Database,
  { sort, dir, page, size, search, since, until }: ParsedArgsOf<typeof identityCommands.list>,
): Promise<{ rows: UserSummary[]; total: number }> {
  const conditions: SQL[] = [];
  if (since) conditions.push(gte(users.createdAt, new Date(since)));
  if (until) conditions.push(lt(users.createdAt, new Date(Date.parse(until) + 86_400_000)));
  if (search) {
    // Each through its index (users_*_start, schema): a whole table of users is not read for a search.
    const start = startingWith(search);
    const id = /^\d{1,9}$/.test(search) ? [eq(users.id, Number(search))] : [];
    conditions.push(or(...id, like(users.phone, start), sql`lower(${users.email}) like ${start}`, sql`lower(${users.nickname}) like ${start}`)!);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const order = dir === 'asc' ? asc : desc;
  // Serial ids follow creation; each sort walks an index (users_*, schema), which spares the database a sort of the whole table.
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(users).where(where).orderBy(order(userSortColumns[sort]), order(users.id)).limit(size).offset(offsetOf({ page, size })),
    db.select({ total: count() }).from(users).where(where),
  ]);
  // Counted for the listed users only, through the index on sessions.user_id.
  const counts = rows.length
    ? await db
        .select({ userId: sessions.userId, active: count() })
        .from(sessions)
        .where(
          and(
            inArray(
              sessions.userId,
              rows.map((row) => row.id),
            ),
            isActiveSession,
          ),
        )
        .groupBy(sessions.userId)
    : [];
  const activeByUser = new Map(counts.map((row) => [row.userId, row.active]));
  const listed = rows.map((row) => ({
    id: row.id,
    phone: row.phone,
    email: row.email,
    nickname: row.nickname,
    createdAt: row.createdAt.toISOString(),
    activeSessions: activeByUser.get(row.id) ?? 0,
  }));
  return { rows: listed, total };
}

/** The user named by id, phone or e-mail, or by the number of one of their orders (what a customer quotes to support). */
async function findForSupport(db: Database, key: string) {
  const trimmed = key.trim();
  if (!/^\d{20}$/.test(trimmed)) return findByKey(db, trimmed);
  const [owner] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.key, trimmed));
  return owner?.userId ? findByKey(db, String(owner.userId)) : null;
}

async function showUser(db: Database, key: string): Promise<UserDetail | null> {
  const user = await findForSupport(db, key);
  if (!user) return null;
  const bound = await db.select().from(externalAccounts).where(eq(externalAccounts.userId, user.id)).orderBy(externalAccounts.id);
  const active = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), isActiveSession))
    .orderBy(desc(sessions.lastSeenAt));
  return {
    id: user.id,
    phone: user.phone,
    email: user.email,
    nickname: user.nickname,
    hasPassword: user.passwordHash !== null,
    createdAt: user.createdAt.toISOString(),
    externalAccounts: bound.map((account) => ({
      id: account.id,
      provider: account.provider,
      subject: account.subject,
      displayName: account.displayName,
      boundAt: account.createdAt.toISOString(),
    })),
    activeSessions: active.map((session) => ({
      id: session.id,
      device: session.device,
      deviceId: session.deviceId,
      createdAt: session.createdAt.toISOString(),
      lastSeenAt: session.lastSeenAt.toISOString(),
    })),
    loginHistory: await loginHistory(db, user.id),
  };
}

function userDetail(user: UserDetail): string {
  const facts = table(
    ['User', String(user.id)],
    [
      ['phone', orDash(user.phone)],
      ['email', orDash(user.email)],
      ['nickname', user.nickname],
      ['password', user.hasPassword ? 'set' : 'not set'],
      ['created', time(user.createdAt)],
    ],
  );
  const accounts = user.externalAccounts.length
    ? indent(
        table(
          ['ID', 'PROVIDER', 'SUBJECT', 'NAME', 'BOUND'],
          user.externalAccounts.map((a) => [a.id, a.provider, a.subject, a.displayName, time(a.boundAt)]),
        ),
      )
    : '  none';
  const sessions = user.activeSessions.length
    ? indent(
        table(
          ['SESSION', 'DEVICE', 'DEVICE ID', 'SIGNED IN', 'LAST SEEN'],
          user.activeSessions.map((s) => [s.id, s.device, s.deviceId, time(s.createdAt), time(s.lastSeenAt)]),
        ),
      )
    : '  none';
  const logins = user.loginHistory.length
    ? indent(
        table(
          ['AT', 'METHOD', 'OK', 'ADDRESS', 'PLACE', 'DEVICE'],
          user.loginHistory.map((login) => [time(login.At), login.Method, login.Success ? 'yes' : 'no', login.Address, orDash(login.Place), login.Device]),
        ),
      )
    : '  none';
  return `${facts}\n\nExternal accounts (${user.externalAccounts.length})\n${accounts}\n\nActive sessions (${user.activeSessions.length})\n${sessions}\n\nRecent logins (${user.loginHistory.length})\n${logins}`;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The user an operator names by id, phone or e-mail. */
    findUser(key: string): Promise<{ id: number } | null>;
  }
}

/** The identity module's command handlers; it also gives every module's handlers the way to find the user an operator names. */
export default fp(
  async (app) => {
    app.decorate('findUser', (key: string) => findByKey(app.db, key));
    app.adminCommands.add([
      handle(identityCommands.endSession, {
        async run(app, { sessionId }, { actor }) {
          const userId = await endSessionByOperator(app.db, actor, sessionId);
          // Its live connections close wherever they are (a server's hub, or the backplane from the CLI).
          if (userId !== null) await app.pusher?.endSessions([sessionId]);
          return { command: 'session end', sessionId, userId };
        },
        format: (result) =>
          result.userId === null ? `No open session ${result.sessionId}.` : `Session ${result.sessionId} of user ${result.userId} is signed out.`,
        found: (result) => result.userId !== null,
      }),
      handle(identityCommands.list, {
        run: async (app, args) => ({ command: 'users list', ...(await listUsers(app.db, args)), page: args.page, size: args.size }),
        format: (result) =>
          result.rows.length === 0
            ? 'No users.'
            : `${table(
                ['ID', 'PHONE', 'EMAIL', 'NICKNAME', 'CREATED', 'SESSIONS'],
                result.rows.map((user) => [user.id, orDash(user.phone), orDash(user.email), user.nickname, time(user.createdAt), user.activeSessions]),
              )}\n\n${pageLine(result)}`,
      }),
      handle(identityCommands.show, {
        run: async (app, { user: key }) => ({ command: 'users show', key, user: await showUser(app.db, key) }),
        format: (result) => (result.user ? userDetail(result.user) : noUser(result.key)),
        found: (result) => result.user !== null,
      }),
    ]);
  },
  { name: 'identity-commands', dependencies: ['admin-commands'] },
);
