/**
 * The games a user wants idled (contract/idle-games.ts). Adding locks the
 * user's row, so racing adds can never take the list past its limit.
 */
import { and, asc, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '#contract/errors.ts';
import { idleGameCalls, maxIdleGames, type IdleGame } from '#contract/idle-games.ts';
import { steamGameName } from '#contract/steam-games.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { idleGames } from '../../db/schema/cloud-idle.ts';
import { users } from '../../db/schema/identity.ts';
import { ApiError } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';

/** A user's games, in the order they were added. */
export async function listIdleGames(db: Database | Transaction, userId: number): Promise<IdleGame[]> {
  const rows = await db.select().from(idleGames).where(eq(idleGames.userId, userId)).orderBy(asc(idleGames.createdAt), asc(idleGames.appId));
  return rows.map((row) => ({ AppId: row.appId, Name: steamGameName(row.appId), AddedAt: row.createdAt.toISOString() }));
}

export function idleGameRoutes(app: FastifyInstance): void {
  const { db } = app;

  registerRoute(app, idleGameCalls.list, async ({ auth }) => ({ data: await listIdleGames(db, auth.userId) }));

  registerRoute(app, idleGameCalls.add, async ({ auth, body }) => {
    const games = await db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, auth.userId)).for('update');
      const [{ listed }] = await tx.select({ listed: count() }).from(idleGames).where(eq(idleGames.userId, auth.userId));
      const [already] = await tx
        .select({ appId: idleGames.appId })
        .from(idleGames)
        .where(and(eq(idleGames.userId, auth.userId), eq(idleGames.appId, body.AppId)));
      if (!already) {
        if (listed >= maxIdleGames) throw new ApiError(ErrorCode.IdleGamesFull, 'idleGamesFull');
        await tx.insert(idleGames).values({ userId: auth.userId, appId: body.AppId });
      }
      return listIdleGames(tx, auth.userId);
    });
    return { data: games };
  });

  registerRoute(app, idleGameCalls.remove, async ({ auth, params }) => {
    const removed = await db
      .delete(idleGames)
      .where(and(eq(idleGames.userId, auth.userId), eq(idleGames.appId, params.appId)))
      .returning({ appId: idleGames.appId });
    if (removed.length === 0) throw new ApiError(ErrorCode.NotFound, 'idleGameNotFound');
    return { data: await listIdleGames(db, auth.userId) };
  });
}
