/** The login form's world in the browser: the real API client, the session store, the address bar and the clock. */
import type { LocaleCode } from '#contract/locales.ts';
import { call } from '@/lib/api/client.ts';
import { $isLoggedIn, $user, deviceId, signIn, takeNotice } from '@/stores/session.ts';
import { quickProviders, reachable, startQuickLogin, takeQuickOutcome } from '@/stores/quick-login.ts';
import type { LoginEnvironment } from './login-store.ts';

export const browserEnvironment: LoginEnvironment = {
  call,
  session: { $isLoggedIn, $user, signIn, deviceId, takeNotice },
  // Read when used: the island is also rendered at build time, where there is no address bar.
  get location() {
    return window.location;
  },
  quick: {
    providers: quickProviders,
    reachable: (checkUrl) => reachable(checkUrl),
    start: (provider, returnPath) => startQuickLogin(provider, { purpose: 'login', returnPath, lang: document.documentElement.lang as LocaleCode }),
    takeOutcome: takeQuickOutcome,
  },
  setTimer(callback, ms) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
  now: () => Date.now(),
};
