/** The login page's world in the browser: the real API client, the session store, the address bar and the clock. */
import type { LocaleCode } from '#contract/locales.ts';
import { call } from '@/lib/api/client.ts';
import { $authToken, $isLoggedIn, $user, deviceId, signIn, takeNotice } from '@/stores/session.ts';
import { quickProviders, reachable, startQuickLogin, takeQuickOutcome } from '@/stores/quick-login.ts';
import type { DeviceApprovalEnvironment } from './device-approval-store.ts';
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

/**
 * The desktop sign-in approval's world: the login page's plain client, each
 * call handed the login's token. Not `authCall`, the account centre's `Call`
 * (center-environment.ts) for pages that need login, where a 401 ends the
 * login and goes to login: this runs on the login page, which needs no login
 * and sets up no such handler (`requireLogin`), so a login that ended
 * meanwhile is said under the form (`messages.unauthorized`), on the very page
 * where the visitor logs in again.
 */
export const deviceApprovalEnvironment: DeviceApprovalEnvironment = {
  call,
  token: () => $authToken.get()?.AccessToken,
};
