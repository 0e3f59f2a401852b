/**
 * The Steam section of the account centre: the linked Steam identity, read
 * afresh when first shown (it may have changed in another tab, or come from a
 * link just made, whose outcome the page says once); linking it through Steam
 * quick login, and unlinking it once the user agrees. On the section's home,
 * the number of games on the cloud-idle list.
 */
import { atom, computed, onMount } from 'nanostores';
import { identity, type UserInfo } from '#contract/identity.ts';
import { idleGameCalls } from '#contract/idle-games.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { createAction } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';
import { showLinkOutcome, type LinkOutcome, type LinkOutcomeKey } from './link-outcome.ts';

/** A quick-login identity linked to the account. */
type LinkedAccount = UserInfo['ExternalAccounts'][number];

export type SteamKey = 'account.steam.unlinked' | LinkOutcomeKey;

export interface SteamEnvironment extends Pick<CenterEnvironment, 'call' | '$user' | 'refreshUser' | 'updateUser' | 'confirm'> {
  /** Leaves for the provider's sign-in, to link the identity there to this account; the login page comes back here. */
  startLinking(provider: 'steam', lang: LocaleCode): Promise<void>;
  /** How a linking went, when the page came back from one; once. */
  takeLinkOutcome(): LinkOutcome | null;
}

export interface SteamOptions {
  /** The page's locale: Steam's sign-in, and the login page after it, speak it. */
  locale: LocaleCode;
}

export function createSteamAccount(env: SteamEnvironment, options: SteamOptions) {
  const action = createAction<SteamKey>();
  /** The linked Steam identity: undefined until the user is known, null when none is linked. */
  const $steam = computed(env.$user, (user): LinkedAccount | null | undefined =>
    user ? (user.ExternalAccounts.find((account) => account.Provider === 'steam') ?? null) : undefined,
  );
  /** How many games the cloud-idle list holds; null until known (and when it could not be read). */
  const $gameCount = atom<number | null>(null);

  onMount($steam, () => {
    void env.refreshUser().catch(() => {});
    showLinkOutcome(action, env.takeLinkOutcome);
  });

  onMount($gameCount, () => {
    env.call(idleGameCalls.list).then(
      (games) => $gameCount.set(games.length),
      () => {},
    );
  });

  async function link(): Promise<void> {
    if (action.$busy.get()) return;
    await action.run(() => env.startLinking('steam', options.locale));
  }

  /** Unlinks the identity `id` once the user agrees to `question`, and keeps the user as the server answers. */
  async function unlink(id: number, question: string): Promise<void> {
    if (action.$busy.get() || !env.confirm(question)) return;
    const updated = await action.run(() => env.call(identity.unbundleAccount, { params: { id } }), 'account.steam.unlinked');
    if (updated) env.updateUser(updated);
  }

  return { $steam, $gameCount, $busy: action.$busy, $notice: action.$notice, link, unlink };
}
