/** The linked-accounts page's world in the browser: the account centre's, with quick login. */
import type { LocaleCode } from '#contract/locales.ts';
import { quickProviders, startLinking, takeLinkOutcome } from '@/stores/quick-login.ts';
import { centerEnvironment } from './center-environment.ts';
import type { BindEnvironment } from './bind-store.ts';

const { call, $user, refreshUser, updateUser, confirm } = centerEnvironment;

export const bindEnvironment: BindEnvironment = {
  call,
  $user,
  refreshUser,
  updateUser,
  confirm,
  quick: {
    providers: quickProviders,
    startLinking: (provider) => startLinking(provider, document.documentElement.lang as LocaleCode),
    takeLinkOutcome,
  },
  // Read when used: the island module is also loaded at build time, where there is no address bar.
  get location() {
    return window.location;
  },
};
