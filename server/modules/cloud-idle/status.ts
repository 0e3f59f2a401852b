/**
 * Cloud card-idling status (contract `CloudIdleStatus`): one row a user,
 * replaced whole by operators, read by the user's page through the hub, and
 * pushed to the user's open pages whenever it changes.
 */
import { eq } from 'drizzle-orm';
import { hubEvents, type CloudIdleStatus, type CloudIdleUpdate } from '#contract/realtime.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database } from '../../db/database.ts';
import { cloudIdleStatuses } from '../../db/schema/cloud-idle.ts';
import type { Pusher } from '../../realtime/backplane.ts';

export async function readCloudIdleStatus(db: Database, userId: number): Promise<CloudIdleStatus | null> {
  const [row] = await db.select().from(cloudIdleStatuses).where(eq(cloudIdleStatuses.userId, userId));
  return row ? { State: row.state, Games: row.games, CardsRemaining: row.cardsRemaining, UpdatedAt: row.updatedAt.toISOString() } : null;
}

/** Stores the status (replacing the last one) and pushes it to the user's open pages when there is a way to. */
export async function setCloudIdleStatus(
  db: Database,
  actor: Actor,
  pusher: Pusher | null,
  userId: number,
  update: CloudIdleUpdate,
  now = new Date(),
): Promise<CloudIdleStatus> {
  const values = { state: update.State, games: update.Games, cardsRemaining: update.CardsRemaining, updatedAt: now };
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(cloudIdleStatuses).where(eq(cloudIdleStatuses.userId, userId)).for('update');
    await tx
      .insert(cloudIdleStatuses)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: cloudIdleStatuses.userId, set: values });
    await recordAudit(tx, actor, {
      action: 'idle set',
      target: `user ${userId}`,
      before: before ? { state: before.state, cardsRemaining: before.cardsRemaining } : null,
      after: { state: update.State, cardsRemaining: update.CardsRemaining, games: update.Games.length },
    });
  });
  const status = { ...update, UpdatedAt: now.toISOString() };
  await pusher?.toUser(userId, hubEvents.cloudIdleStatus, [status]);
  return status;
}
