/**
 * One action at a time, for the store behind an island: `$busy` while it
 * runs, then `$notice` — the success message it was given, or the failure's
 * (our message by key, or the server's own words, already in the user's
 * language). A store keeps keys, not text: the island translates them
 * (NoticeLine), and the store's Node tests read them as data.
 */
import { atom } from 'nanostores';
import { failureMessage, type FailureMessageKey } from '@/lib/api/errors.ts';

export type NoticeParams = Record<string, string | number>;

/** An action's outcome: one of our messages by key, or words already in the user's language (the server's). */
export type Notice<K extends string = string> =
  { kind: 'ok' | 'error'; key: K | FailureMessageKey; params?: NoticeParams } | { kind: 'ok' | 'error'; text: string };

export function createAction<K extends string = never>() {
  const $busy = atom(false);
  const $notice = atom<Notice<K> | null>(null);
  /** Runs `action`; resolves to its result, or undefined when it failed (the failure is the notice). */
  async function run<T>(action: () => Promise<T>, done?: K, params?: NoticeParams): Promise<T | undefined> {
    $busy.set(true);
    $notice.set(null);
    try {
      const result = await action();
      if (done) $notice.set({ kind: 'ok', key: done, params });
      return result;
    } catch (error) {
      $notice.set({ kind: 'error', ...failureMessage(error) });
      return undefined;
    } finally {
      $busy.set(false);
    }
  }
  /** An outcome by key that came other than through `run` (a linking the page's address reports). */
  const say = (kind: 'ok' | 'error', key: K, params?: NoticeParams) => $notice.set({ kind, key, params });
  /** A refusal found before any call (a form's own check). */
  const refuse = (key: K, params?: NoticeParams) => say('error', key, params);
  const clear = () => $notice.set(null);
  return { $busy, $notice, run, say, refuse, clear };
}

export type Action<K extends string = never> = ReturnType<typeof createAction<K>>;

/** What an island reads of one of its store's actions, when a store has several: whether it runs, and its outcome. */
export const outcomeOf = <K extends string>(action: Action<K>) => ({ $busy: action.$busy, $notice: action.$notice });
