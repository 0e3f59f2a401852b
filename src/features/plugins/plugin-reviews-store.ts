/**
 * A plugin's reviews, their logic free of any framework: the data
 * (stores/plugins.ts), the user's own review — writing it, editing it with its
 * stars and text, deleting it — and, for everyone else's reviews, marking one
 * helpful and reporting it with a reason, each an action with its outcome. The
 * API comes in as a `PluginApi`, so tests drive the reviews in Node.
 */
import { atom, computed } from 'nanostores';
import { pluginRules, type ReportReason } from '#contract/plugins.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { failureMessage } from '@/lib/api/errors.ts';
import { createAction, type Notice } from '@/stores/action.ts';
import { pluginStores, type PluginApi } from '@/stores/plugins.ts';

type PluginKey = KeysUnder<'plugin'>;

export function createPluginReviews(env: PluginApi, slug: string) {
  const data = pluginStores(slug, env);
  /** The own review's action: publishing, saving and deleting it. */
  const action = createAction<PluginKey>();
  /** Whether the user's existing review shows as the form. */
  const $editing = atom(false);
  /** The stars the form gives (0: none chosen yet). */
  const $stars = atom(0);
  const $text = atom('');
  /** Characters the text may still grow by. */
  const $left = computed($text, (text) => pluginRules.textMaxLength - text.length);
  /** Why the reviews could not be read, until the next try. */
  const $listFailure = computed(data.$reviews, ({ failure }): Notice<never> | null => (failure ? { kind: 'error', ...failureMessage(failure) } : null));

  /** Opens the user's review in the form, with its stars and text. */
  function edit(): void {
    const mine = data.$own.get().data?.Evaluation;
    $stars.set(mine?.Rating ?? 0);
    $text.set(mine?.Text ?? '');
    $editing.set(true);
  }

  const cancel = () => $editing.set(false);

  /** Publishes the review, or saves the edited one: stars are required, text is not. */
  async function submit(): Promise<void> {
    if ($stars.get() < 1) return action.refuse('plugin.chooseRating');
    const saved = await action.run(() => data.save($stars.get(), $text.get()), 'plugin.published');
    if (saved) $editing.set(false);
  }

  /** Deletes the user's review; the form then starts a new one from nothing. */
  async function remove(): Promise<void> {
    const removed = await action.run(() => data.remove().then(() => true), 'plugin.deleted');
    if (!removed) return;
    $stars.set(0);
    $text.set('');
  }

  /** What the user can do with someone else's review: mark it helpful, or report it with a reason — one action at a time, with its outcome. */
  function reviewActions(id: number) {
    const reviewAction = createAction<PluginKey>();
    const $reporting = atom(false);
    const $reason = atom<ReportReason>('spam');
    async function sendReport(): Promise<void> {
      const sent = await reviewAction.run(() => data.report(id, $reason.get()).then(() => true), 'plugin.reportSent');
      if (sent) $reporting.set(false);
    }
    return {
      $busy: reviewAction.$busy,
      $notice: reviewAction.$notice,
      $reporting,
      $reason,
      toggleReport: () => $reporting.set(!$reporting.get()),
      markHelpful: () => reviewAction.run(() => data.markHelpful(id)),
      sendReport,
    };
  }

  return { ...data, $busy: action.$busy, $notice: action.$notice, $editing, $stars, $text, $left, $listFailure, edit, cancel, submit, remove, reviewActions };
}
