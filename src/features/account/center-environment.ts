/**
 * The account-centre stores' world in the browser: calls made as the
 * logged-in user, the user, and the page's address. What only one page needs
 * and weighs much (the realtime hub) is handed to its store by its own island.
 */
import type { ReadableAtom } from 'nanostores';
import type { UserInfo } from '#contract/identity.ts';
import type { Call } from '@/lib/api/client.ts';
import { $user, authCall } from '@/stores/session.ts';

export interface CenterEnvironment {
  /** Calls a route as the logged-in user (a 401 ends the login: the page's `requireLogin` handles it). */
  call: Call;
  $user: ReadableAtom<UserInfo | null>;
  readonly location: { readonly search: string };
}

export const centerEnvironment: CenterEnvironment = {
  call: authCall,
  $user,
  // Read when used: the island module is also loaded at build time, where there is no address bar.
  get location() {
    return window.location;
  },
};
