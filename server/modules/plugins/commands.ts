/**
 * The operators' commands about plugin reviews (contract/commands/plugins.ts).
 * A hidden review leaves the public lists and its plugin's aggregate at once.
 */
import { and, asc, count, desc, eq, getTableColumns, isNotNull, isNull, sql } from 'drizzle-orm';
import type { EvaluationEntry } from '#contract/admin.ts';
import type { ParsedArgsOf } from '#contract/command.ts';
import { pluginsCommands } from '#contract/commands/plugins.ts';
import { offsetOf } from '#contract/list.ts';
import { commandsPlugin, handle } from '../../admin-command.ts';
import { pageLine, table, time } from '../../admin-text.ts';
import type { Database } from '../../db/database.ts';
import { evaluationReports, pluginEvaluations } from '../../db/schema/plugins.ts';
import { setHidden } from './evaluations.ts';

/** What `evaluation reported` sorts by → the value; the id breaks ties. */
const reviewSortValues = { reports: count(evaluationReports.userId), created: pluginEvaluations.createdAt, rating: pluginEvaluations.rating } as const;

const reports = {
  reports: count(evaluationReports.userId),
  reasons: sql<string[]>`coalesce(array_agg(distinct ${evaluationReports.reason}) filter (where ${evaluationReports.reason} is not null), '{}')`,
};

type Row = typeof pluginEvaluations.$inferSelect & { reports: number; reasons: string[] };

const entry = (row: Row): EvaluationEntry => ({
  id: row.id,
  plugin: row.plugin,
  userId: row.userId,
  rating: row.rating,
  text: row.body,
  helpful: row.helpful,
  hidden: row.hiddenAt !== null,
  reports: row.reports,
  reasons: row.reasons,
  createdAt: row.createdAt.toISOString(),
});

function withReports(db: Database) {
  return db
    .select({ ...getTableColumns(pluginEvaluations), ...reports })
    .from(pluginEvaluations)
    .leftJoin(evaluationReports, eq(evaluationReports.evaluationId, pluginEvaluations.id))
    .groupBy(pluginEvaluations.id);
}

/** A page of the reviews someone reported (of a plugin, hidden or not), and how many there are. */
async function reportedPage(db: Database, { sort, dir, page, size, shown, plugin }: ParsedArgsOf<typeof pluginsCommands.reported>) {
  const where = and(
    plugin ? eq(pluginEvaluations.plugin, plugin) : undefined,
    shown === undefined ? undefined : shown === 'hidden' ? isNotNull(pluginEvaluations.hiddenAt) : isNull(pluginEvaluations.hiddenAt),
  );
  const reported = () =>
    withReports(db)
      .where(where)
      .having(sql`count(${evaluationReports.userId}) > 0`);
  const order = dir === 'asc' ? asc : desc;
  const [rows, [{ total }]] = await Promise.all([
    reported().orderBy(order(reviewSortValues[sort]), order(pluginEvaluations.id)).limit(size).offset(offsetOf({ page, size })),
    db.select({ total: count() }).from(reported().as('reported')),
  ]);
  return { rows, total };
}

async function find(db: Database, id: number): Promise<EvaluationEntry | null> {
  const [row] = await withReports(db).where(eq(pluginEvaluations.id, id));
  return row ? entry(row) : null;
}

const evaluationHeaders = ['ID', 'PLUGIN', 'USER', 'STARS', 'HELPFUL', 'REPORTS', 'REASONS', 'HIDDEN', 'CREATED'];
const evaluationRow = (entry: EvaluationEntry) => [
  entry.id,
  entry.plugin,
  entry.userId,
  entry.rating,
  entry.helpful,
  entry.reports,
  entry.reasons.join(',') || '-',
  entry.hidden ? 'yes' : 'no',
  time(entry.createdAt),
];

/** The result of `evaluation show|hide|unhide`, as a terminal reads it. */
function reviewText({ evaluation }: { evaluation: EvaluationEntry | null }): string {
  if (!evaluation) return 'No such review (evaluation reported shows the ids).';
  const state = evaluation.hidden ? 'Hidden: off the site and out of the rating.' : 'Visible on the site and counted in the rating.';
  return `${table(evaluationHeaders, [evaluationRow(evaluation)])}\n\n${evaluation.text || '(no text)'}\n\n${state}`;
}

export default commandsPlugin('plugins', [
  handle(pluginsCommands.reported, {
    async run(app, args) {
      const { rows, total } = await reportedPage(app.db, args);
      return { command: 'evaluation reported', rows: rows.map(entry), total, page: args.page, size: args.size };
    },
    format: (result) => (result.rows.length ? `${table(evaluationHeaders, result.rows.map(evaluationRow))}\n\n${pageLine(result)}` : 'No reported reviews.'),
  }),
  handle(pluginsCommands.show, {
    run: async (app, { id }) => ({ command: 'evaluation show', evaluation: await find(app.db, id) }),
    format: reviewText,
  }),
  handle(pluginsCommands.hide, {
    async run(app, { id, reason }, { actor }) {
      await setHidden(app.db, actor, id, true, reason ?? null);
      return { command: 'evaluation hide', evaluation: await find(app.db, id) };
    },
    format: reviewText,
  }),
  handle(pluginsCommands.unhide, {
    async run(app, { id, reason }, { actor }) {
      await setHidden(app.db, actor, id, false, reason ?? null);
      return { command: 'evaluation unhide', evaluation: await find(app.db, id) };
    },
    format: reviewText,
  }),
]);
