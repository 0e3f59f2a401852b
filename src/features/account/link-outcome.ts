/**
 * Back from linking a quick-login identity: the login page sends the outcome
 * to the page the linking started from, in its address. A store says how it
 * went, once, as its action's notice (the linked-accounts and Steam account
 * pages).
 */
import type { ExternalLoginError } from '#contract/external-login.ts';
import { providerName } from '@/lib/quick-login-providers.ts';
import type { Action } from '@/stores/action.ts';

/** How a linking went (stores/quick-login.ts `takeLinkOutcome`): the provider, and why it failed, if it did. */
export interface LinkOutcome {
  provider: string;
  error: ExternalLoginError | null;
}

/** The messages of a linking's outcome. */
export type LinkOutcomeKey = `login.external.${ExternalLoginError}` | 'account.bind.linked';

/** Takes the outcome this page came back with, if any, and says it on `action`, naming the provider by its brand. */
export function showLinkOutcome(action: Pick<Action<LinkOutcomeKey>, 'say'>, take: () => LinkOutcome | null): void {
  const outcome = take();
  if (!outcome) return;
  const params = { provider: providerName(outcome.provider) };
  if (outcome.error) action.say('error', `login.external.${outcome.error}`, params);
  else action.say('ok', 'account.bind.linked', params);
}
