/**
 * Tables of server/modules/plugins/: plugin reviews, their aggregates, helpful marks, reports and write counts.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { reportReasons } from '#contract/plugins.ts';
import type { LocaleCode } from '#contract/locales.ts';
import { createdAt } from './columns.ts';
import { users } from './identity.ts';

/**
 * A plugin review (contract/plugins.ts): one per user and plugin. A hidden one
 * (by an operator) leaves the lists and the aggregate; its author still sees it.
 */
export const pluginEvaluations = pgTable(
  'plugin_evaluations',
  {
    id: serial('id').primaryKey(),
    plugin: text('plugin').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    body: text('body').notNull(),
    locale: text('locale').$type<LocaleCode>().notNull(),
    helpful: integer('helpful').notNull().default(0),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('plugin_evaluations_user').on(t.plugin, t.userId),
    index('plugin_evaluations_newest').on(t.plugin, t.createdAt),
    index('plugin_evaluations_helpful').on(t.plugin, t.helpful),
    check('plugin_evaluations_rating', sql`${t.rating} between 1 and 5`),
  ],
);

/**
 * Each plugin's aggregate of visible reviews, kept in the same transaction as
 * every change to them: `stars[i]` counts the reviews of i + 1 stars.
 */
export const pluginRatings = pgTable('plugin_ratings', {
  plugin: text('plugin').primaryKey(),
  stars: integer('stars').array().notNull(),
  count: integer('count').notNull().default(0),
  total: integer('total').notNull().default(0),
});

/** What one user did to one review, once: the key of the helpful marks and the reports. */
const onEvaluationByUser = () => ({
  evaluationId: integer('evaluation_id')
    .notNull()
    .references(() => pluginEvaluations.id, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/** Who marked which review helpful: once each. */
export const evaluationHelpful = pgTable('evaluation_helpful', onEvaluationByUser(), (t) => [primaryKey({ columns: [t.evaluationId, t.userId] })]);

/** Reports of a review to the operators: once per user and review. */
export const evaluationReports = pgTable('evaluation_reports', { ...onEvaluationByUser(), reason: text('reason', { enum: reportReasons }).notNull() }, (t) => [
  primaryKey({ columns: [t.evaluationId, t.userId] }),
]);

/** Each user's recent review writes and votes, counted for the hourly limits; older rows are pruned as new ones come. */
export const evaluationWrites = pgTable(
  'evaluation_writes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['review', 'vote'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('evaluation_writes_user').on(t.userId, t.kind, t.at)],
);
