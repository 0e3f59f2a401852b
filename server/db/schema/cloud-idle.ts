/**
 * Tables of server/modules/cloud-idle/: the games each user wants idled and the idling's status.
 */
import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './identity.ts';

/** The Steam games a user wants idled in the cloud, by app id (names: contract/steam-games.ts). */
export const idleGames = pgTable(
  'idle_games',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: integer('app_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.appId] })],
);

/** Each user's cloud card-idling status (contract `CloudIdleStatus`), set by operators and pushed live. */
export const cloudIdleStatuses = pgTable('cloud_idle_statuses', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  state: text('state', { enum: ['Idling', 'Paused', 'Stopped', 'Finished'] }).notNull(),
  games: jsonb('games').$type<Array<{ AppId: number; Name: string; CardsRemaining: number }>>().notNull(),
  cardsRemaining: integer('cards_remaining').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
