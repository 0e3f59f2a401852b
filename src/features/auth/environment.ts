/** The login form's world in the browser: the real API client, the session store, the address bar and the clock. */
import { call } from '@/lib/api/client.ts';
import { $isLoggedIn, $user, deviceId, signIn, takeNotice } from '@/stores/session.ts';
import type { LoginEnvironment } from './login-store.ts';

export const browserEnvironment: LoginEnvironment = {
  call,
  session: { $isLoggedIn, $user, signIn, deviceId, takeNotice },
  // Read when used: the island is also rendered at build time, where there is no address bar.
  get location() {
    return window.location;
  },
  setTimer(callback, ms) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
  now: () => Date.now(),
};
