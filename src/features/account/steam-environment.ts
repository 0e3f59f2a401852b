/** The Steam section's world in the browser: the account centre's, with Steam linking. */
import { startLinking, takeLinkOutcome } from '@/stores/quick-login.ts';
import { centerEnvironment } from './center-environment.ts';
import type { SteamEnvironment } from './steam-store.ts';

const { call, $user, refreshUser, updateUser, confirm } = centerEnvironment;

export const steamEnvironment: SteamEnvironment = { call, $user, refreshUser, updateUser, confirm, startLinking, takeLinkOutcome };
