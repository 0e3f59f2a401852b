/**
 * The operators' commands about plugin reviews: `evaluation reported|show|hide|unhide`.
 * A hidden review leaves the public lists and its plugin's aggregate at once.
 */
import { count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { EvaluationEntry } from '#contract/admin.ts';
import { commandsPlugin, UsageError, type AdminCommand, type ResultOf } from '../../admin-command.ts';
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

type ByIdName = 'evaluation show' | 'evaluation hide' | 'evaluation unhide';

/** The most an operator's reason for hiding or showing a review may say. */
const reasonMaxLength = 500;

const byId = (name: ByIdName, usage: string, hidden?: boolean): AdminCommand => ({
  name,
  role: 'operator',
  usage: hidden === undefined ? `${name} <id>`.padEnd(32) + usage : `${name} <id> [--reason "<words>"]   ${usage}`,
  parse(rest) {
    const wrong = () =>
      new UsageError(`${name} takes one review id (evaluation reported shows them)${hidden === undefined ? '' : ', then --reason "<words>" (quoted)'}`);
    if (!/^[1-9][0-9]{0,9}$/.test(rest[0] ?? '')) throw wrong();
    const id = Number(rest[0]);
    const withReason = hidden !== undefined && rest.length === 3 && rest[1] === '--reason' && rest[2].trim() && rest[2].length <= reasonMaxLength;
    if (rest.length !== 1 && !withReason) throw wrong();
    const reason = withReason ? rest[2].trim() : null;
    return async ({ db, actor }) => {
      if (hidden !== undefined) await setHidden(db, actor, id, hidden, reason);
      return { command: name, evaluation: await find(db, id) };
    };
  },
  format({ evaluation }: ResultOf<ByIdName>) {
    if (!evaluation) return 'No such review (evaluation reported shows the ids).';
    const state = evaluation.hidden ? 'Hidden: off the site and out of the rating.' : 'Visible on the site and counted in the rating.';
    return `${table(evaluationHeaders, [evaluationRow(evaluation)])}\n\n${evaluation.text || '(no text)'}\n\n${state}`;
  },
});

export const evaluationCommands: AdminCommand[] = [
  {
    name: 'evaluation reported',
    role: 'operator',
    usage: 'evaluation reported             reviews users reported, most reported first',
    parse(rest) {
      if (rest.length > 0) throw new UsageError('evaluation reported takes nothing more');
      return async ({ db }) => {
        const rows = await withReports(db)
          .having(sql`count(${evaluationReports.userId}) > 0`)
          .orderBy(desc(count(evaluationReports.userId)), desc(pluginEvaluations.id))
          .limit(reportedListLength);
        return { command: 'evaluation reported', evaluations: rows.map(entry) };
      };
    },
    format: ({ evaluations }: ResultOf<'evaluation reported'>) =>
      evaluations.length ? table(evaluationHeaders, evaluations.map(evaluationRow)) : 'No reported reviews.',
  },
  byId('evaluation show', 'a review, with its reports'),
  byId('evaluation hide', 'take a review off the site and out of the rating', true),
  byId('evaluation unhide', 'put a hidden review back', false),
];

export default commandsPlugin('plugins', evaluationCommands);
