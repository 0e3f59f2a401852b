/**
 * The operators' commands about plugin reviews: `evaluation reported`, `evaluation show <id>` and
 * `evaluation hide|unhide <id> [--reason "<words>"]`. A hidden review leaves the public lists and its
 * plugin's aggregate at once.
 */
import * as z from 'zod/mini';
import { EvaluationEntry } from '../admin.ts';
import { command, UsageError } from '../command.ts';
import { listArgs, listPage, listSize, listWords } from '../list.ts';
import { text } from '../fields.ts';

/** The most an operator's reason for hiding or showing a review may say. */
export const reviewReasonMaxLength = 500;

/** A review's id (a Postgres `serial`). */
const ReviewId = z.int().check(z.positive(), z.maximum(2_147_483_647));

/** The review as it is now, or null for an id there is none of. */
const reviewShown = { evaluation: z.nullable(EvaluationEntry) };

/** `words` of `evaluation show` (`reason`: false) and of `evaluation hide|unhide`, which also take `--reason "<words>"`. */
const reviewWords =
  (name: string, reason: boolean) =>
  (rest: string[]): { id: number; reason?: string } => {
    const wrong = () => new UsageError(`${name} takes one review id (evaluation reported shows them)${reason ? ', then --reason "<words>" (quoted)' : ''}`);
    const [id = '', ...options] = rest;
    if (!/^[1-9][0-9]{0,9}$/.test(id)) throw wrong();
    if (options.length === 0) return { id: Number(id) };
    if (!reason || options.length !== 2 || options[0] !== '--reason') throw wrong();
    return { id: Number(id), reason: options[1] };
  };

/** `reason`: why, for the audit log. */
const Hiding = z.strictObject({ id: ReviewId, reason: z.optional(text(z.trim(), z.minLength(1), z.maxLength(reviewReasonMaxLength))) });

/** The columns `evaluation reported` sorts by: how many reported it, when it was written, its stars. */
export const reviewSorts = ['reports', 'created', 'rating'] as const;

export const pluginsCommands = {
  reported: command({
    name: 'evaluation reported',
    role: 'operator',
    usage: `evaluation reported [--shown hidden|visible] [--plugin <slug>] [--sort ${reviewSorts.join('|')}] [--asc|--desc] [--page N] [--size N]
                                  reviews users reported, most reported first unless sorted, a page at a time (${listSize.default})`,
    args: z.strictObject({
      ...listArgs(reviewSorts, 'reports'),
      /** Only the reviews hidden from the site, or only those on it. */
      shown: z.optional(z.enum(['hidden', 'visible'])),
      plugin: z.optional(text(z.regex(/^[a-z0-9-]{1,80}$/, 'a plugin is named by its slug, such as library-cleaner'))),
    }),
    words: listWords('evaluation reported', { '--shown': 'shown', '--plugin': 'plugin' }),
    result: listPage(EvaluationEntry),
  }),
  show: command({
    name: 'evaluation show',
    role: 'operator',
    usage: 'evaluation show <id>            a review, with its reports',
    args: z.strictObject({ id: ReviewId }),
    words: reviewWords('evaluation show', false),
    result: reviewShown,
  }),
  hide: command({
    name: 'evaluation hide',
    role: 'operator',
    usage: 'evaluation hide <id> [--reason "<words>"]   take a review off the site and out of the rating',
    args: Hiding,
    words: reviewWords('evaluation hide', true),
    result: reviewShown,
  }),
  unhide: command({
    name: 'evaluation unhide',
    role: 'operator',
    usage: 'evaluation unhide <id> [--reason "<words>"]   put a hidden review back',
    args: Hiding,
    words: reviewWords('evaluation unhide', true),
    result: reviewShown,
  }),
};
