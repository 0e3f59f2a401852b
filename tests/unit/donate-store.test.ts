/**
 * Donating from the wallet (src/features/account/donate-store.ts) in Node: the
 * balance and donations load when first shown, the form is checked before the
 * confirmation, and a donation or a name taken off shows as the server answers.
 */
import { atom } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { commerceCalls } from '#contract/commerce.ts';
import { donationCalls, donationRules, type Donation } from '#contract/donation.ts';
import { formatPrice } from '#contract/facts.ts';
import type { UserInfo } from '#contract/identity.ts';
import { createDonation } from '@/features/account/donate-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { fakeApi, type Reply } from './fake-api.ts';

const user = { Id: 7, NickName: 'A sponsor with a rather long nickname indeed' } as UserInfo;
const older: Donation = { Id: 1, Amount: 600, Name: 'Gordon', At: '2026-01-01T00:00:00.000Z' };
const given: Donation = { Id: 2, Amount: 1800, Name: null, At: '2026-01-02T00:00:00.000Z' };

/** A world with a wallet of `balance` fen, the donation `older`, and the user known once `$user` is set. */
function getTestEnvironment(balance = 2000, replies: Array<[ApiRoute, Reply]> = []) {
  const { call, calls } = fakeApi([
    [commerceCalls.summary, () => ({ Balance: balance, MembershipUntil: null })],
    [donationCalls.mine, () => [older]],
    ...replies,
  ]);
  return { env: { call, $user: atom<UserInfo | null>(null) }, calls };
}

/** The form as the island shows it: mounted, the balance and donations loaded (or failed). */
async function shown(world = getTestEnvironment()) {
  const store = createDonation(world.env, { locale: 'en' });
  store.$balance.listen(() => {});
  await vi.waitFor(() => expect(store.$busy.get()).toBe(false));
  return store;
}

const donations = (calls: Array<{ route: ApiRoute }>) => calls.filter((made) => made.route === donationCalls.donate);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the donation form', () => {
  it('loads the balance and the donations when first shown, and offers the nickname as the name', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    expect(store.$balance.get()).toBe(2000);
    expect(store.$donations.get()).toEqual([older]);
    expect(store.$preset.get()).toBe(donationRules.amounts[0]);
    expect(store.$name.get()).toBe('');
    world.env.$user.set(user);
    expect(store.$name.get()).toBe(user.NickName.slice(0, donationRules.nameMaxLength));
  });

  it('keeps a name typed before the user was known', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    store.$name.set('Gordon');
    world.env.$user.set(user);
    expect(store.$name.get()).toBe('Gordon');
  });

  it('says why nothing loaded', async () => {
    const world = getTestEnvironment(2000, [
      [
        donationCalls.mine,
        () => {
          throw new ApiFailure('network');
        },
      ],
    ]);
    const store = await shown(world);
    expect(store.$balance.get()).toBeNull();
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });

  it('reads a typed amount in yuan, and refuses one outside the bounds, naming them', async () => {
    const store = await shown();
    store.$preset.set(null);
    store.$custom.set('12.5');
    expect(store.$amount.get()).toBe(1250);
    expect(store.$amountOk.get()).toBe(true);

    for (const typed of ['', 'abc', String(donationRules.maximum / 100 + 1), String((donationRules.minimum - 1) / 100)]) {
      store.$custom.set(typed);
      expect(store.check()).toBe(false);
      expect(store.$notice.get()).toEqual({
        kind: 'error',
        key: 'account.donate.amountHint',
        params: { min: formatPrice(donationRules.minimum, 'en'), max: formatPrice(donationRules.maximum, 'en') },
      });
    }
  });

  it('asks for the name to show when the user wants to be named, and refuses more than the balance', async () => {
    const world = getTestEnvironment();
    const store = await shown(world);
    store.$named.set(true);
    store.$name.set('   ');
    expect(store.check()).toBe(false);
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'account.donate.nameNeeded' });

    store.$name.set('Gordon');
    store.$preset.set(5000);
    expect(store.check()).toBe(false);
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'account.donate.notEnough' });

    // Giving checks the form too: nothing is sent for a refused one.
    await store.give();
    expect(donations(world.calls)).toEqual([]);
    store.$preset.set(1800);
    expect(store.check()).toBe(true);
  });

  it('gives the amount with the trimmed name, thanks, and shows the new balance and the donation first', async () => {
    const world = getTestEnvironment(2000, [[donationCalls.donate, () => ({ Donation: { ...given, Name: 'Gordon' }, Balance: 200 })]]);
    const store = await shown(world);
    store.$preset.set(1800);
    store.$named.set(true);
    store.$name.set(' Gordon ');
    const giving = store.give();
    expect(store.$busy.get()).toBe(true);
    await giving;
    expect(donations(world.calls)).toEqual([{ route: donationCalls.donate, body: { Amount: 1800, Name: 'Gordon' } }]);
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'account.donate.thanks' });
    expect(store.$balance.get()).toBe(200);
    expect(store.$donations.get()).toEqual([{ ...given, Name: 'Gordon' }, older]);
  });

  it('gives without a name unless the user asked to be named', async () => {
    const world = getTestEnvironment(2000, [[donationCalls.donate, () => ({ Donation: given, Balance: 1400 })]]);
    const store = await shown(world);
    store.$name.set('Gordon');
    await store.give();
    expect(donations(world.calls)).toEqual([{ route: donationCalls.donate, body: { Amount: donationRules.amounts[0], Name: null } }]);
  });

  it('shows the server’s words when it refuses, and keeps the balance and the list', async () => {
    const world = getTestEnvironment(2000, [
      [
        donationCalls.donate,
        () => {
          throw new ApiFailure('server', { code: 4000, serverMessage: 'Your balance changed meanwhile.' });
        },
      ],
    ]);
    const store = await shown(world);
    await store.give();
    expect(store.$notice.get()).toEqual({ kind: 'error', text: 'Your balance changed meanwhile.' });
    expect(store.$balance.get()).toBe(2000);
    expect(store.$donations.get()).toEqual([older]);
  });

  it('takes the name off a donation, says so and shows it as the server answered', async () => {
    const world = getTestEnvironment(2000, [[donationCalls.removeName, () => ({ ...older, Name: null })]]);
    const store = await shown(world);
    await store.unname(older.Id);
    expect(world.calls.at(-1)).toEqual({ route: donationCalls.removeName, params: { id: older.Id } });
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'account.donate.nameRemoved' });
    expect(store.$donations.get()).toEqual([{ ...older, Name: null }]);
  });
});
