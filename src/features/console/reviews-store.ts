/**
 * The console's reviews area: the plugin reviews users reported, most
 * reported first unless sorted, of a plugin or hidden or not, a page at a time
 * (`evaluation reported`), and hiding or showing one again with the operator's
 * reason, which the audit log keeps (`evaluation hide|unhide`).
 */
import { atom } from 'nanostores';
import type { ResultOf } from '#contract/command.ts';
import { pluginsCommands, reviewSorts } from '#contract/commands/plugins.ts';
import { listSize } from '#contract/list.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';
import type { ListStart, ListState } from './list-url.ts';

export type ReviewsPage = Omit<ResultOf<typeof pluginsCommands.reported>, 'command'>;
export type ReviewSort = (typeof reviewSorts)[number];
export type ReviewFilter = { shown: 'hidden' | 'visible' | ''; plugin: string };

/** The list as it opens: every reported review, most reported first; the page's URL says otherwise (list-url.ts). */
export const reviewsList: ListStart<ReviewSort, ReviewFilter> = {
  columns: reviewSorts,
  start: { query: { sort: 'reports', dir: 'desc', page: 1, size: listSize.default }, filter: { shown: '', plugin: '' } },
};

export function createReviews(run: RunCommand) {
  const $reviews = atom<ReviewsPage | null>(null);
  const action = createAction<'console.reviews.hidden' | 'console.reviews.shown'>();

  async function list({ query, filter }: ListState<ReviewSort, ReviewFilter>): Promise<void> {
    // What the form leaves empty (or a value typed into the URL the list does not know) is no condition.
    const shown = filter.shown === 'hidden' || filter.shown === 'visible' ? filter.shown : undefined;
    await action.run(async () => {
      const { rows, total, page, size } = await run(pluginsCommands.reported, { ...query, shown, plugin: filter.plugin.trim() || undefined });
      $reviews.set({ rows, total, page, size });
    });
  }

  async function setHidden(id: number, hidden: boolean, reason: string): Promise<void> {
    await action.run(
      async () => {
        const changed = await run(hidden ? pluginsCommands.hide : pluginsCommands.unhide, { id, reason: reason.trim() || undefined });
        const shown = $reviews.get();
        if (changed.evaluation && shown) $reviews.set({ ...shown, rows: shown.rows.map((review) => (review.id === id ? changed.evaluation! : review)) });
      },
      hidden ? 'console.reviews.hidden' : 'console.reviews.shown',
    );
  }

  return { $reviews, $busy: action.$busy, $notice: action.$notice, list, setHidden };
}
