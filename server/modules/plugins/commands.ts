/**
 * The operators' commands about plugin reviews (contract/commands/plugins.ts).
 * A hidden review leaves the public lists and its plugin's aggregate at once.
 */
import { count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { EvaluationEntry } from '#contract/admin.ts';
import { pluginsCommands } from '#contract/commands/plugins.ts';
import { commandsPlugin, handle } from '../../admin-command.ts';
import { table, time } from '../../admin-text.ts';
import type { Database } from '../../db/database.ts';
import { evaluationReports, pluginEvaluations } from '../../db/schema/plugins.ts';
import { setHidden } from './evaluations.ts';

/** How many reported reviews `evaluation reported` lists, most reported first. */
const reportedListLength = 100;

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
    async run(app) {
      const rows = await withReports(app.db)
        .having(sql`count(${evaluationReports.userId}) > 0`)
        .orderBy(desc(count(evaluationReports.userId)), desc(pluginEvaluations.id))
        .limit(reportedListLength);
      return { command: 'evaluation reported', evaluations: rows.map(entry) };
    },
    format: ({ evaluations }) => (evaluations.length ? table(evaluationHeaders, evaluations.map(evaluationRow)) : 'No reported reviews.'),
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
