/**
 * The login form's store, driven through its public actions in Node: the
 * world (API, session, address bar, clock) is a test environment, and time is
 * Vitest's fake clock.
 */
import { atom } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { ErrorCode } from '#contract/errors.ts';
import { externalLogin, type ExternalProvider } from '#contract/external-login.ts';
import { identity, type LoginResult, type UserInfo } from '#contract/identity.ts';
import type { QuickOutcome } from '@/stores/quick-login.ts';
import { createLoginForm, type LoginEnvironment, type LoginOptions } from '@/features/auth/login-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { user } from './commerce-world.ts';

const loginResult: LoginResult = {
  AccessToken: 'access',
  ExpiresIn: Date.now() + 3600_000,
  RefreshToken: 'refresh',
  RefreshExpiresIn: Date.now() + 7200_000,
  User: user,
};

type Reply = (body: unknown) => unknown;

const providers: ExternalProvider[] = [
  { Provider: 'steam', CheckUrl: 'https://steamcommunity.com/favicon.ico' },
  { Provider: 'microsoft', CheckUrl: null },
  { Provider: 'qq', CheckUrl: null },
];

/** A world for one form: answers per route (a value, or a function that may throw), a session, an address, the fake clock. */
function getTestEnvironment(
  options: { search?: string; notice?: string | null; replies?: Map<ApiRoute, Reply>; outcome?: QuickOutcome; reachable?: boolean } = {},
) {
  const replies = options.replies ?? new Map<ApiRoute, Reply>();
  const calls: Array<{ route: ApiRoute; body: unknown }> = [];
  const $isLoggedIn = atom(false);
  const $user = atom<UserInfo | null>(null);
  let notice = options.notice ?? null;
  const env = {
    call: async (route, callOptions) => {
      calls.push({ route, body: callOptions?.body });
      const reply = replies.get(route);
      if (!reply) throw new Error(`unexpected call ${route.path}`);
      return reply(callOptions?.body) as never;
    },
    session: {
      $isLoggedIn,
      $user,
      signIn: vi.fn((result: LoginResult) => {
        $user.set(result.User);
        $isLoggedIn.set(true);
      }),
      deviceId: () => 'test-device-0001',
      takeNotice: () => {
        const taken = notice;
        notice = null;
        return taken;
      },
    },
    location: { pathname: '/en/account/login', search: options.search ?? '', origin: 'https://beacontoolkit.net', assign: vi.fn() },
    quick: {
      providers: async () => providers,
      reachable: vi.fn(async () => options.reachable ?? true),
      start: vi.fn(async () => {}),
      takeOutcome: async () => options.outcome ?? null,
    },
    setTimer: (callback, ms) => {
      const timer = setTimeout(callback, ms);
      return () => clearTimeout(timer);
    },
    now: () => Date.now(),
  } satisfies LoginEnvironment;
  return { env, calls, replies };
}

const englishSite: LoginOptions = { showPassword: false, fallbackPath: '/en/account/center/info' };
const chineseSite: LoginOptions = { showPassword: true, fallbackPath: '/account/center/info' };

/** A form as an island uses it: mounted, with the agreement given and a valid phone typed unless a test says otherwise. */
function readyForm(world = getTestEnvironment(), options = englishSite) {
  const form = createLoginForm(world.env, options);
  form.$message.listen(() => {});
  form.$agreed.set(true);
  form.$phone.set(' 13800000000 ');
  return form;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('login form checks', () => {
  it('asks for the agreement, then the phone, then a valid phone, then the code, calling nothing until all are right', async () => {
    const world = getTestEnvironment();
    const form = createLoginForm(world.env, englishSite);

    await form.sendCode();
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'login.agreeFirst' });
    form.$agreed.set(true);
    await form.sendCode();
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'login.phoneRequired' });
    form.$phone.set('12ab');
    await form.sendCode();
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'login.phoneInvalid' });
    form.$phone.set('13800000000');
    form.$code.set('12345');
    await form.submitSms();
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'login.codeRequired' });

    expect(world.calls).toEqual([]);
  });

  it('checks a password login for the agreement, the account and the password', async () => {
    const world = getTestEnvironment();
    const form = createLoginForm(world.env, chineseSite);
    form.selectTab('password');
    expect(form.$tab.get()).toBe('password');

    await form.submitPassword();
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'login.agreeFirst' });
    form.$agreed.set(true);
    await form.submitPassword();
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'login.accountRequired' });
    form.$account.set('13800000000');
    await form.submitPassword();
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'login.passwordRequired' });
    expect(world.calls).toEqual([]);
  });

  it('offers password login only where the page does, and clears the message on a tab change', async () => {
    const form = createLoginForm(getTestEnvironment().env, englishSite);
    expect(form.tabs).toEqual(['sms', 'quick']);
    await form.sendCode();
    form.selectTab('password');
    expect(form.$tab.get()).toBe('sms');
    expect(form.$message.get()).not.toBeNull();
    form.selectTab('quick');
    expect(form.$tab.get()).toBe('quick');
    expect(form.$message.get()).toBeNull();
  });
});

describe('sending a code', () => {
  it('sends the trimmed phone, says so and counts 60 s down before another code may be sent', async () => {
    const world = getTestEnvironment();
    world.replies.set(identity.sendSmsCode, () => null);
    const form = readyForm(world);

    await form.sendCode();
    expect(world.calls).toEqual([{ route: identity.sendSmsCode, body: { Phone: '13800000000' } }]);
    expect(form.$message.get()).toEqual({ kind: 'info', key: 'messages.smsSent' });
    expect(form.$countdown.get()).toBe(60);
    expect(form.$busy.get()).toBe(false);

    await vi.advanceTimersByTimeAsync(1000);
    expect(form.$countdown.get()).toBe(59);
    await form.sendCode();
    expect(world.calls).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(58_000);
    expect(form.$countdown.get()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(form.$countdown.get()).toBe(0);

    await form.sendCode();
    expect(world.calls).toHaveLength(2);
    expect(form.$countdown.get()).toBe(60);
  });

  it('is busy while the call runs and ignores a second press', async () => {
    const world = getTestEnvironment();
    let answer: () => void = () => {};
    world.replies.set(identity.sendSmsCode, () => new Promise<null>((resolve) => (answer = () => resolve(null))));
    const form = readyForm(world);

    const sending = form.sendCode();
    expect(form.$busy.get()).toBe(true);
    await form.sendCode();
    expect(world.calls).toHaveLength(1);
    answer();
    await sending;
    expect(form.$busy.get()).toBe(false);
  });

  it('starts no countdown when the code was not sent', async () => {
    const world = getTestEnvironment();
    world.replies.set(identity.sendSmsCode, () => {
      throw new ApiFailure('tooManyRequests');
    });
    const form = readyForm(world);
    await form.sendCode();
    expect(form.$countdown.get()).toBe(0);
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'messages.tooFast' });
  });

  it('says which limit an SMS code hit in the server’s words, not only "too fast"', async () => {
    const world = getTestEnvironment();
    world.replies.set(identity.sendSmsCode, () => {
      throw new ApiFailure('tooManyRequests', { code: 429, serverMessage: '请求过于频繁，请休息一下再试。' });
    });
    const form = readyForm(world);
    await form.sendCode();
    expect(form.$countdown.get()).toBe(0);
    expect(form.$message.get()).toEqual({ kind: 'error', text: '请求过于频繁，请休息一下再试。' });
  });

  it('says a code was already sent to the number and counts down the wait the server names', async () => {
    const world = getTestEnvironment();
    const words = 'A code was already sent to this number. You can ask for a new one in 42 s.';
    world.replies.set(identity.sendSmsCode, () => {
      throw new ApiFailure('tooManyRequests', { code: 429, serverMessage: words, retryAfterMs: 42_000 });
    });
    const form = readyForm(world);
    await form.sendCode();
    expect(form.$message.get()).toEqual({ kind: 'error', text: words });
    expect(form.$countdown.get()).toBe(42);
  });

  it('stops counting when nothing shows the form any more', async () => {
    const world = getTestEnvironment();
    world.replies.set(identity.sendSmsCode, () => null);
    const form = createLoginForm(world.env, englishSite);
    const stop = form.$message.listen(() => {});
    form.$agreed.set(true);
    form.$phone.set('13800000000');
    await form.sendCode();
    stop();
    // Nano Stores unmount a store a second after its last listener left.
    await vi.advanceTimersByTimeAsync(1000);
    expect(vi.getTimerCount()).toBe(0);
  });
});

// Issue 43, point 7: a code that costs the shop is sent only after the browser proves its work.
describe('a code that needs a proof of work', () => {
  const challenge = {
    parameters: { algorithm: 'PBKDF2/SHA-256', nonce: 'aa', salt: 'bb', cost: 1000, keyLength: 32, keyPrefix: 'cc', keySignature: 'dd', expiresAt: 1 },
    signature: 'ee',
  };
  const proofRequired = () =>
    new ApiFailure('server', { code: ErrorCode.ProofOfWorkRequired, serverMessage: 'Before we send a code, please confirm you are not a robot.' });

  /** A server that refuses a code without a proof of work and sends it with one. */
  function challengingWorld() {
    const world = getTestEnvironment();
    world.replies.set(identity.sendSmsCode, (body) => {
      if (!(body as { ProofOfWork?: string }).ProofOfWork) throw proofRequired();
      return null;
    });
    world.replies.set(identity.codeChallenge, () => challenge);
    return world;
  }

  it('shows the challenge, waits for its solution, then asks again with it and counts down', async () => {
    const world = challengingWorld();
    const form = readyForm(world);
    const sending = form.sendCode();
    await vi.waitFor(() => expect(form.challenge.$challenge.get()).toEqual(challenge));
    // While the browser works, the form is busy and has sent nothing more.
    expect(form.$busy.get()).toBe(true);
    expect(form.$message.get()).toBeNull();
    expect(world.calls.map((call) => call.route)).toEqual([identity.sendSmsCode, identity.codeChallenge]);

    form.challenge.solved('c29sdmVk');
    await sending;
    expect(world.calls.at(-1)).toEqual({ route: identity.sendSmsCode, body: { Phone: '13800000000', ProofOfWork: 'c29sdmVk' } });
    expect(form.challenge.$challenge.get()).toBeNull();
    expect(form.$message.get()).toEqual({ kind: 'info', key: 'messages.smsSent' });
    expect(form.$countdown.get()).toBe(60);
    expect(form.$busy.get()).toBe(false);
  });

  it('says the server’s words when the solution is refused, and sends nothing more', async () => {
    const world = challengingWorld();
    const words = 'The check that you are not a robot failed or has expired. Please ask for the code again.';
    world.replies.set(identity.sendSmsCode, (body) => {
      if (!(body as { ProofOfWork?: string }).ProofOfWork) throw proofRequired();
      throw new ApiFailure('server', { code: ErrorCode.ProofOfWorkInvalid, serverMessage: words });
    });
    const form = readyForm(world);
    const sending = form.sendCode();
    await vi.waitFor(() => expect(form.challenge.$challenge.get()).not.toBeNull());
    form.challenge.solved('c3RhbGU=');
    await sending;
    expect(form.$message.get()).toEqual({ kind: 'error', text: words });
    expect(form.challenge.$challenge.get()).toBeNull();
    expect(form.$countdown.get()).toBe(0);
    expect(world.calls).toHaveLength(3);
  });

  it('asks for no challenge when the code needs none, and a solution arriving late changes nothing', async () => {
    const world = getTestEnvironment();
    world.replies.set(identity.sendSmsCode, () => null);
    const form = readyForm(world);
    await form.sendCode();
    form.challenge.solved('bGF0ZQ==');
    expect(world.calls).toEqual([{ route: identity.sendSmsCode, body: { Phone: '13800000000' } }]);
    expect(form.challenge.$challenge.get()).toBeNull();
  });

  it('says so when the challenge cannot be had, and waits for nothing', async () => {
    const world = challengingWorld();
    world.replies.set(identity.codeChallenge, () => {
      throw new ApiFailure('network');
    });
    const form = readyForm(world);
    await form.sendCode();
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    expect(form.challenge.$challenge.get()).toBeNull();
    expect(form.$busy.get()).toBe(false);
  });
});

describe('failures', () => {
  it('shows the server’s own message as it is', async () => {
    const world = getTestEnvironment();
    world.replies.set(identity.loginOrRegister, () => {
      throw new ApiFailure('server', { code: 4001, serverMessage: '验证码错误或已过期。' });
    });
    const form = readyForm(world);
    form.$code.set('123456');

    await form.submitSms();
    expect(form.$message.get()).toEqual({ kind: 'error', text: '验证码错误或已过期。' });
    expect(form.$busy.get()).toBe(false);
    expect(form.$redirecting.get()).toBe(false);
    expect(world.env.session.signIn).not.toHaveBeenCalled();
  });

  it.each([
    [new ApiFailure('tooManyRequests'), 'messages.tooFast'],
    [new ApiFailure('network'), 'messages.networkError'],
    [new ApiFailure('unknown'), 'messages.unknownError'],
    [new ApiFailure('unauthorized'), 'messages.unauthorized'],
    [new ApiFailure('server'), 'messages.unknownError'],
    [new TypeError('something else broke'), 'messages.unknownError'],
  ])('maps %o to %s', async (failure, key) => {
    const world = getTestEnvironment();
    world.replies.set(identity.loginOrRegister, () => {
      throw failure;
    });
    const form = readyForm(world);
    form.$code.set('123456');

    await form.submitSms();
    expect(form.$message.get()).toEqual({ kind: 'error', key });
  });
});

describe('after login', () => {
  it('comes back to the page of a desktop sign-in to approve, unless redirectUrl says otherwise', () => {
    expect(createLoginForm(getTestEnvironment({ search: '?device=BCDF-GHJK' }).env, englishSite).target()).toBe('/en/account/login?device=BCDF-GHJK');
    expect(createLoginForm(getTestEnvironment({ search: '?device=BCDF-GHJK&redirectUrl=%2Fen%2Ffaq' }).env, englishSite).target()).toBe('/en/faq');
    expect(createLoginForm(getTestEnvironment({ search: '' }).env, englishSite).target()).toBe(englishSite.fallbackPath);
  });
});

describe('quick login', () => {
  /** The quick tab of a form, its providers loaded. */
  async function quickTab(world = getTestEnvironment()) {
    const form = createLoginForm(world.env, englishSite);
    form.$message.listen(() => {});
    form.selectTab('quick');
    await vi.waitFor(() => expect(form.$providers.get()).toEqual(providers));
    return form;
  }

  it('asks for the agreement, checks that Steam can be reached, then starts, coming back to redirectUrl', async () => {
    const world = getTestEnvironment({ search: '?redirectUrl=%2Fen%2Fraffle' });
    const form = await quickTab(world);
    await form.quickLogin('steam');
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'login.agreeFirst' });
    expect(world.env.quick.start).not.toHaveBeenCalled();

    form.$agreed.set(true);
    await form.quickLogin('steam');
    expect(world.env.quick.reachable).toHaveBeenCalledWith('https://steamcommunity.com/favicon.ico');
    expect(world.env.quick.start).toHaveBeenCalledWith('steam', '/en/raffle');
  });

  it('says when Steam cannot be reached, and offers to try again or go on anyway', async () => {
    const world = getTestEnvironment({ reachable: false });
    const form = await quickTab(world);
    form.$agreed.set(true);
    await form.quickLogin('steam');
    expect(form.$unreachable.get()).toBe('steam');
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'login.unreachable', params: { provider: 'Steam' } });
    expect(world.env.quick.start).not.toHaveBeenCalled();

    await form.quickLogin('steam', false);
    expect(form.$unreachable.get()).toBeNull();
    expect(world.env.quick.start).toHaveBeenCalledWith('steam', englishSite.fallbackPath);
  });

  it('starts a provider without a check at once', async () => {
    const world = getTestEnvironment();
    const form = await quickTab(world);
    form.$agreed.set(true);
    await form.quickLogin('microsoft');
    expect(world.env.quick.reachable).not.toHaveBeenCalled();
    expect(world.env.quick.start).toHaveBeenCalledWith('microsoft', englishSite.fallbackPath);
  });

  const arrived = async (outcome: QuickOutcome) => {
    const world = getTestEnvironment({ outcome, replies: new Map([[externalLogin.bindPhone, () => loginResult]]) });
    const form = createLoginForm(world.env, englishSite);
    form.$message.listen(() => {});
    await vi.advanceTimersByTimeAsync(0);
    return { world, form };
  };

  it('signs in with a signed-in outcome and goes back where the login started', async () => {
    const { world } = await arrived({
      provider: 'qq',
      purpose: 'login',
      returnPath: '/en/recharge/steam',
      result: { Status: 'signedIn', Provider: 'qq', Login: loginResult },
    });
    expect(world.env.session.signIn).toHaveBeenCalledWith(loginResult);
    await vi.advanceTimersByTimeAsync(800);
    expect(world.env.location.assign).toHaveBeenCalledWith('/en/recharge/steam');
  });

  it('asks a new identity for a phone and its code, then logs in with the ticket', async () => {
    const { world, form } = await arrived({
      provider: 'steam',
      purpose: 'login',
      returnPath: '/en/raffle',
      result: { Status: 'bindPhone', Provider: 'steam', Ticket: 'ticket-1', DisplayName: 'Gordon' },
    });
    expect(form.$pendingPhone.get()).toEqual({ provider: 'steam', name: 'Gordon', ticket: 'ticket-1', returnPath: '/en/raffle' });
    // The agreement was given before leaving for the provider (a quick login starts only then): it still stands.
    expect(form.$agreed.get()).toBe(true);
    form.$phone.set('13800000000');
    await form.submitPendingPhone();
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'login.codeRequired' });
    form.$code.set('123456');
    await form.submitPendingPhone();
    expect(world.calls).toEqual([
      { route: externalLogin.bindPhone, body: { Ticket: 'ticket-1', Phone: '13800000000', Code: '123456', DeviceId: 'test-device-0001' } },
    ]);
    await vi.advanceTimersByTimeAsync(800);
    expect(world.env.location.assign).toHaveBeenCalledWith('/en/raffle');

    form.cancelPendingPhone();
    expect(form.$pendingPhone.get()).toBeNull();
  });

  it('says why a quick login did not finish, naming the provider', async () => {
    const { form } = await arrived({ provider: 'microsoft', purpose: 'login', returnPath: '/en', error: 'denied' });
    expect(form.$tab.get()).toBe('quick');
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'login.external.denied', params: { provider: 'Xbox' } });
  });

  it('sends a linking outcome back to the linked-accounts page, which says how it went', async () => {
    const linked = await arrived({ provider: 'steam', purpose: 'bind', returnPath: '/en/account/center/bind', result: { Status: 'bound', Provider: 'steam' } });
    expect(linked.world.env.location.assign).toHaveBeenCalledWith('/en/account/center/bind?external=linked&provider=steam');
    const taken = await arrived({ provider: 'qq', purpose: 'bind', returnPath: '/en/account/center/bind', error: 'taken' });
    expect(taken.world.env.location.assign).toHaveBeenCalledWith('/en/account/center/bind?external=taken&provider=qq');
  });
});

describe('logging in', () => {
  it('signs in with the code and the device id, says so and goes back to redirectUrl', async () => {
    const world = getTestEnvironment({ search: '?redirectUrl=%2Fen%2Ffaq%3Fq%3D1' });
    world.replies.set(identity.loginOrRegister, () => loginResult);
    const form = readyForm(world);
    form.$code.set(' 123456 ');

    await form.submitSms();
    expect(world.calls).toEqual([{ route: identity.loginOrRegister, body: { Phone: '13800000000', Code: '123456', DeviceId: 'test-device-0001' } }]);
    expect(world.env.session.signIn).toHaveBeenCalledWith(loginResult);
    expect(form.$redirecting.get()).toBe(true);
    expect(form.$message.get()).toEqual({ kind: 'info', key: 'login.redirecting' });
    // The session is now logged in, but this form shows its own success, not "already logged in".
    expect(form.$signedInAs.get()).toBeNull();

    expect(world.env.location.assign).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(800);
    expect(world.env.location.assign).toHaveBeenCalledExactlyOnceWith('/en/faq?q=1');

    await form.submitSms();
    expect(world.calls).toHaveLength(1);
  });

  it('logs in by password on the Chinese site', async () => {
    const world = getTestEnvironment();
    world.replies.set(identity.loginByPassword, () => loginResult);
    const form = readyForm(world, chineseSite);
    form.selectTab('password');
    form.$account.set(' 13800000000 ');
    form.$password.set(' secret ');

    await form.submitPassword();
    expect(world.calls).toEqual([{ route: identity.loginByPassword, body: { Account: '13800000000', Password: ' secret ', DeviceId: 'test-device-0001' } }]);
    await vi.advanceTimersByTimeAsync(800);
    expect(world.env.location.assign).toHaveBeenCalledExactlyOnceWith('/account/center/info');
  });

  it.each([
    '',
    '?redirectUrl=%2F%2Fevil.example%2Fphish',
    '?redirectUrl=https%3A%2F%2Fevil.example%2F',
    '?redirectUrl=javascript%3Aalert(1)',
    '?redirectUrl=%2F%5Cevil.example',
  ])('goes to the account centre, never off the site, from %j', async (search) => {
    const world = getTestEnvironment({ search });
    world.replies.set(identity.loginOrRegister, () => loginResult);
    const form = readyForm(world);
    form.$code.set('123456');
    await form.submitSms();
    await vi.advanceTimersByTimeAsync(800);
    expect(world.env.location.assign).toHaveBeenCalledExactlyOnceWith('/en/account/center/info');
  });
});

describe('arriving on the page', () => {
  it('shows the notice another page left, once', () => {
    const world = getTestEnvironment({ notice: 'messages.loginExpired' });
    const form = createLoginForm(world.env, englishSite);
    expect(form.$message.get()).toEqual({ kind: 'error', key: 'messages.loginExpired' });
    expect(world.env.session.takeNotice()).toBeNull();
  });

  it('ignores a notice it has no words for', () => {
    const form = createLoginForm(getTestEnvironment({ notice: 'no.such.notice' }).env, englishSite);
    expect(form.$message.get()).toBeNull();
  });

  it('knows who is logged in already and where they would continue to', () => {
    const world = getTestEnvironment({ search: '?redirectUrl=%2Fen%2Fdownload' });
    const form = createLoginForm(world.env, englishSite);
    expect(form.$signedInAs.get()).toBeNull();
    world.env.session.$user.set(user);
    world.env.session.$isLoggedIn.set(true);
    expect(form.$signedInAs.get()).toBe('Beacon-0000');
    expect(form.target()).toBe('/en/download');
  });
});
