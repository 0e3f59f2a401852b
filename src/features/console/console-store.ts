/**
 * The console's sign-in and its calls, free of any framework. The console
 * session lives in an http-only cookie the page cannot read; the store keeps
 * what the server tells of it (who, which role, the CSRF value for
 * state-changing calls) and the step of the sign-in the page is at:
 *   checking → login (no customer login) | noRole | locked
 *     | noContact | enrolSend → enrolCode → enrol → recoveryCodes   (no authenticator yet)
 *     | signIn → ready.
 * Enrolling starts with a code sent to the operator's own phone (or e-mail), so
 * a stolen login alone cannot put its own authenticator in. A sign-in locked by
 * wrong codes shows until when. Any call that finds the console session over
 * sends the page back to signIn.
 *
 * The server ends a session left without calls for `idleMs`; the store keeps
 * when the session was last used (each console call the server answers), so
 * the page can warn `idleWarningMs` before that end, stay signed in with one
 * call, and go back to signIn with a notice when the time runs out. The page
 * asks (`idle()`) on its own timer; the store reads only `env.now()`.
 */
import { atom } from 'nanostores';
import { accountCalls } from '#contract/account.ts';
import type { ArgsOf, Command, ResultOf } from '#contract/command.ts';
import { consoleCalls, consoleCsrfHeader, consoleSessionLimits, type ConsoleAccess, type ConsoleSession } from '#contract/console.ts';
import { ErrorCode } from '#contract/errors.ts';
import type { Call, CallOptions } from '@/lib/api/client.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { createAction } from '@/stores/action.ts';

export interface ConsoleEnvironment {
  /** Calls without the customer's token (the console's own, which the cookie authenticates). */
  call: Call;
  /** Calls as the logged-in customer (the sign-in's). */
  authCall: Call;
  isLoggedIn(): boolean;
  /** The clock (ms since the epoch). */
  now(): number;
}

/** Where the code that enrolment needs goes: the phone (masked) or the e-mail. */
export type EnrolTo = NonNullable<ConsoleAccess['EnrolTo']>;

export type ConsoleStep =
  | { step: 'checking' }
  | { step: 'login' }
  | { step: 'noRole' }
  /** Wrong codes locked the sign-in until then (ms since the epoch). */
  | { step: 'locked'; until: number }
  /** No phone or e-mail to send the enrolment's code to. */
  | { step: 'noContact' }
  | { step: 'enrolSend'; to: EnrolTo }
  | { step: 'enrolCode'; to: EnrolTo }
  | { step: 'enrol'; secret: string; qrSvg: string }
  | { step: 'recoveryCodes'; codes: string[] }
  | { step: 'signIn' }
  | { step: 'ready' };

/** Where an open console session stands against its idle end: in use, or in the warning with the seconds left. */
export type IdleState = { warning: false } | { warning: true; secondsLeft: number };

/** An operators' command by its declaration (contract/commands/) and arguments (and a file it takes, as base64), with the result its declaration gives. */
export type RunCommand = <C extends Command>(command: C, args: ArgsOf<C>, attachment?: string) => Promise<ResultOf<C>>;

const sessionOver = (error: unknown) => error instanceof ApiFailure && error.code === ErrorCode.ConsoleSignIn;
const signInLocked = (error: unknown): error is ApiFailure => error instanceof ApiFailure && error.code === ErrorCode.ConsoleLocked;

export function createConsole(env: ConsoleEnvironment) {
  const $step = atom<ConsoleStep>({ step: 'checking' });
  const $session = atom<ConsoleSession | null>(null);
  /** The sign-in's own calls: their failures are its notice. */
  const action = createAction<'console.signedOut' | 'console.idle.ended'>();
  /** When a call the server answered as this session began (ms since the epoch): the server counts its idle end from no earlier than that, less `lastUseSlackMs`. */
  let lastUse = 0;

  /** A session opened (or found open) by a call that began at `since`. */
  function signedIn(session: ConsoleSession, since: number, next: ConsoleStep = { step: 'ready' }): void {
    lastUse = since;
    $session.set(session);
    $step.set(next);
  }

  /** The step the page starts at: the open console session, or the sign-in the customer's role calls for. */
  async function check(): Promise<void> {
    if (!env.isLoggedIn()) return $step.set({ step: 'login' });
    await action.run(async () => {
      try {
        const since = env.now();
        return signedIn(await env.call(consoleCalls.session), since);
      } catch (error) {
        if (!sessionOver(error)) throw error;
      }
      const access = await env.authCall(consoleCalls.access);
      if (!access.Role) return $step.set({ step: 'noRole' });
      if (access.LockedUntil !== null) return $step.set({ step: 'locked', until: access.LockedUntil });
      if (access.Enrolled) return $step.set({ step: 'signIn' });
      $step.set(access.EnrolTo ? { step: 'enrolSend', to: access.EnrolTo } : { step: 'noContact' });
    });
  }

  /** Runs a call that tries a code; a sign-in locked by wrong codes goes to the step that says until when. */
  async function tryCode(call: () => Promise<void>): Promise<void> {
    await action.run(async () => {
      try {
        await call();
      } catch (error) {
        if (!signInLocked(error)) throw error;
        $step.set({ step: 'locked', until: env.now() + (error.retryAfterMs ?? consoleSessionLimits.lockoutMs) });
      }
    });
  }

  /** Sends (again) the code enrolment needs to the operator's own phone or e-mail. */
  async function sendEnrolCode(): Promise<void> {
    const current = $step.get();
    if (current.step !== 'enrolSend' && current.step !== 'enrolCode') return;
    await action.run(async () => {
      await env.authCall(accountCalls.sendOwnCode, { body: { Channel: current.to.Channel } });
      $step.set({ step: 'enrolCode', to: current.to });
    });
  }

  /** The code from the message: the server gives a new authenticator's secret to scan. */
  async function enrol(code: string): Promise<void> {
    await action.run(async () => {
      const factor = await env.authCall(consoleCalls.enrol, { body: { Code: code.replace(/\s/g, '') } });
      $step.set({ step: 'enrol', secret: factor.Secret, qrSvg: factor.QrSvg });
    });
  }

  async function confirmEnrolment(code: string): Promise<void> {
    await tryCode(async () => {
      const since = env.now();
      const confirmed = await env.authCall(consoleCalls.confirm, { body: { Code: code.replace(/\s/g, '') } });
      signedIn(confirmed.Session, since, { step: 'recoveryCodes', codes: confirmed.RecoveryCodes });
    });
  }

  /** The operator has kept their recovery codes: on to the console. */
  const recoveryCodesKept = () => $step.set({ step: 'ready' });

  /** Six digits are an authenticator's code; anything else is a recovery code. */
  async function signIn(typed: string): Promise<void> {
    const digits = typed.replace(/\s/g, '');
    const proof = /^\d{6}$/.test(digits) ? { Code: digits } : { RecoveryCode: typed.trim() };
    await tryCode(async () => {
      const since = env.now();
      signedIn(await env.authCall(consoleCalls.signIn, { body: proof }), since);
    });
  }

  /** The page's console session is over: back to sign-in. */
  function ended(): void {
    $session.set(null);
    $step.set({ step: 'signIn' });
  }

  /**
   * A console call with the session's CSRF value. The one place console calls go through: one the server
   * answered counts as use (a refused one may not have reached the session's check, so it does not, which
   * only ends the page's session sooner); a session found over sends the page back to sign-in.
   */
  async function consoleCall<R extends typeof consoleCalls.signOut | typeof consoleCalls.run | typeof consoleCalls.session>(
    route: R,
    options: CallOptions<R> = {},
  ) {
    const since = env.now();
    try {
      const answer = await env.call(route, { ...options, headers: { [consoleCsrfHeader]: $session.get()?.Csrf ?? '' } });
      lastUse = since;
      return answer;
    } catch (error) {
      if (sessionOver(error)) ended();
      throw error;
    }
  }

  /**
   * Where the open session stands against its idle end, by the clock: the warning's seconds in its last
   * `idleWarningMs`; at the end, the page's session is over and the page goes to sign-in with a notice.
   * The server may keep the session up to `lastUseSlackMs` longer (it writes the last use only that often):
   * the page ends it first, so "stay" never comes too late.
   */
  function idle(): IdleState {
    if (!$session.get()) return { warning: false };
    const left = lastUse + consoleSessionLimits.idleMs - consoleSessionLimits.lastUseSlackMs - env.now();
    if (left <= 0) {
      ended();
      action.say('error', 'console.idle.ended');
      return { warning: false };
    }
    return left <= consoleSessionLimits.idleWarningMs ? { warning: true, secondsLeft: Math.ceil(left / 1000) } : { warning: false };
  }

  /** "Stay signed in": a call that the server counts as use (it is long past `lastUseSlackMs` in the warning), with the session as it now is. */
  async function stay(): Promise<void> {
    await action.run(async () => $session.set(await consoleCall(consoleCalls.session)));
  }

  async function signOut(): Promise<void> {
    await action.run(async () => {
      await consoleCall(consoleCalls.signOut);
      ended();
    }, 'console.signedOut');
  }

  const run: RunCommand = async (command, args, attachment) => {
    const answer = await consoleCall(consoleCalls.run, { body: { Command: command.name, Args: args, Attachment: attachment } });
    return command.result.parse(answer) as ResultOf<typeof command>;
  };

  return {
    $step,
    $session,
    $busy: action.$busy,
    $notice: action.$notice,
    check,
    sendEnrolCode,
    enrol,
    confirmEnrolment,
    recoveryCodesKept,
    signIn,
    signOut,
    run,
    idle,
    stay,
  };
}

export type Console = ReturnType<typeof createConsole>;
