/**
 * The security page (account centre `safe`): the password, set with the
 * account's code or changed with the current one (which signs out every other
 * device, so the devices are read again, and says how many); the signed-in
 * devices, signed out one by one or all others at once; the login history; and
 * deleting the account after a code or the password, stating first what it
 * would lose. Each part has its own action, so each says its own outcome.
 */
import { atom } from 'nanostores';
import { accountCalls, type DeletionLosses, type LoginEvent } from '#contract/account.ts';
import { identity, type Session } from '#contract/identity.ts';
import { createAction, outcomeOf } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';
import { ownChannel, sendOwnCode, type OwnCodeKey } from './own-code.ts';

export type SafetyKey = 'account.safe.passwordsDiffer' | 'account.safe.passwordSaved' | 'account.safe.signedOut' | OwnCodeKey;

export interface SafetyEnvironment extends Pick<CenterEnvironment, 'call' | '$user' | 'updateUser'> {
  /** Leaves the login page the message it shows next. */
  leaveNotice(key: 'session.accountDeleted'): void;
  /** Forgets the login in this browser. */
  signOutHere(): void;
  location: { assign(url: string): void };
}

export interface SafetyOptions {
  /** Where a deleted account's visitor goes: the login page, which says the account is gone. */
  loginPath: string;
}

/** The page's text inputs. */
export type SafetyForm = {
  current: string;
  next: string;
  repeat: string;
  /** The account's code that confirms a first password. */
  passwordCode: string;
  /** The code sent for deleting the account… */
  code: string;
  /** …or the password instead. */
  proofPassword: string;
};

const emptyForm: SafetyForm = { current: '', next: '', repeat: '', passwordCode: '', code: '', proofPassword: '' };

export function createSafety(env: SafetyEnvironment, options: SafetyOptions) {
  const password = createAction<SafetyKey>();
  const devices = createAction<SafetyKey>();
  const removal = createAction<SafetyKey>();
  /** The signed-in devices; null until read. */
  const $sessions = atom<Session[] | null>(null);
  /** The latest logins; null until read, empty when they could not be. */
  const $history = atom<LoginEvent[] | null>(null);
  /** What deleting the account would lose; null until known (the form works without it). */
  const $losses = atom<DeletionLosses | null>(null);
  const $form = atom<SafetyForm>(emptyForm);
  /** Whether the user ticked that deletion cannot be undone. */
  const $understood = atom(false);

  const readSessions = async () => $sessions.set(await env.call(identity.sessions));
  const loadSessions = () => devices.run(readSessions);

  /** Reads the devices, the history and the deletion's losses. */
  function load(): void {
    void loadSessions();
    void env.call(accountCalls.loginHistory).then(
      (history) => $history.set(history),
      () => $history.set([]),
    );
    void env.call(accountCalls.deletionLosses).then(
      (losses) => $losses.set(losses),
      () => $losses.set(null),
    );
  }

  /** Sends the code that confirms a first password to the phone, or the e-mail without one; true once it is on its way. */
  const sendPasswordCode = () => sendOwnCode(env, password, ownChannel(env.$user.get()));

  /**
   * Sets a first password with the account's code (when one was typed: an account with neither phone nor e-mail is
   * told by the server to bind a phone first), or changes it with the current one; then says how many other devices
   * were signed out and reads the devices again.
   */
  async function savePassword(): Promise<void> {
    const user = env.$user.get();
    const form = $form.get();
    if (!user) return;
    if (form.next !== form.repeat) {
      password.refuse('account.safe.passwordsDiffer');
      return;
    }
    const proof = user.HasPassword ? { Current: form.current } : form.passwordCode ? { Code: form.passwordCode } : {};
    const done = await password.run(() => env.call(accountCalls.setPassword, { body: { Password: form.next, ...proof } }));
    if (done === undefined) return;
    password.say('ok', 'account.safe.passwordSaved', { count: done.Revoked });
    env.updateUser({ ...user, HasPassword: true });
    $form.set({ ...$form.get(), current: '', next: '', repeat: '', passwordCode: '' });
    void loadSessions();
  }

  /** Signs out one device. */
  const signOut = (id: string) =>
    devices.run(async () => {
      await env.call(accountCalls.revokeSession, { params: { id } });
      await readSessions();
    }, 'account.safe.signedOut');

  /** Signs out every device but this one. */
  const signOutOthers = () =>
    devices.run(async () => {
      await env.call(identity.signOutOtherSessions);
      await readSessions();
    }, 'account.safe.signedOut');

  /** Sends the code that proves the deletion to the user's phone, or their e-mail without one; true once it is on its way. */
  const sendCode = () => sendOwnCode(env, removal, ownChannel(env.$user.get()));

  /** Deletes the account with the password, if one was typed, or else the code; then leaves for the login page, signed out. */
  async function deleteAccount(): Promise<void> {
    if (!$understood.get()) return;
    const form = $form.get();
    const body = form.proofPassword ? { Password: form.proofPassword } : { Code: form.code };
    const deleted = await removal.run(() => env.call(accountCalls.deleteAccount, { body }));
    if (deleted === undefined) return;
    env.leaveNotice('session.accountDeleted');
    env.signOutHere();
    env.location.assign(options.loginPath);
  }

  return {
    $user: env.$user,
    $sessions,
    $history,
    $losses,
    $form,
    $understood,
    password: outcomeOf(password),
    devices: outcomeOf(devices),
    removal: outcomeOf(removal),
    load,
    sendPasswordCode,
    savePassword,
    signOut,
    signOutOthers,
    sendCode,
    deleteAccount,
  };
}
