/**
 * The console's sign-in and its calls. The console session lives in an
 * http-only cookie the page cannot read; the page keeps what the server tells
 * it of the session (who, which role, the CSRF value for state-changing calls)
 * and the step of the sign-in it is at:
 *   checking → login (no customer login) | noRole | enrol → recoveryCodes | signIn → ready.
 * Any call that finds the console session over sends the page back to signIn.
 */
import { atom } from 'nanostores';
import type { CommandResult } from '#contract/admin.ts';
import { consoleCalls, consoleCsrfHeader, type ConsoleSession } from '#contract/console.ts';
import { ErrorCode } from '#contract/errors.ts';
import { call } from '@/lib/api/client.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { createAction } from '@/stores/action.ts';
import { $isLoggedIn, authCall } from '@/stores/session.ts';

export type ConsoleStep =
  | { step: 'checking' }
  | { step: 'login' }
  | { step: 'noRole' }
  | { step: 'enrol'; secret: string; qrSvg: string }
  | { step: 'recoveryCodes'; codes: string[] }
  | { step: 'signIn' }
  | { step: 'ready' };

export const $consoleStep = atom<ConsoleStep>({ step: 'checking' });
export const $consoleSession = atom<ConsoleSession | null>(null);
/** The sign-in's own calls: their failures are its notice. */
export const signInAction = createAction<'console.signedOut'>();

const sessionOver = (error: unknown) => error instanceof ApiFailure && error.code === ErrorCode.ConsoleSignIn;

function signedIn(session: ConsoleSession, next: ConsoleStep = { step: 'ready' }): void {
  $consoleSession.set(session);
  $consoleStep.set(next);
}

/** The step this page starts at: the open console session, or the sign-in the customer's role calls for. */
export async function checkConsole(): Promise<void> {
  if (!$isLoggedIn.get()) return $consoleStep.set({ step: 'login' });
  await signInAction.run(async () => {
    try {
      return signedIn(await call(consoleCalls.session));
    } catch (error) {
      if (!sessionOver(error)) throw error;
    }
    const access = await authCall(consoleCalls.access);
    if (!access.Role) return $consoleStep.set({ step: 'noRole' });
    if (access.Enrolled) return $consoleStep.set({ step: 'signIn' });
    const factor = await authCall(consoleCalls.enrol, { body: {} });
    $consoleStep.set({ step: 'enrol', secret: factor.Secret, qrSvg: factor.QrSvg });
  });
}

export async function confirmEnrolment(code: string): Promise<void> {
  await signInAction.run(async () => {
    const confirmed = await authCall(consoleCalls.confirm, { body: { Code: code.trim() } });
    signedIn(confirmed.Session, { step: 'recoveryCodes', codes: confirmed.RecoveryCodes });
  });
}

/** The operator has kept their recovery codes: on to the console. */
export const recoveryCodesKept = () => $consoleStep.set({ step: 'ready' });

/** Six digits are an authenticator's code; anything longer is a recovery code. */
export async function signInToConsole(code: string): Promise<void> {
  const typed = code.trim();
  const proof = /^\d{6}$/.test(typed.replace(/\s/g, '')) ? { Code: typed.replace(/\s/g, '') } : { RecoveryCode: typed };
  await signInAction.run(async () => signedIn(await authCall(consoleCalls.signIn, { body: proof })));
}

export async function signOutOfConsole(): Promise<void> {
  await signInAction.run(async () => {
    await consoleCall(consoleCalls.signOut, {});
    $consoleSession.set(null);
    $consoleStep.set({ step: 'signIn' });
  }, 'console.signedOut');
}

type ConsoleRoute = typeof consoleCalls.signOut | typeof consoleCalls.run;

/** A console call with the session's CSRF value; a session found over sends the page back to sign-in. */
async function consoleCall<R extends ConsoleRoute>(route: R, options: { body?: unknown }) {
  try {
    return await call(route, { body: options.body as never, headers: { [consoleCsrfHeader]: $consoleSession.get()?.Csrf ?? '' } });
  } catch (error) {
    if (sessionOver(error)) {
      $consoleSession.set(null);
      $consoleStep.set({ step: 'signIn' });
    }
    throw error;
  }
}

/** One operators' command by its words, as `npm run admin` takes them, with its typed result. */
export async function runCommand<N extends CommandResult['command']>(words: [string, string, ...string[]]): Promise<CommandResult & { command: N }> {
  return (await consoleCall(consoleCalls.run, { body: { Command: words } })) as CommandResult & { command: N };
}
