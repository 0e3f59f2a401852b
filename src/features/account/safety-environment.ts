/** The security page's world in the browser: the account centre's, and the session's ways to change the user or end the login. */
import { $user, authCall, leaveNotice, signOutHere, updateUser } from '@/stores/session.ts';
import type { SafetyEnvironment } from './safety-store.ts';

export const safetyEnvironment: SafetyEnvironment = {
  call: authCall,
  $user,
  updateUser,
  leaveNotice,
  signOutHere,
  // Read when used: the island module is also loaded at build time, where there is no address bar.
  get location() {
    return window.location;
  },
};
