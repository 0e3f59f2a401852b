/**
 * The security page (src/features/account/safety-store.ts) in Node: the
 * devices, history and deletion losses load, the password is set or changed,
 * devices are signed out, and the account is deleted — each part saying its
 * own outcome, and leaving the page through the environment.
 */
import { atom } from 'nanostores';
import { describe, expect, it, vi } from 'vitest';
import { accountCalls, type DeletionLosses, type LoginEvent } from '#contract/account.ts';
import type { ApiRoute } from '#contract/api.ts';
import { identity, type Session, type UserInfo } from '#contract/identity.ts';
import { createSafety } from '@/features/account/safety-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { fakeApi, type Reply } from './fake-api.ts';

const user = { Id: 7, NickName: 'Gordon', Phone: '138****0000', Email: null, HasPassword: false, ExternalAccounts: [] } as unknown as UserInfo;
const here: Session = { Id: 'a', Device: 'Firefox', CreatedAt: '2026-01-01T00:00:00Z', LastSeenAt: '2026-01-02T00:00:00Z', Place: 'CN', Current: true };
const there: Session = { ...here, Id: 'b', Device: 'Chrome', Current: false };
const login: LoginEvent = { Method: 'sms', Success: true, Address: '10.0.0.1', Place: 'local', Device: 'Firefox', At: '2026-01-02T00:00:00Z' };
const losses: DeletionLosses = { Wallet: 1234, PlanUntil: null, Agreements: 0, UnclaimedPrizes: 0 };

const refusal = (serverMessage: string) => () => {
  throw new ApiFailure('server', { code: 4000, serverMessage });
};
const offline = () => {
  throw new ApiFailure('network');
};

/** A world with `user` logged in on two devices, one login in the history and a wallet deletion would lose. */
function getTestEnvironment(replies: Array<[ApiRoute, Reply]> = [], who: UserInfo | null = user) {
  let sessions = [here, there];
  const { call, calls } = fakeApi([
    [identity.sessions, () => sessions],
    [accountCalls.loginHistory, () => [login]],
    [accountCalls.deletionLosses, () => losses],
    [
      accountCalls.revokeSession,
      ({ params }) => {
        sessions = sessions.filter((session) => session.Id !== (params as { id: string }).id);
        return { Revoked: 1 };
      },
    ],
    [
      identity.signOutOtherSessions,
      () => {
        sessions = [here];
        return { Revoked: 1 };
      },
    ],
    [accountCalls.setPassword, () => ({ Revoked: 1 })],
    [accountCalls.sendOwnCode, () => null],
    [accountCalls.deleteAccount, () => null],
    ...replies,
  ]);
  const $user = atom<UserInfo | null>(who);
  const env = {
    call,
    $user,
    updateUser: vi.fn((info: UserInfo) => $user.set(info)),
    leaveNotice: vi.fn(),
    signOutHere: vi.fn(),
    location: { assign: vi.fn() },
  };
  return { env, calls };
}

/** The page as the island shows it: loaded (or failed to). */
async function shown(world = getTestEnvironment()) {
  const store = createSafety(world.env, { loginPath: '/en/account/login' });
  store.load();
  await vi.waitFor(() => expect(store.$history.get()).not.toBeNull());
  await vi.waitFor(() => expect(store.devices.$busy.get()).toBe(false));
  return store;
}

const made = (calls: Array<{ route: ApiRoute }>, route: ApiRoute) => calls.filter((one) => one.route === route);

describe('the security page', () => {
  it('loads the devices, the login history and what deletion would lose', async () => {
    const store = await shown();
    expect(store.$sessions.get()).toEqual([here, there]);
    expect(store.$history.get()).toEqual([login]);
    await vi.waitFor(() => expect(store.$losses.get()).toEqual(losses));
    expect(store.devices.$notice.get()).toBeNull();
  });

  it('shows an empty history and no losses when they cannot be read, and says why the devices did not load', async () => {
    const store = await shown(
      getTestEnvironment([
        [identity.sessions, offline],
        [accountCalls.loginHistory, refusal('No history.')],
        [accountCalls.deletionLosses, offline],
      ]),
    );
    expect(store.$sessions.get()).toBeNull();
    expect(store.$history.get()).toEqual([]);
    expect(store.$losses.get()).toBeNull();
    expect(store.devices.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });
});

describe('the password', () => {
  it('refuses two different new passwords before any call', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    store.$form.set({ ...store.$form.get(), next: 'one password', repeat: 'another one' });
    await store.savePassword();
    expect(store.password.$notice.get()).toEqual({ kind: 'error', key: 'account.safe.passwordsDiffer' });
    expect(made(world.calls, accountCalls.setPassword)).toEqual([]);
  });

  it('sets a first password with the code sent to the phone, says how many devices were signed out, empties the fields and reads the devices again', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    store.$form.set({ ...store.$form.get(), current: 'ignored', next: 'a new password', repeat: 'a new password', passwordCode: '654321', code: '123456' });
    const before = made(world.calls, identity.sessions).length;
    await store.savePassword();
    expect(made(world.calls, accountCalls.setPassword)).toEqual([{ route: accountCalls.setPassword, body: { Password: 'a new password', Code: '654321' } }]);
    expect(store.password.$notice.get()).toEqual({ kind: 'ok', key: 'account.safe.passwordSaved', params: { count: 1 } });
    expect(world.env.updateUser).toHaveBeenCalledWith({ ...user, HasPassword: true });
    expect(store.$form.get()).toEqual({ current: '', next: '', repeat: '', passwordCode: '', code: '123456', proofPassword: '' });
    await vi.waitFor(() => expect(made(world.calls, identity.sessions)).toHaveLength(before + 1));
  });

  it('sends the first password’s code to the phone, naming it, or to the e-mail without one', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    await expect(store.sendPasswordCode()).resolves.toBe(true);
    expect(store.password.$notice.get()).toEqual({ kind: 'ok', key: 'account.code.sent', params: { contact: '138****0000' } });
    const mailOnly = getTestEnvironment([], { ...user, Phone: null, Email: 'gordon@example.com' });
    const other = await shown(mailOnly);
    await other.sendPasswordCode();
    expect(made(mailOnly.calls, accountCalls.sendOwnCode)).toEqual([{ route: accountCalls.sendOwnCode, body: { Channel: 'email' } }]);
    expect(other.password.$notice.get()).toEqual({ kind: 'ok', key: 'account.code.sent', params: { contact: 'gordon@example.com' } });
  });

  it('sends no code for an account with neither phone nor e-mail, and leaves the server to say a phone comes first', async () => {
    const world = getTestEnvironment([], { ...user, Phone: null, Email: null });
    const store = await shown(world);
    await expect(store.sendPasswordCode()).resolves.toBe(false);
    expect(made(world.calls, accountCalls.sendOwnCode)).toEqual([]);
    store.$form.set({ ...store.$form.get(), next: 'a new password', repeat: 'a new password' });
    await store.savePassword();
    expect(made(world.calls, accountCalls.setPassword)).toEqual([{ route: accountCalls.setPassword, body: { Password: 'a new password' } }]);
  });

  it('changes a password with the current one, without a code', async () => {
    const world = getTestEnvironment([], { ...user, HasPassword: true });
    const store = await shown(world);
    store.$form.set({ ...store.$form.get(), current: 'the old one', next: 'a new password', repeat: 'a new password', passwordCode: '654321' });
    await store.savePassword();
    expect(made(world.calls, accountCalls.setPassword)).toEqual([
      { route: accountCalls.setPassword, body: { Password: 'a new password', Current: 'the old one' } },
    ]);
  });

  it('shows the server’s words for a refused password and keeps what was typed', async () => {
    const world = getTestEnvironment([[accountCalls.setPassword, refusal('The current password is wrong.')]], { ...user, HasPassword: true });
    const store = await shown(world);
    store.$form.set({ ...store.$form.get(), current: 'wrong', next: 'a new password', repeat: 'a new password' });
    await store.savePassword();
    expect(store.password.$notice.get()).toEqual({ kind: 'error', text: 'The current password is wrong.' });
    expect(world.env.updateUser).not.toHaveBeenCalled();
    expect(store.$form.get().next).toBe('a new password');
  });
});

describe('the devices', () => {
  it('signs out one device and shows those left', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    const signing = store.signOut('b');
    expect(store.devices.$busy.get()).toBe(true);
    await signing;
    expect(made(world.calls, accountCalls.revokeSession)).toEqual([{ route: accountCalls.revokeSession, params: { id: 'b' } }]);
    expect(store.$sessions.get()).toEqual([here]);
    expect(store.devices.$notice.get()).toEqual({ kind: 'ok', key: 'account.safe.signedOut' });
  });

  it('signs out all the other devices at once', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    await store.signOutOthers();
    expect(made(world.calls, identity.signOutOtherSessions)).toHaveLength(1);
    expect(store.$sessions.get()).toEqual([here]);
    expect(store.devices.$notice.get()).toEqual({ kind: 'ok', key: 'account.safe.signedOut' });
  });

  it('says so when a device could not be signed out, and keeps the list', async () => {
    const store = await shown(getTestEnvironment([[accountCalls.revokeSession, refusal('That device is gone.')]]));
    await store.signOut('b');
    expect(store.devices.$notice.get()).toEqual({ kind: 'error', text: 'That device is gone.' });
    expect(store.$sessions.get()).toEqual([here, there]);
  });
});

describe('deleting the account', () => {
  it('sends the code to the phone, naming it, and says it is on its way', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    await expect(store.sendCode()).resolves.toBe(true);
    expect(made(world.calls, accountCalls.sendOwnCode)).toEqual([{ route: accountCalls.sendOwnCode, body: { Channel: 'sms' } }]);
    expect(store.removal.$notice.get()).toEqual({ kind: 'ok', key: 'account.code.sent', params: { contact: '138****0000' } });
  });

  it('sends the code by e-mail to a user without a phone', async () => {
    const world = getTestEnvironment([], { ...user, Phone: null, Email: 'g***@example.com' });
    const store = await shown(world);
    await store.sendCode();
    expect(made(world.calls, accountCalls.sendOwnCode)).toEqual([{ route: accountCalls.sendOwnCode, body: { Channel: 'email' } }]);
    expect(store.removal.$notice.get()).toEqual({ kind: 'ok', key: 'account.code.sent', params: { contact: 'g***@example.com' } });
  });

  it('says why a code could not be sent, and tells the resend wait not to start', async () => {
    const store = await shown(getTestEnvironment([[accountCalls.sendOwnCode, offline]]));
    await expect(store.sendCode()).resolves.toBe(false);
    expect(store.removal.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });

  it('deletes nothing until the user ticks that it cannot be undone', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    store.$form.set({ ...store.$form.get(), code: '123456' });
    await store.deleteAccount();
    expect(made(world.calls, accountCalls.deleteAccount)).toEqual([]);
  });

  it('deletes with the code, then leaves a message for the login page, signs out here and goes there', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    store.$form.set({ ...store.$form.get(), code: '123456' });
    store.$understood.set(true);
    await store.deleteAccount();
    expect(made(world.calls, accountCalls.deleteAccount)).toEqual([{ route: accountCalls.deleteAccount, body: { Code: '123456' } }]);
    expect(world.env.leaveNotice).toHaveBeenCalledWith('session.accountDeleted');
    expect(world.env.signOutHere).toHaveBeenCalled();
    expect(world.env.location.assign).toHaveBeenCalledWith('/en/account/login');
  });

  it('deletes with the password instead of the code when one was typed', async () => {
    const world = getTestEnvironment([], { ...user, HasPassword: true });
    const store = await shown(world);
    store.$form.set({ ...store.$form.get(), code: '123456', proofPassword: 'my password' });
    store.$understood.set(true);
    await store.deleteAccount();
    expect(made(world.calls, accountCalls.deleteAccount)).toEqual([{ route: accountCalls.deleteAccount, body: { Password: 'my password' } }]);
  });

  it('stays on the page, signed in, when the server refuses the deletion', async () => {
    const world = getTestEnvironment([[accountCalls.deleteAccount, refusal('The code is wrong.')]]);
    const store = await shown(world);
    store.$form.set({ ...store.$form.get(), code: '000000' });
    store.$understood.set(true);
    await store.deleteAccount();
    expect(store.removal.$notice.get()).toEqual({ kind: 'error', text: 'The code is wrong.' });
    expect(world.env.leaveNotice).not.toHaveBeenCalled();
    expect(world.env.signOutHere).not.toHaveBeenCalled();
    expect(world.env.location.assign).not.toHaveBeenCalled();
  });
});
