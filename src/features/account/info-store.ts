/**
 * The profile page's glance at commerce: the wallet balance and the
 * membership's end, read when first shown. It is a glance only: when it cannot
 * be read the page shows the profile without it, and says nothing.
 */
import { atom, onMount } from 'nanostores';
import { commerceCalls } from '#contract/commerce.ts';
import type { ResponseOf } from '#contract/api.ts';
import type { CenterEnvironment } from './center-environment.ts';

export type CommerceSummary = ResponseOf<typeof commerceCalls.summary>;

export function createAccountInfo(env: Pick<CenterEnvironment, 'call' | '$user'>) {
  /** The balance and membership; null until read, and when they could not be. */
  const $summary = atom<CommerceSummary | null>(null);

  onMount($summary, () => {
    env.call(commerceCalls.summary).then(
      (summary) => $summary.set(summary),
      () => {},
    );
  });

  return { $user: env.$user, $summary };
}
