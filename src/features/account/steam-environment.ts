/** The Steam section's world in the browser: the account centre's, with the session's refresh, Steam linking and the browser's own question box. */
import { refreshUser, updateUser } from '@/stores/session.ts';
import { startLinking, takeLinkOutcome } from '@/stores/quick-login.ts';
import { centerEnvironment } from './center-environment.ts';
import type { SteamEnvironment } from './steam-store.ts';

export const steamEnvironment: SteamEnvironment = {
  call: centerEnvironment.call,
  $user: centerEnvironment.$user,
  refreshUser,
  updateUser,
  startLinking,
  takeLinkOutcome,
  confirm: (question) => window.confirm(question),
};
