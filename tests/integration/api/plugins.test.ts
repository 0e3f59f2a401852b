/**
 * Plugin reviews end to end: the rules (one per user and plugin, edit,
 * delete, helpful once, report once, hide), text that stays inert, the write
 * limits, the cache headers, auth on every write, other users' reviews out of
 * reach, and the races: 500 ratings at once must leave an aggregate equal to
 * a recount, and one user's parallel writes must stay within their limit.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationEntry } from '#contract/admin.ts';
import { ErrorCode } from '#contract/errors.ts';
import { pluginCalls, pluginRules, pluginSlugs, type Rating } from '#contract/plugins.ts';
import { rowsOf } from '../../../server/db/database.ts';
import { evaluationWrites, pluginEvaluations } from '../../../server/db/schema.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { loginBySms } from './codes.ts';
import { loggedInUsers, runAdmin, startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;
const newUser = async () => {
  const login = await loginBySms(t, `1392600${String(++phoneSeq).padStart(4, '0')}`, `plugin-device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id };
};
const users = (count: number) => loggedInUsers(t, count);

beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

/** Each test rates a plugin of its own where it can, so aggregates do not mix. */
const [authenticator, switcher, cleaner, achievements, hosts, screenshots] = pluginSlugs;

const save = (token: string, slug: string, Rating: number, Text = '') => t.call(pluginCalls.save, { token, params: { slug }, body: { Rating, Text } });
const remove = (token: string, slug: string) => t.call(pluginCalls.remove, { token, params: { slug } });
const own = (token: string, slug: string) => t.call(pluginCalls.own, { token, params: { slug } });
const rating = async (slug: string) => (await t.call(pluginCalls.rating, { params: { slug } })).body.data;
const page = (slug: string, sort: 'newest' | 'helpful', n = 1) => t.call(pluginCalls.evaluations, { params: { slug, sort, page: n } });
const helpful = (token: string, id: number) => t.call(pluginCalls.helpful, { token, params: { id } });
const report = (token: string, id: number, Reason = 'spam') => t.call(pluginCalls.report, { token, params: { id }, body: { Reason } });

/** The aggregate counted afresh from the visible reviews. */
async function recount(slug: string): Promise<Pick<Rating, 'Count' | 'Stars'>> {
  const rows = rowsOf<{ rating: number; n: number }>(
    await t.app.db.execute(sql`select rating, count(*)::int as n from plugin_evaluations where plugin = ${slug} and hidden_at is null group by rating`),
  );
  const Stars = Array.from({ length: pluginRules.ratingMax }, (_, i) => rows.find((row) => row.rating === i + 1)?.n ?? 0);
  return { Count: Stars.reduce((sum, n) => sum + n, 0), Stars };
}

/** Clears a user's counted writes, for tests that are about something else than the limit. */
const forgetWrites = (userId: number) => t.app.db.delete(evaluationWrites).where(eq(evaluationWrites.userId, userId));

describe('reviews', () => {
  it('keeps one review per user and plugin, which its author edits and deletes, and the aggregate follows', async () => {
    const [a, b] = await users(2);
    expect(await rating(authenticator)).toEqual({ Plugin: authenticator, Count: 0, Average: 0, Stars: [0, 0, 0, 0, 0] });

    const first = await save(a.token, authenticator, 4, 'Good.\n\nSecond paragraph.');
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Your review is saved.');
    expect(first.body.data.Rating).toEqual({ Plugin: authenticator, Count: 1, Average: 4, Stars: [0, 0, 0, 1, 0] });
    expect(first.body.data.Own.Evaluation).toMatchObject({ Rating: 4, Text: 'Good.\n\nSecond paragraph.', Locale: 'en', Hidden: false });

    // Saving again replaces it: still one review.
    const edited = await save(a.token, authenticator, 2, '  Changed my mind.\n\n\n\nToo slow.  ');
    expect(edited.body.data.Own.Evaluation).toMatchObject({ Id: first.body.data.Own.Evaluation!.Id, Rating: 2, Text: 'Changed my mind.\n\nToo slow.' });
    expect(edited.body.data.Rating).toEqual({ Plugin: authenticator, Count: 1, Average: 2, Stars: [0, 1, 0, 0, 0] });

    await save(b.token, authenticator, 5);
    expect(await rating(authenticator)).toEqual({ Plugin: authenticator, Count: 2, Average: 3.5, Stars: [0, 1, 0, 0, 1] });
    expect((await page(authenticator, 'newest')).body.data.Total).toBe(2);

    const deleted = await remove(a.token, authenticator);
    expect(deleted.body.message).toBe('Your review is deleted.');
    expect(deleted.body.data.Own.Evaluation).toBeNull();
    expect(deleted.body.data.Rating).toEqual({ Plugin: authenticator, Count: 1, Average: 5, Stars: [0, 0, 0, 0, 1] });
    expect((await remove(a.token, authenticator)).body.code).toBe(404);
    expect(await recount(authenticator)).toEqual({ Count: 1, Stars: [0, 0, 0, 0, 1] });
  });

  it('lets others mark a review helpful once and report it once, but not its author', async () => {
    const [author, reader, other] = await users(3);
    const id = (await save(author.token, switcher, 5, 'Switches fast.')).body.data.Own.Evaluation!.Id;

    expect((await helpful(reader.token, id)).body.data).toEqual({ Helpful: 1 });
    expect((await helpful(reader.token, id)).body.data).toEqual({ Helpful: 1 });
    expect((await helpful(other.token, id)).body.data).toEqual({ Helpful: 2 });
    const mine = await helpful(author.token, id);
    expect(mine.status).toBe(409);
    expect(mine.body).toMatchObject({ code: ErrorCode.EvaluationOwn, message: 'You cannot mark or report your own review.' });

    expect((await report(reader.token, id)).body).toMatchObject({ code: 200, message: 'Thank you. Our team will look at this review.' });
    expect((await report(reader.token, id, 'offensive')).status).toBe(200);
    expect((await report(author.token, id)).body.code).toBe(ErrorCode.EvaluationOwn);
    expect((await own(reader.token, switcher)).body.data).toEqual({ Evaluation: null, Helpful: [id], Reported: [id] });
    expect((await helpful(reader.token, 2_000_000_000)).body.code).toBe(404);

    const reported = await runAdmin<{ rows: EvaluationEntry[] }>(t, 'evaluation', 'reported', '--size', '200');
    // Reported twice by one reader counts once, with the first reason.
    expect(reported.data.rows.find((entry) => entry.id === id)).toMatchObject({ reports: 1, reasons: ['spam'], helpful: 2, hidden: false });
  });

  it('orders reviews newest or most helpful first, in pages of 24', async () => {
    const writers = await users(pluginRules.reviewsPerLoad + 2);
    const ids: number[] = [];
    for (const [i, writer] of writers.entries()) ids.push((await save(writer.token, cleaner, (i % 5) + 1, `Review ${i}`)).body.data.Own.Evaluation!.Id);
    const [reader] = await users(1);
    await helpful(reader.token, ids[3]);

    const newest = (await page(cleaner, 'newest')).body.data;
    expect(newest.Total).toBe(writers.length);
    expect(newest.Items).toHaveLength(pluginRules.reviewsPerLoad);
    expect(newest.Items[0].Id).toBe(ids.at(-1));
    expect((await page(cleaner, 'newest', 2)).body.data.Items.map((item) => item.Id)).toEqual([ids[1], ids[0]]);
    expect((await page(cleaner, 'helpful')).body.data.Items[0]).toMatchObject({ Id: ids[3], Helpful: 1, Author: expect.stringMatching(/^Player /) });
  });

  it('takes a hidden review off the lists and out of the aggregate, shows it to its author, and puts it back', async () => {
    const [author, reader] = await users(2);
    const id = (await save(author.token, achievements, 1, 'Spam spam spam')).body.data.Own.Evaluation!.Id;
    await save(reader.token, achievements, 5);
    expect((await rating(achievements)).Count).toBe(2);

    const hidden = await runAdmin<{ evaluation: EvaluationEntry }>(t, 'evaluation', 'hide', String(id));
    expect(hidden.data.evaluation).toMatchObject({ id, hidden: true });
    expect(await rating(achievements)).toEqual({ Plugin: achievements, Count: 1, Average: 5, Stars: [0, 0, 0, 0, 1] });
    expect((await page(achievements, 'newest')).body.data.Items.map((item) => item.Id)).not.toContain(id);
    expect((await own(author.token, achievements)).body.data.Evaluation).toMatchObject({ Id: id, Hidden: true });
    // Nobody can mark or report what is hidden.
    expect((await helpful(reader.token, id)).body.code).toBe(404);
    // Its author's edit keeps it hidden and out of the aggregate.
    await save(author.token, achievements, 3, 'Edited');
    expect((await rating(achievements)).Count).toBe(1);
    // Hiding twice changes nothing.
    await runAdmin(t, 'evaluation', 'hide', String(id));
    expect(await recount(achievements)).toEqual({ Count: 1, Stars: [0, 0, 0, 0, 1] });

    await runAdmin(t, 'evaluation', 'unhide', String(id));
    expect(await rating(achievements)).toEqual({ Plugin: achievements, Count: 2, Average: 4, Stars: [0, 0, 1, 0, 1] });
    expect((await runAdmin<{ evaluation: null }>(t, 'evaluation', 'show', '2000000000')).data.evaluation).toBeNull();
  });

  it('answers review text as the author typed it: markup stays text', async () => {
    const [author] = await users(1);
    const text = '<img src=x onerror=alert(1)> and <script>alert(2)</script> & "quotes"';
    const saved = await save(author.token, hosts, 3, text);
    expect(saved.body.data.Own.Evaluation!.Text).toBe(text);
    const listed = await page(hosts, 'newest');
    expect(listed.headers['content-type']).toMatch(/^application\/json/);
    expect(listed.headers['x-content-type-options']).toBe('nosniff');
    expect(listed.body.data.Items.find((item) => item.Text === text)).toBeDefined();
  });

  it('refuses ratings out of range, text that is too long or has control characters, and unknown plugins', async () => {
    const [author] = await users(1);
    for (const body of [
      { Rating: 0, Text: '' },
      { Rating: pluginRules.ratingMax + 1, Text: '' },
      { Rating: 2.5, Text: '' },
      { Rating: 3, Text: 'x'.repeat(pluginRules.textMaxLength + 1) },
      { Rating: 3, Text: 'bad\u0000byte' },
      { Rating: 3, Text: 'carriage\rreturn' },
    ]) {
      expect((await t.call(pluginCalls.save, { token: author.token, params: { slug: screenshots }, body })).status).toBe(400);
    }
    expect((await save(author.token, screenshots, 3, 'x'.repeat(pluginRules.textMaxLength))).status).toBe(200);
    expect((await save(author.token, 'no-such-plugin', 3)).status).toBe(400);
    expect((await t.call(pluginCalls.evaluations, { params: { slug: screenshots, sort: 'oldest', page: 1 } })).status).toBe(400);
  });

  it('caches the public answers briefly and the user’s own not at all', async () => {
    const [reader] = await users(1);
    expect((await t.call(pluginCalls.list)).headers['cache-control']).toBe('public, max-age=60');
    expect((await t.call(pluginCalls.rating, { params: { slug: hosts } })).headers['cache-control']).toBe('public, max-age=60');
    expect((await page(hosts, 'newest')).headers['cache-control']).toBe('public, max-age=60');
    expect((await own(reader.token, hosts)).headers['cache-control']).toBe('private, no-cache');
    const list = (await t.call(pluginCalls.list)).body.data;
    expect(list.map((item) => item.Plugin).sort()).toEqual([...pluginSlugs].sort());
  });
});

describe('write limits', () => {
  it('stops review writes past the hourly limit, saying when to come back, in the user’s language', async () => {
    const [writer] = await users(1);
    for (let i = 0; i < pluginRules.reviewWritesPerHour; i++) expect((await save(writer.token, screenshots, (i % 5) + 1)).status).toBe(200);
    const refused = await save(writer.token, screenshots, 5);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(`You can write, edit or delete reviews ${pluginRules.reviewWritesPerHour} times an hour. Please try again in 60 min.`);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    const inJapanese = await t.call(pluginCalls.remove, { token: writer.token, params: { slug: screenshots }, locale: 'ja' });
    expect(inJapanese.status).toBe(429);
    expect(inJapanese.body.message).toMatch(/60/);
    expect(inJapanese.body.message).not.toMatch(/[A-Za-z]{4}/);

    // An hour on, the writer can go on.
    await t.app.db.execute(sql`update evaluation_writes set at = at - interval '61 minutes' where user_id = ${writer.userId}`);
    expect((await save(writer.token, screenshots, 4)).status).toBe(200);
  });

  it('stops marks and reports past their own hourly limit', async () => {
    const [author, reader] = await users(2);
    const id = (await save(author.token, hosts, 4)).body.data.Own.Evaluation!.Id;
    for (let i = 0; i < pluginRules.voteWritesPerHour; i++) expect((await helpful(reader.token, id)).status).toBe(200);
    const refused = await report(reader.token, id);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toContain(`${pluginRules.voteWritesPerHour} times an hour`);
    // Reviews are counted apart.
    expect((await save(reader.token, hosts, 5)).status).toBe(200);
  });
});

describe('auth', () => {
  it('refuses missing, made-up, expired and revoked tokens on every call that needs a login', async () => {
    const [author] = await users(1);
    const id = (await save(author.token, switcher, 3)).body.data.Own.Evaluation!.Id;
    const required = Object.entries(pluginCalls).filter(([, route]) => route.auth === 'required');
    expect(required.map(([name]) => name).sort()).toEqual(['helpful', 'own', 'remove', 'report', 'save']);
    const bodies = new Map<unknown, unknown>([
      [pluginCalls.save, { Rating: 3, Text: '' }],
      [pluginCalls.report, { Reason: 'spam' }],
    ]);
    for (const [, route] of required) {
      await expectBadTokensRefused(t, route, { params: { slug: switcher, id }, body: bodies.get(route) }, newUser);
    }
    // Nothing was written by the refused calls.
    const rows = await t.app.db.select().from(pluginEvaluations).where(eq(pluginEvaluations.plugin, switcher));
    expect(rows.filter((row) => row.userId !== author.userId && row.body === '')).toHaveLength(0);
  });

  it('never shows or changes another user’s review through their own calls', async () => {
    const [a, b] = await users(2);
    await save(a.token, cleaner, 5, 'Mine');
    expect((await own(b.token, cleaner)).body.data.Evaluation).toBeNull();
    expect((await remove(b.token, cleaner)).status).toBe(404);
    await save(b.token, cleaner, 1, 'Theirs');
    expect((await own(a.token, cleaner)).body.data.Evaluation).toMatchObject({ Rating: 5, Text: 'Mine' });
    await forgetWrites(a.userId);
  });
});

/** Codes of the answers and how many of each, for the log. */
const tally = (answers: Array<{ body: { code: number } }>) =>
  answers.reduce<Record<number, number>>((counts, answer) => ({ ...counts, [answer.body.code]: (counts[answer.body.code] ?? 0) + 1 }), {});

describe('races', () => {
  it('leaves an aggregate equal to a recount after 500 users rate at once, then edit and delete at once', async () => {
    const slug = authenticator;
    const before = await recount(slug);
    const raters = await users(500);
    const stars = raters.map((_, i) => (i % pluginRules.ratingMax) + 1);
    const saved = await Promise.all(raters.map((rater, i) => save(rater.token, slug, stars[i], `Rating ${stars[i]}`)));
    expect(tally(saved)).toEqual({ 200: 500 });
    const afterSaves = await recount(slug);
    expect(afterSaves.Count).toBe(before.Count + 500);
    expect(await rating(slug)).toMatchObject(afterSaves);

    // Half change their rating while the other half delete theirs, all at once.
    const changes = await Promise.all(
      raters.map((rater, i) => (i % 2 === 0 ? save(rater.token, slug, pluginRules.ratingMax + 1 - stars[i]) : remove(rater.token, slug))),
    );
    expect(tally(changes)).toEqual({ 200: 500 });
    const afterChanges = await recount(slug);
    expect(afterChanges.Count).toBe(before.Count + 250);
    const shown = await rating(slug);
    expect(shown).toMatchObject(afterChanges);
    const [{ total }] = rowsOf<{ total: number }>(
      await t.app.db.execute(sql`select coalesce(sum(rating), 0)::int as total from plugin_evaluations where plugin = ${slug} and hidden_at is null`),
    );
    expect(shown.Average).toBeCloseTo(total / afterChanges.Count, 2);
    console.log(
      `rating race: 500 saves ${JSON.stringify(tally(saved))}, then 250 edits and 250 deletes ${JSON.stringify(tally(changes))}; aggregate ${JSON.stringify(shown)} equals the recount`,
    );
  }, 60_000);

  it('keeps one user’s 20 parallel saves to one review and to their hourly limit', async () => {
    const [writer] = await users(1);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => save(writer.token, switcher, (i % 5) + 1, `Attempt ${i}`)));
    expect(tally(answers)).toEqual({ 200: pluginRules.reviewWritesPerHour, 429: 20 - pluginRules.reviewWritesPerHour });
    const rows = await t.app.db
      .select()
      .from(pluginEvaluations)
      .where(and(eq(pluginEvaluations.plugin, switcher), eq(pluginEvaluations.userId, writer.userId), isNull(pluginEvaluations.hiddenAt)));
    expect(rows).toHaveLength(1);
    expect(await rating(switcher)).toMatchObject(await recount(switcher));
  });

  it('counts 30 parallel helpful marks by one reader once', async () => {
    const [author, reader] = await users(2);
    const id = (await save(author.token, screenshots, 5)).body.data.Own.Evaluation!.Id;
    const answers = await Promise.all(Array.from({ length: 30 }, () => helpful(reader.token, id)));
    expect(tally(answers)).toEqual({ 200: 30 });
    const [row] = await t.app.db.select().from(pluginEvaluations).where(eq(pluginEvaluations.id, id));
    expect(row.helpful).toBe(1);
  });
});
