/**
 * Plugin reviews and their aggregates. Every change to a visible review
 * changes its plugin's row in `plugin_ratings` in the same transaction, by
 * increments the row lock serialises, so the aggregate always equals a
 * recount. A user's writes are serialised by locking their user row, which
 * also makes the hourly limits exact under any number of parallel requests.
 */
import { and, asc, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { ErrorCode } from '#contract/errors.ts';
import type { LocaleCode } from '#contract/locales.ts';
import { pluginRules, type Evaluation, type EvaluationSort, type OwnEvaluation, type Rating, type ReportReason } from '#contract/plugins.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { evaluationHelpful, evaluationReports, evaluationWrites, pluginEvaluations, pluginRatings } from '../../db/schema/plugins.ts';
import { users } from '../../db/schema/identity.ts';
import { ApiError } from '../../http/api-error.ts';

type EvaluationRow = typeof pluginEvaluations.$inferSelect;
type RatingRow = typeof pluginRatings.$inferSelect;

const hourMs = 3_600_000;
const emptyStars = () => Array.from({ length: pluginRules.ratingMax }, () => 0);

export const evaluationNotFound = () => new ApiError(ErrorCode.NotFound, 'evaluationNotFound');

/** Every plugin of the catalogue has its aggregate row, so changes only ever update one. */
export async function ensureRatings(db: Database, slugs: readonly string[]): Promise<void> {
  await db
    .insert(pluginRatings)
    .values(slugs.map((plugin) => ({ plugin, stars: emptyStars() })))
    .onConflictDoNothing();
}

function toRating(row: RatingRow): Rating {
  return { Plugin: row.plugin, Count: row.count, Average: row.count ? Math.round((row.total / row.count) * 100) / 100 : 0, Stars: row.stars };
}

export async function allRatings(db: Database, slugs: readonly string[]): Promise<Rating[]> {
  const rows = await db
    .select()
    .from(pluginRatings)
    .where(inArray(pluginRatings.plugin, [...slugs]));
  return rows.map(toRating);
}

/** A catalogue plugin's rating (`ensureRatings` made its row at start-up). */
export async function ratingOf(db: Database | Transaction, plugin: string): Promise<Rating> {
  const [row] = await db.select().from(pluginRatings).where(eq(pluginRatings.plugin, plugin));
  return toRating(row);
}

/** Adds (`delta` 1) or takes away (-1) one visible review of `rating` stars from the plugin's aggregate. */
async function adjust(tx: Transaction, plugin: string, rating: number, delta: 1 | -1): Promise<void> {
  await tx.execute(sql`
    update plugin_ratings
    set stars[${rating}::int] = stars[${rating}::int] + ${delta}::int, count = count + ${delta}::int, total = total + ${delta * rating}::int
    where plugin = ${plugin}`);
}

/**
 * Counts one write of `kind` against the user's hourly limit, or refuses it
 * saying when they can go on. Locks the user's row first: their parallel
 * writes queue here, so none slips past the count.
 */
async function spend(tx: Transaction, userId: number, kind: 'review' | 'vote'): Promise<void> {
  await tx.execute(sql`select id from users where id = ${userId} for update`);
  const now = Date.now();
  await tx.delete(evaluationWrites).where(and(eq(evaluationWrites.userId, userId), lt(evaluationWrites.at, new Date(now - hourMs))));
  const recent = await tx
    .select({ at: evaluationWrites.at })
    .from(evaluationWrites)
    .where(and(eq(evaluationWrites.userId, userId), eq(evaluationWrites.kind, kind)))
    .orderBy(asc(evaluationWrites.at));
  const limit = kind === 'review' ? pluginRules.reviewWritesPerHour : pluginRules.voteWritesPerHour;
  if (recent.length >= limit) {
    const retryAfterMs = recent[0].at.getTime() + hourMs - now;
    const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
    throw new ApiError(ErrorCode.TooManyRequests, kind === 'review' ? 'reviewWriteLimit' : 'voteWriteLimit', { minutes: String(minutes) }, { retryAfterMs });
  }
  await tx.insert(evaluationWrites).values({ userId, kind });
}

const authorColumns = { evaluation: pluginEvaluations, author: users.nickname };

function toEvaluation({ evaluation, author }: { evaluation: EvaluationRow; author: string }): Evaluation {
  return {
    Id: evaluation.id,
    Plugin: evaluation.plugin,
    Rating: evaluation.rating,
    Text: evaluation.body,
    Locale: evaluation.locale,
    Author: author,
    Helpful: evaluation.helpful,
    CreatedAt: evaluation.createdAt.toISOString(),
    UpdatedAt: evaluation.updatedAt.toISOString(),
  };
}

/** Visible reviews of a plugin, newest or most helpful first. */
export async function evaluationPage(db: Database, plugin: string, sort: EvaluationSort, page: number) {
  const visible = and(eq(pluginEvaluations.plugin, plugin), isNull(pluginEvaluations.hiddenAt));
  const order =
    sort === 'newest'
      ? [desc(pluginEvaluations.createdAt), desc(pluginEvaluations.id)]
      : [desc(pluginEvaluations.helpful), desc(pluginEvaluations.createdAt), desc(pluginEvaluations.id)];
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(authorColumns)
      .from(pluginEvaluations)
      .innerJoin(users, eq(users.id, pluginEvaluations.userId))
      .where(visible)
      .orderBy(...order)
      .limit(pluginRules.reviewsPerLoad)
      .offset((page - 1) * pluginRules.reviewsPerLoad),
    db.select({ total: count() }).from(pluginEvaluations).where(visible),
  ]);
  return { Items: rows.map(toEvaluation), Total: total, Page: page };
}

/** The user's review of the plugin (hidden or not) and the reviews of it they marked helpful or reported. */
export async function ownEvaluation(db: Database | Transaction, plugin: string, userId: number): Promise<OwnEvaluation> {
  const [[own], helpful, reported] = await Promise.all([
    db
      .select(authorColumns)
      .from(pluginEvaluations)
      .innerJoin(users, eq(users.id, pluginEvaluations.userId))
      .where(and(eq(pluginEvaluations.plugin, plugin), eq(pluginEvaluations.userId, userId))),
    db
      .select({ id: evaluationHelpful.evaluationId })
      .from(evaluationHelpful)
      .innerJoin(pluginEvaluations, eq(pluginEvaluations.id, evaluationHelpful.evaluationId))
      .where(and(eq(evaluationHelpful.userId, userId), eq(pluginEvaluations.plugin, plugin))),
    db
      .select({ id: evaluationReports.evaluationId })
      .from(evaluationReports)
      .innerJoin(pluginEvaluations, eq(pluginEvaluations.id, evaluationReports.evaluationId))
      .where(and(eq(evaluationReports.userId, userId), eq(pluginEvaluations.plugin, plugin))),
  ]);
  return {
    Evaluation: own ? { ...toEvaluation(own), Hidden: own.evaluation.hiddenAt !== null } : null,
    Helpful: helpful.map((row) => row.id),
    Reported: reported.map((row) => row.id),
  };
}

/** Trimmed, with runs of blank lines cut to one: what the author meant, kept as plain text. */
const tidy = (text: string) => text.trim().replace(/\n{3,}/g, '\n\n');

async function lockedOwn(tx: Transaction, plugin: string, userId: number): Promise<EvaluationRow | undefined> {
  const [row] = await tx
    .select()
    .from(pluginEvaluations)
    .where(and(eq(pluginEvaluations.plugin, plugin), eq(pluginEvaluations.userId, userId)))
    .for('update');
  return row;
}

/** Writes the user's review of the plugin, or replaces the one they have; a hidden one stays hidden. */
export async function saveEvaluation(db: Database, plugin: string, userId: number, rating: number, text: string, locale: LocaleCode) {
  return db.transaction(async (tx) => {
    await spend(tx, userId, 'review');
    const existing = await lockedOwn(tx, plugin, userId);
    const body = tidy(text);
    if (existing) {
      await tx.update(pluginEvaluations).set({ rating, body, locale, updatedAt: new Date() }).where(eq(pluginEvaluations.id, existing.id));
      if (existing.hiddenAt === null && existing.rating !== rating) {
        await adjust(tx, plugin, existing.rating, -1);
        await adjust(tx, plugin, rating, 1);
      }
    } else {
      await tx.insert(pluginEvaluations).values({ plugin, userId, rating, body, locale });
      await adjust(tx, plugin, rating, 1);
    }
    return { Own: await ownEvaluation(tx, plugin, userId), Rating: await ratingOf(tx, plugin) };
  });
}

export async function removeEvaluation(db: Database, plugin: string, userId: number) {
  return db.transaction(async (tx) => {
    await spend(tx, userId, 'review');
    const existing = await lockedOwn(tx, plugin, userId);
    if (!existing) throw evaluationNotFound();
    await tx.delete(pluginEvaluations).where(eq(pluginEvaluations.id, existing.id));
    if (existing.hiddenAt === null) await adjust(tx, plugin, existing.rating, -1);
    return { Own: await ownEvaluation(tx, plugin, userId), Rating: await ratingOf(tx, plugin) };
  });
}

/** A visible review by someone else: the only kind one can mark or report. */
async function othersVisible(tx: Transaction, id: number, userId: number): Promise<EvaluationRow> {
  const [row] = await tx.select().from(pluginEvaluations).where(eq(pluginEvaluations.id, id));
  if (!row || row.hiddenAt !== null) throw evaluationNotFound();
  if (row.userId === userId) throw new ApiError(ErrorCode.EvaluationOwn, 'evaluationOwn');
  return row;
}

export async function markHelpful(db: Database, id: number, userId: number): Promise<{ Helpful: number }> {
  return db.transaction(async (tx) => {
    await spend(tx, userId, 'vote');
    const row = await othersVisible(tx, id, userId);
    const marked = await tx.insert(evaluationHelpful).values({ evaluationId: id, userId }).onConflictDoNothing().returning();
    if (marked.length === 0) return { Helpful: row.helpful };
    const [updated] = await tx
      .update(pluginEvaluations)
      .set({ helpful: sql`${pluginEvaluations.helpful} + 1` })
      .where(eq(pluginEvaluations.id, id))
      .returning({ helpful: pluginEvaluations.helpful });
    return { Helpful: updated.helpful };
  });
}

export async function reportEvaluation(db: Database, id: number, userId: number, reason: ReportReason): Promise<void> {
  await db.transaction(async (tx) => {
    await spend(tx, userId, 'vote');
    await othersVisible(tx, id, userId);
    await tx.insert(evaluationReports).values({ evaluationId: id, userId, reason }).onConflictDoNothing();
  });
}

/** An operator hides a review (it leaves the lists and the aggregate) or shows it again; null when there is no such review. */
/** Hides or shows a review, with the operator's reason in the audit log; one already so writes nothing. */
export async function setHidden(db: Database, actor: Actor, id: number, hidden: boolean, reason: string | null): Promise<EvaluationRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(pluginEvaluations).where(eq(pluginEvaluations.id, id)).for('update');
    if (!row) return null;
    if ((row.hiddenAt !== null) === hidden) return row;
    const [updated] = await tx
      .update(pluginEvaluations)
      .set({ hiddenAt: hidden ? new Date() : null })
      .where(eq(pluginEvaluations.id, id))
      .returning();
    await adjust(tx, row.plugin, row.rating, hidden ? -1 : 1);
    await recordAudit(tx, actor, {
      action: hidden ? 'evaluation hide' : 'evaluation unhide',
      target: `review ${id}`,
      before: { hidden: !hidden },
      after: { hidden, reason },
    });
    return updated;
  });
}
