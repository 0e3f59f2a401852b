/** The security page's world in the browser: the account centre's, with the session's ways to end the login. */
import { leaveNotice, signOutHere } from '@/stores/session.ts';
import { centerEnvironment } from './center-environment.ts';
import type { SafetyEnvironment } from './safety-store.ts';

const { call, $user, updateUser } = centerEnvironment;

export const safetyEnvironment: SafetyEnvironment = {
  call,
  $user,
  updateUser,
  leaveNotice,
  signOutHere,
  // Read when used: the island module is also loaded at build time, where there is no address bar.
  get location() {
    return window.location;
  },
};
