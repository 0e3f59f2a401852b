/**
 * Approving a desktop sign-in (src/features/auth/device-approval-store.ts) in
 * Node: the code the page came with looked up at once, a typed code checked
 * before any call, then the request approved or refused with the login’s
 * token, after which it is decided.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { deviceCalls, type DeviceRequest } from '#contract/device-login.ts';
import { createDeviceApproval } from '@/features/auth/device-approval-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { fakeApi, type Reply } from './fake-api.ts';

const request: DeviceRequest = {
  UserCode: 'ABCD-EFGH',
  Device: 'GAMING-PC · Windows 11',
  Place: 'DE',
  CreatedAt: '2026-01-01T00:00:00.000Z',
  ExpiresAt: '2026-01-01T00:10:00.000Z',
};

/** A world that knows `request`, answers as `replies` say, and is logged in with the token `login-token`. */
function getTestEnvironment(replies: Array<[ApiRoute, Reply]> = []) {
  const { call, calls } = fakeApi([
    [deviceCalls.describe, () => request],
    [deviceCalls.decide, ({ body }) => ({ Approved: (body as { Approve: boolean }).Approve })],
    ...replies,
  ]);
  return { env: { call, token: () => 'login-token' }, calls };
}

/** The approval as the island shows it: mounted with the code `code` from the address, and done with looking it up. */
async function shown(code: string, world = getTestEnvironment()) {
  const store = createDeviceApproval(world.env, { code });
  store.$request.listen(() => {});
  await vi.waitFor(() => expect(store.$busy.get()).toBe(false));
  return store;
}

const failing = (failure: ApiFailure) => () => {
  throw failure;
};

describe('finding a desktop sign-in', () => {
  it('looks up the code the page came with at once, as the logged-in visitor', async () => {
    const world = getTestEnvironment();
    const store = await shown('abcd-efgh', world);
    expect(world.calls).toEqual([{ route: deviceCalls.describe, params: { userCode: 'abcd-efgh' }, token: 'login-token' }]);
    expect(store.$request.get()).toEqual(request);
    expect(store.$notice.get()).toBeNull();
  });

  it('waits for a code to be typed when the page came without one, then looks up the trimmed code', async () => {
    const world = getTestEnvironment();
    const store = await shown('', world);
    expect(world.calls).toEqual([]);
    store.$code.set(' ABCDEFGH ');
    await store.find();
    expect(world.calls).toEqual([{ route: deviceCalls.describe, params: { userCode: 'ABCDEFGH' }, token: 'login-token' }]);
    expect(store.$request.get()).toEqual(request);
  });

  it('refuses a code that is not eight letters before any call', async () => {
    const world = getTestEnvironment();
    const store = await shown('abc-1234', world);
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'login.device.codeInvalid' });
    store.$code.set('abcdefg');
    await store.find();
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'login.device.codeInvalid' });
    expect(world.calls).toEqual([]);
    expect(store.$request.get()).toBeNull();
  });

  it('shows the server’s words for a code it does not know', async () => {
    const refusal = new ApiFailure('server', { code: 4004, serverMessage: 'This code is unknown or has expired.' });
    const store = await shown('abcd-efgh', getTestEnvironment([[deviceCalls.describe, failing(refusal)]]));
    expect(store.$notice.get()).toEqual({ kind: 'error', text: 'This code is unknown or has expired.' });
    expect(store.$request.get()).toBeNull();
  });

  it('says the login ended when the server no longer knows the visitor', async () => {
    const store = await shown('abcd-efgh', getTestEnvironment([[deviceCalls.describe, failing(new ApiFailure('unauthorized'))]]));
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'messages.unauthorized' });
  });
});

describe('deciding a desktop sign-in', () => {
  it('approves the request found, says so and is decided', async () => {
    const world = getTestEnvironment();
    const store = await shown('abcdefgh', world);
    const deciding = store.decide(true);
    expect(store.$busy.get()).toBe(true);
    await deciding;
    expect(world.calls.at(-1)).toEqual({ route: deviceCalls.decide, body: { UserCode: 'ABCD-EFGH', Approve: true }, token: 'login-token' });
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'login.device.approved' });
    expect(store.$decided.get()).toBe(true);
  });

  it('refuses the request found, says so and is decided, once', async () => {
    const world = getTestEnvironment();
    const store = await shown('abcdefgh', world);
    await store.decide(false);
    expect(world.calls.at(-1)).toEqual({ route: deviceCalls.decide, body: { UserCode: 'ABCD-EFGH', Approve: false }, token: 'login-token' });
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'login.device.refused' });
    expect(store.$decided.get()).toBe(true);
    await store.decide(true);
    expect(world.calls.filter((made) => made.route === deviceCalls.decide)).toHaveLength(1);
  });

  it('decides nothing before a request is found', async () => {
    const world = getTestEnvironment();
    const store = await shown('', world);
    await store.decide(true);
    expect(world.calls).toEqual([]);
    expect(store.$decided.get()).toBe(false);
  });

  it('shows the server’s words when it refuses the decision, and stays undecided', async () => {
    const refusal = new ApiFailure('server', { code: 4004, serverMessage: 'This request has expired.' });
    const store = await shown('abcdefgh', getTestEnvironment([[deviceCalls.decide, failing(refusal)]]));
    await store.decide(true);
    expect(store.$notice.get()).toEqual({ kind: 'error', text: 'This request has expired.' });
    expect(store.$decided.get()).toBe(false);
  });

  it('says why the decision did not go through, and stays undecided', async () => {
    const store = await shown('abcdefgh', getTestEnvironment([[deviceCalls.decide, failing(new ApiFailure('network'))]]));
    await store.decide(false);
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    expect(store.$decided.get()).toBe(false);
  });
});
