/**
 * The linked-accounts page (src/features/account/bind-store.ts) in Node: the
 * user read afresh and the providers on offer when it opens, the outcome of a
 * linking it came back from, the phone changed with its codes, the e-mail
 * bound through a link, and quick-login identities linked and unlinked.
 */
import { atom } from 'nanostores';
import { describe, expect, it, vi } from 'vitest';
import { accountCalls } from '#contract/account.ts';
import { ErrorCode } from '#contract/errors.ts';
import type { ApiRoute } from '#contract/api.ts';
import type { ExternalProvider } from '#contract/external-login.ts';
import { identity, type UserInfo } from '#contract/identity.ts';
import { createBinding } from '@/features/account/bind-store.ts';
import type { LinkOutcome } from '@/features/account/link-outcome.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { fakeApi, type Reply } from './fake-api.ts';

const user = {
  Id: 7,
  NickName: 'Gordon',
  Phone: '138****0000',
  Email: null,
  ExternalAccounts: [{ Id: 3, Provider: 'qq', DisplayName: 'Penguin' }],
} as unknown as UserInfo;

const refusal = (serverMessage: string) => () => {
  throw new ApiFailure('server', { code: 4000, serverMessage });
};
const offline = () => {
  throw new ApiFailure('network');
};

interface WorldOptions {
  replies?: Array<[ApiRoute, Reply]>;
  who?: UserInfo | null;
  outcome?: LinkOutcome | null;
  providers?: () => Promise<ExternalProvider[]>;
  agree?: boolean;
}

/** A world with `user` logged in, Steam and QQ on offer, and the user agreeing when asked unless told otherwise. */
function getTestEnvironment({ replies = [], who = user, outcome = null, providers, agree = true }: WorldOptions = {}) {
  const { call, calls } = fakeApi([
    [accountCalls.sendOwnCode, () => null],
    [identity.sendSmsCode, () => null],
    [accountCalls.bindEmail, () => null],
    ...replies,
  ]);
  const $user = atom<UserInfo | null>(who);
  let pending = outcome;
  const env = {
    call,
    $user,
    refreshUser: vi.fn(async () => {}),
    updateUser: vi.fn((info: UserInfo) => $user.set(info)),
    quick: {
      providers: vi.fn(providers ?? (async () => [{ Provider: 'steam' }, { Provider: 'qq' }] as ExternalProvider[])),
      startLinking: vi.fn(async () => {}),
      takeLinkOutcome: () => {
        const taken = pending;
        pending = null;
        return taken;
      },
    },
    confirm: vi.fn(() => agree),
    location: { assign: vi.fn() },
  };
  return { env, calls };
}

/** The page as the island shows it: opened, the providers read. */
async function shown(world = getTestEnvironment()) {
  const store = createBinding(world.env, { emailSentPath: '/en/account/center/safe/confirmemail' });
  store.load();
  await vi.waitFor(() => expect(world.env.quick.providers).toHaveBeenCalled());
  await Promise.resolve();
  return store;
}

const made = (calls: Array<{ route: ApiRoute }>, route: ApiRoute) => calls.filter((one) => one.route === route);

describe('opening the linked-accounts page', () => {
  it('reads the user afresh and offers the providers this server has', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    expect(world.env.refreshUser).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(store.$offered.get()).toEqual(['steam', 'qq']));
    expect(store.identities.$notice.get()).toBeNull();
  });

  it('offers none when the providers cannot be read, and still opens when the user cannot be read afresh', async () => {
    const world = getTestEnvironment({ providers: () => Promise.reject(new ApiFailure('network')) });
    world.env.refreshUser.mockRejectedValueOnce(new ApiFailure('network'));
    const store = await shown(world);
    expect(store.$offered.get()).toEqual([]);
    expect(store.$user.get()).toEqual(user);
  });

  it('says a linking it came back from succeeded, naming the provider by its brand', async () => {
    const store = await shown(getTestEnvironment({ outcome: { provider: 'microsoft', error: null } }));
    expect(store.identities.$notice.get()).toEqual({ kind: 'ok', key: 'account.bind.linked', params: { provider: 'Xbox' } });
  });

  it('says why a linking it came back from failed', async () => {
    const store = await shown(getTestEnvironment({ outcome: { provider: 'steam', error: 'denied' } }));
    expect(store.identities.$notice.get()).toEqual({ kind: 'error', key: 'login.external.denied', params: { provider: 'Steam' } });
  });
});

describe('the phone number', () => {
  it('sends a code to the current number and one to the new number typed', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    await expect(store.sendOldCode()).resolves.toBe(true);
    expect(store.phone.$notice.get()).toEqual({ kind: 'ok', key: 'account.code.sent', params: { contact: '138****0000' } });
    store.$form.set({ ...store.$form.get(), phone: '13900000001' });
    await expect(store.sendNewCode()).resolves.toBe(true);
    expect(made(world.calls, accountCalls.sendOwnCode)).toEqual([{ route: accountCalls.sendOwnCode, body: { Channel: 'sms' } }]);
    expect(made(world.calls, identity.sendSmsCode)).toEqual([{ route: identity.sendSmsCode, body: { Phone: '13900000001' } }]);
  });

  it('says why a code could not be sent, and tells the resend wait not to start', async () => {
    const store = await shown(getTestEnvironment({ replies: [[identity.sendSmsCode, refusal('That is not a phone number.')]] }));
    await expect(store.sendNewCode()).resolves.toBe(false);
    expect(store.phone.$notice.get()).toEqual({ kind: 'error', text: 'That is not a phone number.' });
  });

  it('changes the number with both codes, keeps the user the server answered, says how many devices were signed out and empties the fields', async () => {
    const changed = { ...user, Phone: '139****0001' };
    const world = getTestEnvironment({ replies: [[accountCalls.changePhone, () => ({ User: changed, Revoked: 2 })]] });
    const store = await shown(world);
    store.$form.set({ ...store.$form.get(), oldCode: '111111', phone: '13900000001', code: '222222', email: 'kept@example.com' });
    await store.changePhone();
    expect(made(world.calls, accountCalls.changePhone)).toEqual([
      { route: accountCalls.changePhone, body: { Phone: '13900000001', Code: '222222', OldCode: '111111' } },
    ]);
    expect(store.phone.$notice.get()).toEqual({ kind: 'ok', key: 'account.bind.phoneSaved', params: { count: 2 } });
    expect(world.env.updateUser).toHaveBeenCalledWith(changed);
    expect(store.$form.get()).toMatchObject({ oldCode: '', phone: '', code: '', email: 'kept@example.com' });
  });

  it('proves a phone-less account’s first number with a code to its e-mail', async () => {
    const world = getTestEnvironment({
      who: { ...user, Phone: null, Email: 'gordon@example.com' },
      replies: [[accountCalls.changePhone, () => ({ User: user, Revoked: 0 })]],
    });
    const store = await shown(world);
    await expect(store.sendOldCode()).resolves.toBe(true);
    expect(made(world.calls, accountCalls.sendOwnCode)).toEqual([{ route: accountCalls.sendOwnCode, body: { Channel: 'email' } }]);
    expect(store.phone.$notice.get()).toEqual({ kind: 'ok', key: 'account.code.sent', params: { contact: 'gordon@example.com' } });
    store.$form.set({ ...store.$form.get(), oldCode: '111111', phone: '13800000000', code: '222222' });
    await store.changePhone();
    expect(made(world.calls, accountCalls.changePhone)).toEqual([
      { route: accountCalls.changePhone, body: { Phone: '13800000000', Code: '222222', OldCode: '111111' } },
    ]);
  });

  it('binds a first number of an account with neither phone nor e-mail with the new one’s code alone', async () => {
    const world = getTestEnvironment({ who: { ...user, Phone: null }, replies: [[accountCalls.changePhone, () => ({ User: user, Revoked: 0 })]] });
    const store = await shown(world);
    await expect(store.sendOldCode()).resolves.toBe(false);
    store.$form.set({ ...store.$form.get(), oldCode: '111111', phone: '13800000000', code: '222222' });
    await store.changePhone();
    expect(made(world.calls, accountCalls.sendOwnCode)).toEqual([]);
    expect(made(world.calls, accountCalls.changePhone)).toEqual([{ route: accountCalls.changePhone, body: { Phone: '13800000000', Code: '222222' } }]);
  });

  it('shows the server’s words for a refused change and keeps what was typed', async () => {
    const world = getTestEnvironment({ replies: [[accountCalls.changePhone, refusal('The code is wrong.')]] });
    const store = await shown(world);
    store.$form.set({ ...store.$form.get(), phone: '13900000001', code: '000000' });
    await store.changePhone();
    expect(store.phone.$notice.get()).toEqual({ kind: 'error', text: 'The code is wrong.' });
    expect(world.env.updateUser).not.toHaveBeenCalled();
    expect(store.$form.get().code).toBe('000000');
  });
});

describe('the e-mail address', () => {
  it('sends the link to the address typed with the phone’s code, then shows the “check your inbox” screen', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    await expect(store.sendEmailCode('sms')).resolves.toBe(true);
    expect(store.email.$notice.get()).toEqual({ kind: 'ok', key: 'account.code.sent', params: { contact: '138****0000' } });
    store.$form.set({ ...store.$form.get(), email: 'gordon@example.com', emailCode: '333333', oldEmailCode: 'ignored' });
    await store.bindEmail();
    expect(made(world.calls, accountCalls.sendOwnCode)).toEqual([{ route: accountCalls.sendOwnCode, body: { Channel: 'sms' } }]);
    expect(made(world.calls, accountCalls.bindEmail)).toEqual([{ route: accountCalls.bindEmail, body: { Email: 'gordon@example.com', Code: '333333' } }]);
    expect(world.env.location.assign).toHaveBeenCalledWith('/en/account/center/safe/confirmemail');
  });

  it('changes an address with a code to the phone and one to the current address', async () => {
    const world = getTestEnvironment({ who: { ...user, Email: 'old@example.com' } });
    const store = await shown(world);
    await store.sendEmailCode('sms');
    await store.sendEmailCode('email');
    expect(store.email.$notice.get()).toEqual({ kind: 'ok', key: 'account.code.sent', params: { contact: 'old@example.com' } });
    store.$form.set({ ...store.$form.get(), email: 'new@example.com', emailCode: '333333', oldEmailCode: '444444' });
    await store.bindEmail();
    expect(made(world.calls, accountCalls.sendOwnCode)).toEqual([
      { route: accountCalls.sendOwnCode, body: { Channel: 'sms' } },
      { route: accountCalls.sendOwnCode, body: { Channel: 'email' } },
    ]);
    expect(made(world.calls, accountCalls.bindEmail)).toEqual([
      { route: accountCalls.bindEmail, body: { Email: 'new@example.com', Code: '333333', OldEmailCode: '444444' } },
    ]);
  });

  it('stays on the page and says why when the link could not be sent', async () => {
    const world = getTestEnvironment({ replies: [[accountCalls.bindEmail, offline]] });
    const store = await shown(world);
    await store.bindEmail();
    expect(store.email.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    expect(world.env.location.assign).not.toHaveBeenCalled();
  });
});

describe('the quick-login identities', () => {
  it('leaves for the provider to link an identity', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    await store.link('steam');
    expect(world.env.quick.startLinking).toHaveBeenCalledWith('steam');
  });

  it('asks before unlinking, and keeps the user the server answered', async () => {
    const unlinked = { ...user, ExternalAccounts: [] };
    const world = getTestEnvironment({ replies: [[identity.unbundleAccount, () => unlinked]] });
    const store = await shown(world);
    await store.unbind(3, 'Unlink QQ?');
    expect(world.env.confirm).toHaveBeenCalledWith('Unlink QQ?');
    expect(made(world.calls, identity.unbundleAccount)).toEqual([{ route: identity.unbundleAccount, params: { id: 3 } }]);
    expect(store.identities.$notice.get()).toEqual({ kind: 'ok', key: 'account.bind.unbound' });
    expect(world.env.updateUser).toHaveBeenCalledWith(unlinked);
  });

  it('unlinks nothing when the user does not confirm', async () => {
    const world = getTestEnvironment({ agree: false });
    const store = await shown(world);
    await store.unbind(3, 'Unlink QQ?');
    expect(made(world.calls, identity.unbundleAccount)).toEqual([]);
    expect(store.identities.$notice.get()).toBeNull();
  });

  it('shows the server’s words when the last way in cannot be unlinked', async () => {
    const world = getTestEnvironment({ replies: [[identity.unbundleAccount, refusal('This is your only way to log in.')]] });
    const store = await shown(world);
    await store.unbind(3, 'Unlink QQ?');
    expect(store.identities.$notice.get()).toEqual({ kind: 'error', text: 'This is your only way to log in.' });
    expect(world.env.updateUser).not.toHaveBeenCalled();
  });
});

// Issue 43, point 7: a code to a new number that costs the shop is sent once the browser proves its work.
describe('a new number’s code that needs a proof of work', () => {
  it('shows the challenge, and sends the code with the widget’s solution', async () => {
    const challenge = {
      parameters: { algorithm: 'PBKDF2/SHA-256', nonce: 'aa', salt: 'bb', cost: 1000, keyLength: 32, keyPrefix: 'cc', expiresAt: 1 },
      signature: 'dd',
    };
    const world = getTestEnvironment({
      replies: [
        [
          identity.sendSmsCode,
          ({ body }) => {
            if (!(body as { ProofOfWork?: string }).ProofOfWork)
              throw new ApiFailure('server', { code: ErrorCode.ProofOfWorkRequired, serverMessage: 'Prove it.' });
            return null;
          },
        ],
        [identity.codeChallenge, () => challenge],
      ],
    });
    const store = await shown(world);
    store.$form.set({ ...store.$form.get(), phone: '13900000001' });
    const sending = store.sendNewCode();
    await vi.waitFor(() => expect(store.challenge.$challenge.get()).toEqual(challenge));
    expect(store.phone.$busy.get()).toBe(true);
    store.challenge.solved('cGF5bG9hZA==');
    expect(await sending).toBe(true);
    expect(made(world.calls, identity.sendSmsCode)).toEqual([
      { route: identity.sendSmsCode, body: { Phone: '13900000001' } },
      { route: identity.sendSmsCode, body: { Phone: '13900000001', ProofOfWork: 'cGF5bG9hZA==' } },
    ]);
    expect(store.phone.$notice.get()).toEqual({ kind: 'ok', key: 'messages.smsSent' });
    expect(store.challenge.$challenge.get()).toBeNull();
  });
});
