/**
 * The buying islands' world in the browser: the API (public, and as the
 * logged-in user), the session and the address bar. The pay page and the
 * sandbox's phone page have worlds of their own (pay-environment.ts,
 * sandbox-environment.ts), so no page loads what only another needs.
 */
import { call } from '@/lib/api/client.ts';
import { $isLoggedIn, $user, authCall } from '@/stores/session.ts';
import type { BindOrderEnvironment } from './bind-order-store.ts';
import type { PlansEnvironment } from './plans-store.ts';
import type { RechargeEnvironment } from './recharge-store.ts';

export const browserEnvironment = {
  call,
  authCall,
  session: { $isLoggedIn, $user },
  // Read when used, like every island's address.
  get location() {
    return window.location;
  },
} satisfies PlansEnvironment & RechargeEnvironment & BindOrderEnvironment;
