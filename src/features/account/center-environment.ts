/**
 * The account-centre stores' world in the browser: calls made as the
 * logged-in user, the user and the session's ways to read or keep it, the
 * browser's question box, and the page's address. What only one page needs
 * and weighs much (the realtime hub) is handed to its store by its own island.
 */
import type { ReadableAtom } from 'nanostores';
import type { UserInfo } from '#contract/identity.ts';
import type { Call } from '@/lib/api/client.ts';
import { $user, authCall, refreshUser, updateUser } from '@/stores/session.ts';

export interface CenterEnvironment {
  /** Calls a route as the logged-in user (a 401 ends the login: the page's `requireLogin` handles it). */
  call: Call;
  $user: ReadableAtom<UserInfo | null>;
  /** Reads the user afresh from the server, past every cache, into `$user`. */
  refreshUser(): Promise<void>;
  /** Keeps the user as a call that changed them answered. */
  updateUser(info: UserInfo): void;
  /** Asks the user `question`; true when they agree. */
  confirm(question: string): boolean;
  readonly location: { readonly search: string };
}

export const centerEnvironment: CenterEnvironment = {
  call: authCall,
  $user,
  refreshUser,
  updateUser,
  confirm: (question) => window.confirm(question),
  // Read when used: the island module is also loaded at build time, where there is no address bar.
  get location() {
    return window.location;
  },
};
