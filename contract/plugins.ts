/**
 * Plugin evaluations (the `plugin` pages and their data sets): the catalogue
 * itself is content (content/plugins), built
 * into pages; what changes at run time — the ratings and reviews — comes from
 * these calls under `pluginBase`. The list and the default evaluation (a
 * plugin's aggregate) are public and cached; a user's own evaluation and
 * marks are theirs alone.
 */
import * as z from 'zod/mini';
import catalogue from '../content/plugins/catalogue.json' with { type: 'json' };
import { route } from './api.ts';
import { loadMore, pageSize, paged } from './paging.ts';
import { facts } from './facts.ts';
import { Empty, multilineText, pathId, text } from './fields.ts';
import { localeCodes } from './locales.ts';

export { catalogue as pluginCatalogue };

export const pluginBase = '/plugin';

export const pluginSlugs = catalogue.plugins.map((plugin) => plugin.slug);

export const pluginRules = {
  /** Stars from 1 to this (content/facts.json `plugins.ratingMax`). */
  ratingMax: facts.plugins.ratingMax,
  /** The longest review text, in characters (`plugins.reviewMaxLength`). */
  textMaxLength: facts.plugins.reviewMaxLength,
  /** A plugin list page holds a page of any list (24, contract/paging.ts): not the reviews' batch below. */
  listPageSize: pageSize,
  /** Reviews are read by scrolling: they load more at a time of the request helper's size. */
  reviewsPerLoad: loadMore.pageSize,
  /** Writing, editing and deleting reviews: at most this many an hour per account (`plugins.reviewWritesPerHour`). */
  reviewWritesPerHour: facts.plugins.reviewWritesPerHour,
  /** Helpful marks and reports: at most this many an hour per account (`plugins.voteWritesPerHour`). */
  voteWritesPerHour: facts.plugins.voteWritesPerHour,
} as const;

/** How long the site keeps each answer: the public ones briefly, so ratings on prebuilt pages are never stale for long. */
export const pluginCacheMs = { list: 60_000, rating: 60_000, evaluations: 60_000, own: 300_000 } as const;

const Instant = z.iso.datetime();

/** A plugin's aggregate, its "default evaluation": visible reviews only. */
export const Rating = z.object({
  Plugin: text(),
  Count: z.int(),
  /** The mean of the stars, 0 when nobody rated. */
  Average: z.number(),
  /** How many gave 1, 2, … ratingMax stars. */
  Stars: z.array(z.int()).check(z.length(pluginRules.ratingMax)),
});
export type Rating = z.infer<typeof Rating>;

export const Evaluation = z.object({
  Id: z.int(),
  Plugin: text(),
  Rating: z.int(),
  /** As the author typed it, in lines: show it as text, never as HTML. */
  Text: multilineText(),
  /** The language the author wrote in (their page's), so pages mark it up right. */
  Locale: z.enum(localeCodes),
  Author: text(),
  Helpful: z.int(),
  CreatedAt: Instant,
  UpdatedAt: Instant,
});
export type Evaluation = z.infer<typeof Evaluation>;

/** The caller's part in one plugin's reviews: their own (hidden by an operator, perhaps) and what they marked. */
export const OwnEvaluation = z.object({
  Evaluation: z.nullable(z.extend(Evaluation, { Hidden: z.boolean() })),
  Helpful: z.array(z.int()),
  Reported: z.array(z.int()),
});
export type OwnEvaluation = z.infer<typeof OwnEvaluation>;

export const EvaluationSort = z.enum(['newest', 'helpful']);
export type EvaluationSort = z.infer<typeof EvaluationSort>;

export const reportReasons = ['spam', 'offensive', 'offTopic', 'other'] as const;
export const ReportReason = z.enum(reportReasons);
export type ReportReason = z.infer<typeof ReportReason>;

const Slug = z.enum(pluginSlugs as [string, ...string[]]);
const page = z.pipe(text(z.regex(/^[0-9]{1,6}$/)), z.pipe(z.transform(Number), z.int().check(z.positive())));
const slug = z.object({ slug: Slug });
const evaluationId = z.object({ id: pathId });

const call = <const M extends 'GET' | 'POST' | 'DELETE', const P extends string>(method: M, path: P) => ({
  method,
  path: `${pluginBase}${path}` as const,
  encrypted: false as const,
  shape: 'envelope' as const,
});

export const pluginCalls = {
  /** The list data set: every plugin's aggregate. */
  list: route({ ...call('GET', '/list'), auth: 'none', request: Empty, response: z.array(Rating) }),
  /** The default evaluation: one plugin's aggregate. */
  rating: route({ ...call('GET', '/:slug/evaluation'), auth: 'none', params: slug, request: Empty, response: Rating }),
  /** The detail data set: visible reviews, newest or most helpful first, page `page` of `reviewsPerLoad`. */
  evaluations: route({
    ...call('GET', '/:slug/evaluations/:sort/:page'),
    auth: 'none',
    params: z.object({ slug: Slug, sort: EvaluationSort, page }),
    request: Empty,
    response: paged(Evaluation),
  }),
  own: route({ ...call('GET', '/:slug/evaluation/own'), auth: 'required', params: slug, request: Empty, response: OwnEvaluation }),
  /** Writes or replaces the caller's review; answers it and the new aggregate. */
  save: route({
    ...call('POST', '/:slug/evaluation'),
    auth: 'required',
    params: slug,
    request: z.object({ Rating: z.int().check(z.minimum(1), z.maximum(pluginRules.ratingMax)), Text: multilineText(z.maxLength(pluginRules.textMaxLength)) }),
    response: z.object({ Own: OwnEvaluation, Rating }),
  }),
  remove: route({ ...call('DELETE', '/:slug/evaluation'), auth: 'required', params: slug, request: Empty, response: z.object({ Own: OwnEvaluation, Rating }) }),
  /** Marks someone else's review helpful; marking it again changes nothing. */
  helpful: route({
    ...call('POST', '/evaluation/:id/helpful'),
    auth: 'required',
    params: evaluationId,
    request: Empty,
    response: z.object({ Helpful: z.int() }),
  }),
  /** Reports a review to the operators; reporting it again changes nothing. */
  report: route({
    ...call('POST', '/evaluation/:id/report'),
    auth: 'required',
    params: evaluationId,
    request: z.object({ Reason: ReportReason }),
    response: z.object({ Reported: z.literal(true) }),
  }),
};
