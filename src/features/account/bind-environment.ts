/**
 * The linked-accounts page's world in the browser: the account centre's, the
 * session's ways to read the user afresh and keep them, quick login, and the
 * browser's confirmation.
 */
import type { LocaleCode } from '#contract/locales.ts';
import { quickProviders, startLinking, takeLinkOutcome } from '@/stores/quick-login.ts';
import { $user, authCall, refreshUser, updateUser } from '@/stores/session.ts';
import type { BindEnvironment } from './bind-store.ts';

export const bindEnvironment: BindEnvironment = {
  call: authCall,
  $user,
  refreshUser,
  updateUser,
  quick: {
    providers: quickProviders,
    startLinking: (provider) => startLinking(provider, document.documentElement.lang as LocaleCode),
    takeLinkOutcome,
  },
  confirm: (question) => window.confirm(question),
  // Read when used: the island module is also loaded at build time, where there is no address bar.
  get location() {
    return window.location;
  },
};
