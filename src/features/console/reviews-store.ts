/**
 * The console's reviews area: the plugin reviews users reported, most
 * reported first (`evaluation reported`), and hiding or showing one again
 * with the operator's reason, which the audit log keeps (`evaluation hide|unhide`).
 */
import { atom } from 'nanostores';
import type { EvaluationEntry } from '#contract/admin.ts';
import { pluginsCommands } from '#contract/commands/plugins.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';

export function createReviews(run: RunCommand) {
  const $reviews = atom<EvaluationEntry[] | null>(null);
  const action = createAction<'console.reviews.hidden' | 'console.reviews.shown'>();

  async function load(): Promise<void> {
    await action.run(async () => $reviews.set((await run(pluginsCommands.reported, {})).evaluations));
  }

  async function setHidden(id: number, hidden: boolean, reason: string): Promise<void> {
    await action.run(
      async () => {
        const changed = await run(hidden ? pluginsCommands.hide : pluginsCommands.unhide, { id, reason: reason.trim() || undefined });
        if (changed.evaluation) $reviews.set(($reviews.get() ?? []).map((review) => (review.id === id ? changed.evaluation! : review)));
      },
      hidden ? 'console.reviews.hidden' : 'console.reviews.shown',
    );
  }

  return { $reviews, $busy: action.$busy, $notice: action.$notice, load, setHidden };
}
