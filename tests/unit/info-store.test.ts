/**
 * The profile page's glance at commerce (src/features/account/info-store.ts)
 * in Node: the balance and membership read when first shown, and nothing
 * shown, nor said, when they cannot be read.
 */
import { atom } from 'nanostores';
import { describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { commerceCalls } from '#contract/commerce.ts';
import type { UserInfo } from '#contract/identity.ts';
import { createAccountInfo } from '@/features/account/info-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';

const user = { Id: 7, NickName: 'Beacon-0000' } as UserInfo;
const summary = { Balance: 2500, MembershipUntil: '2026-03-01T00:00:00.000Z' };

/** A world whose summary is answered by `reply`. */
function getTestEnvironment(reply: () => unknown = () => summary) {
  const calls: ApiRoute[] = [];
  const call = vi.fn(async (route: ApiRoute) => {
    calls.push(route);
    if (route !== commerceCalls.summary) throw new Error(`unexpected call ${route.path}`);
    return reply();
  });
  return { env: { call: call as never, $user: atom<UserInfo | null>(user) }, calls };
}

describe('the profile’s commerce glance', () => {
  it('reads the balance and membership when first shown, and hands over the user', async () => {
    const world = getTestEnvironment();
    const store = createAccountInfo(world.env);
    expect(world.calls).toEqual([]);
    expect(store.$user.get()).toBe(user);
    store.$summary.listen(() => {});
    await vi.waitFor(() => expect(store.$summary.get()).toEqual(summary));
    expect(world.calls).toEqual([commerceCalls.summary]);
  });

  it('stays away when the server refuses it', async () => {
    const world = getTestEnvironment(() => {
      throw new ApiFailure('server', { code: 5000, serverMessage: 'Commerce is resting.' });
    });
    const store = createAccountInfo(world.env);
    store.$summary.listen(() => {});
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    await Promise.resolve();
    expect(store.$summary.get()).toBeNull();
  });

  it('stays away when the network fails', async () => {
    const world = getTestEnvironment(() => {
      throw new ApiFailure('network');
    });
    const store = createAccountInfo(world.env);
    store.$summary.listen(() => {});
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    await Promise.resolve();
    expect(store.$summary.get()).toBeNull();
  });
});
