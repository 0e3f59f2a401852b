/**
 * The login form's logic, free of any framework: what the form
 * holds, the checks in the order the user meets them, the SMS code (with a
 * proof of work first when the server asks for one) and its resend countdown,
 * the calls, the messages (failures mapped by kind, the
 * server's own words shown as they are) and where to go after login. What
 * touches the world — the API, the session, the address bar, the clock —
 * comes in as a `LoginEnvironment`, so tests drive the form in Node.
 */
import { atom, computed, onMount, type ReadableAtom } from 'nanostores';
import type { QuickLoginProvider } from '#contract/account.ts';
import { deviceLogin } from '#contract/device-login.ts';
import { externalLogin, type ExternalProvider } from '#contract/external-login.ts';
import { identity, verification, type LoginResult, type UserInfo } from '#contract/identity.ts';
import { providerName } from '@/lib/quick-login-providers.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { Call } from '@/lib/api/client.ts';
import { ApiFailure, failureMessage, type FailureMessageKey } from '@/lib/api/errors.ts';
import { createCodeChallenge } from '@/stores/code-challenge.ts';
import type { QuickOutcome } from '@/stores/quick-login.ts';
import { safeRedirect } from './redirect.ts';
import { checkPasswordLogin, checkSmsLogin } from './validation.ts';

/** The notices other pages leave for the login page (stores/session.ts). */
export const loginNotices = ['messages.loginExpired', 'messages.userInfoFailed', 'session.accountDeleted'] as const;

/** The UI strings the login form shows; its page hands down these names. */
export type LoginKey =
  KeysUnder<'login' | FailureMessageKey | 'messages.smsSent' | 'account.safe.localNetwork' | 'account.safe.unknownPlace'> | (typeof loginNotices)[number];

/** A message under the form: one of ours by key, or the server's own text. */
export type LoginMessage = { kind: 'error' | 'info'; key: LoginKey; params?: Record<string, string | number> } | { kind: 'error'; text: string };

export type Tab = 'sms' | 'quick' | 'password';

/** A quick login's new identity, waiting for a phone to finish (the server's `bindPhone` outcome). */
export interface PendingPhone {
  provider: QuickLoginProvider;
  name: string;
  ticket: string;
  returnPath: string;
}

export interface LoginEnvironment {
  call: Call;
  /** The session store's part in login. */
  session: {
    $isLoggedIn: ReadableAtom<boolean>;
    $user: ReadableAtom<UserInfo | null>;
    signIn(result: LoginResult): void;
    deviceId(): string;
    /** The message key another page left for this one (the login expired…), taken once. */
    takeNotice(): string | null;
  };
  /** The page's address (`redirectUrl`, origin) and the way to leave it. */
  location: { readonly pathname: string; readonly search: string; readonly origin: string; assign(url: string): void };
  /** Quick login: the providers on offer, the reachability check, the start, and the outcome this page came back with. */
  quick: {
    providers(): Promise<ExternalProvider[]>;
    reachable(checkUrl: string): Promise<boolean>;
    start(provider: QuickLoginProvider, returnPath: string): Promise<void>;
    takeOutcome(): Promise<QuickOutcome | null>;
  };
  /** Runs `callback` after `ms`; the returned function cancels it. */
  setTimer(callback: () => void, ms: number): () => void;
  now(): number;
}

export interface LoginOptions {
  /** Password login is offered on the Chinese site only. */
  showPassword: boolean;
  /** Where to go after login when `redirectUrl` is missing or not ours. */
  fallbackPath: string;
}

const isNotice = (key: string | null): key is (typeof loginNotices)[number] => loginNotices.some((notice) => notice === key);

/** Long enough to read "Logged in" before the page changes. */
const redirectDelayMs = 800;

/** One login form: its state as stores, and the actions the island calls. */
export function createLoginForm(env: LoginEnvironment, options: LoginOptions) {
  const tabs: readonly Tab[] = options.showPassword ? ['sms', 'quick', 'password'] : ['sms', 'quick'];
  const $tab = atom<Tab>('sms');
  const $agreed = atom(false);
  const $phone = atom('');
  const $code = atom('');
  const $account = atom('');
  const $password = atom('');
  /** Seconds until another code may be sent; 0 when one may. */
  const $countdown = atom(0);
  const $busy = atom(false);
  const $message = atom<LoginMessage | null>(null);
  const $redirecting = atom(false);
  /** The quick-login providers, once the quick tab has asked for them. */
  const $providers = atom<ExternalProvider[] | null>(null);
  /** The provider whose sign-in site the browser could not reach, with the choice to try again or go on. */
  const $unreachable = atom<QuickLoginProvider | null>(null);
  const $pendingPhone = atom<PendingPhone | null>(null);
  /** A code that costs the shop waits here for the browser's proof of work. */
  const challenge = createCodeChallenge(env.call);
  /** The nickname of whoever is logged in already — not of whom this form just logged in. */
  const $signedInAs = computed([env.session.$isLoggedIn, env.session.$user, $redirecting], (loggedIn, user, redirecting) =>
    loggedIn && user && !redirecting ? user.NickName : null,
  );

  let stopCountdown = () => {};
  let stopRedirect = () => {};

  onMount($message, () => {
    const notice = env.session.takeNotice();
    if (isNotice(notice)) $message.set({ kind: notice === 'session.accountDeleted' ? 'info' : 'error', key: notice });
    void env.quick.takeOutcome().then((outcome) => outcome && arrive(outcome));
    return () => {
      stopCountdown();
      stopRedirect();
    };
  });

  /** Counts down to the end of the resend wait, on the clock rather than by ticks, so a throttled tab still shows the truth. */
  function startCountdown(waitMs = verification.resendAfterMs): void {
    const until = env.now() + waitMs;
    const tick = () => {
      const left = until - env.now();
      $countdown.set(Math.max(0, Math.ceil(left / 1000)));
      stopCountdown = left > 0 ? env.setTimer(tick, left % 1000 || 1000) : () => {};
    };
    stopCountdown();
    tick();
  }

  /** Shows the first failed check; true when there was one. */
  function refused(problem: LoginKey | null): boolean {
    if (problem) $message.set({ kind: 'error', key: problem });
    return problem !== null;
  }

  /** Runs a call with the form busy; a failure becomes the message and the result `undefined`. */
  async function run<T>(action: () => Promise<T>): Promise<T | undefined> {
    $busy.set(true);
    $message.set(null);
    try {
      return await action();
    } catch (error) {
      $message.set({ kind: 'error', ...failureMessage(error) });
      return undefined;
    } finally {
      $busy.set(false);
    }
  }

  /**
   * Where to go after login: `redirectUrl` when it is a path of this site; this
   * very page when it came to approve a desktop sign-in (it shows the request
   * once logged in); otherwise the fallback.
   */
  function target(): string {
    const query = new URLSearchParams(env.location.search);
    if (!query.has('redirectUrl') && query.has(deviceLogin.queryParameter)) return `${env.location.pathname}${env.location.search}`;
    return safeRedirect(query.get('redirectUrl'), env.location.origin, options.fallbackPath);
  }

  function finish(result: LoginResult, to = target()): void {
    env.session.signIn(result);
    $redirecting.set(true);
    $message.set({ kind: 'info', key: 'login.redirecting' });
    stopRedirect = env.setTimer(() => env.location.assign(to), redirectDelayMs);
  }

  function selectTab(tab: Tab): void {
    if (!tabs.includes(tab)) return;
    $tab.set(tab);
    $message.set(null);
    if (tab === 'quick' && $providers.get() === null) void run(async () => $providers.set(await env.quick.providers()));
  }

  async function sendCode(): Promise<void> {
    if ($busy.get() || $countdown.get() > 0) return;
    const phone = $phone.get().trim();
    if (refused(checkSmsLogin({ agreed: $agreed.get(), phone }))) return;
    await run(async () => {
      try {
        await challenge.withProof((ProofOfWork) => env.call(identity.sendSmsCode, { body: ProofOfWork ? { Phone: phone, ProofOfWork } : { Phone: phone } }));
      } catch (error) {
        // A code went to this number a moment ago (from another device, say): the server's words say so, and the wait it names counts down.
        const wait = error instanceof ApiFailure && error.kind === 'tooManyRequests' ? error.retryAfterMs : undefined;
        if (wait && wait <= verification.resendAfterMs) startCountdown(wait);
        throw error;
      }
      startCountdown();
      $message.set({ kind: 'info', key: 'messages.smsSent' });
    });
  }

  async function submitSms(): Promise<void> {
    if ($busy.get() || $redirecting.get()) return;
    const phone = $phone.get().trim();
    const code = $code.get().trim();
    if (refused(checkSmsLogin({ agreed: $agreed.get(), phone, code }))) return;
    const result = await run(() => env.call(identity.loginOrRegister, { body: { Phone: phone, Code: code, DeviceId: env.session.deviceId() } }));
    if (result) finish(result);
  }

  async function submitPassword(): Promise<void> {
    if ($busy.get() || $redirecting.get()) return;
    const account = $account.get().trim();
    const password = $password.get();
    if (refused(checkPasswordLogin({ agreed: $agreed.get(), account, password }))) return;
    const result = await run(() => env.call(identity.loginByPassword, { body: { Account: account, Password: password, DeviceId: env.session.deviceId() } }));
    if (result) finish(result);
  }

  /**
   * Starts a quick login, once the agreement is given. A provider with a
   * reachability check is checked first: when its site cannot be reached the
   * form says so and offers to try again or to go on anyway (`checked` false).
   */
  async function quickLogin(provider: QuickLoginProvider, checked = true): Promise<void> {
    if ($busy.get() || $redirecting.get()) return;
    if (refused($agreed.get() ? null : 'login.agreeFirst')) return;
    $unreachable.set(null);
    const checkUrl = $providers.get()?.find((offered) => offered.Provider === provider)?.CheckUrl;
    const params = { provider: providerName(provider) };
    await run(async () => {
      if (checked && checkUrl) {
        $message.set({ kind: 'info', key: 'login.checking', params });
        if (!(await env.quick.reachable(checkUrl))) {
          $unreachable.set(provider);
          $message.set({ kind: 'error', key: 'login.unreachable', params });
          return;
        }
      }
      await env.quick.start(provider, target());
    });
  }

  /** What the page came back from a provider with. */
  function arrive(outcome: QuickOutcome): void {
    const params = { provider: providerName(outcome.provider) };
    // Linking started on the linked-accounts page: it shows how it went.
    if (outcome.purpose === 'bind') {
      const status = 'error' in outcome ? outcome.error : 'linked';
      env.location.assign(
        `${outcome.returnPath}${outcome.returnPath.includes('?') ? '&' : '?'}${new URLSearchParams({ external: status, provider: outcome.provider })}`,
      );
      return;
    }
    $tab.set('quick');
    // A quick login starts only once the agreement is ticked: coming back from the provider, it still is.
    $agreed.set(true);
    if ('error' in outcome) $message.set({ kind: 'error', key: `login.external.${outcome.error}`, params });
    else if (outcome.result.Status === 'signedIn') finish(outcome.result.Login, outcome.returnPath);
    else if (outcome.result.Status === 'bindPhone')
      $pendingPhone.set({ provider: outcome.provider, name: outcome.result.DisplayName, ticket: outcome.result.Ticket, returnPath: outcome.returnPath });
  }

  /** Finishes a new quick-login identity with the phone's code. */
  async function submitPendingPhone(): Promise<void> {
    const pending = $pendingPhone.get();
    if (!pending || $busy.get() || $redirecting.get()) return;
    const phone = $phone.get().trim();
    const code = $code.get().trim();
    if (refused(checkSmsLogin({ agreed: $agreed.get(), phone, code }))) return;
    const body = { Ticket: pending.ticket, Phone: phone, Code: code, DeviceId: env.session.deviceId() };
    const result = await run(() => env.call(externalLogin.bindPhone, { body }));
    if (result) finish(result, pending.returnPath);
  }

  function cancelPendingPhone(): void {
    $pendingPhone.set(null);
    $message.set(null);
  }

  return {
    tabs,
    $tab,
    $agreed,
    $phone,
    $code,
    $account,
    $password,
    $countdown,
    $busy,
    $message,
    $redirecting,
    $signedInAs,
    $providers,
    $unreachable,
    $pendingPhone,
    challenge: { $challenge: challenge.$challenge, solved: challenge.solved },
    target,
    selectTab,
    sendCode,
    submitSms,
    submitPassword,
    quickLogin,
    submitPendingPhone,
    cancelPendingPhone,
  };
}
