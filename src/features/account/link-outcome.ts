/**
 * Back from linking a quick-login identity: the login page sends the outcome
 * to the page that started it (`takeLinkOutcome`, stores/quick-login.ts),
 * which says how it went as its action's notice, once.
 */
import type { ExternalLoginError } from '#contract/external-login.ts';
import type { UiKey } from '@/i18n/strings.ts';
import { providerName } from '@/lib/quick-login-providers.ts';
import type { Action } from '@/stores/action.ts';

/** How a linking went: the provider, and why it failed (null when it is linked). */
export interface LinkOutcome {
  provider: string;
  error: ExternalLoginError | null;
}

/** The messages of a linking's outcome. */
export type LinkOutcomeKey = Extract<UiKey, `login.external.${string}`> | 'account.bind.linked';

/** Sets `action`'s notice from the outcome `take` hands over (taking it), if there is one. */
export function showLinkOutcome<K extends string>(action: Action<K | LinkOutcomeKey>, take: () => LinkOutcome | null): void {
  const outcome = take();
  if (!outcome) return;
  const params = { provider: providerName(outcome.provider) };
  if (outcome.error) action.say('error', `login.external.${outcome.error}`, params);
  else action.say('ok', 'account.bind.linked', params);
}
