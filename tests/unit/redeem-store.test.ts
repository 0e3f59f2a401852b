/**
 * Redeeming a cdkey (src/features/activation/redeem-store.ts) in Node: the key
 * grouped as typed, its shape checked before the server is asked, and what
 * the server granted.
 */
import { describe, expect, it } from 'vitest';
import { activationCalls } from '#contract/activation.ts';
import { checkCharacter, formatCdkey, maskCdkey } from '#contract/cdkey-format.ts';
import { createRedeemCdkey, type Redeemed } from '@/features/activation/redeem-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { getCommerceWorld } from './commerce-world.ts';

const body = 'ABCDEFGHJKLMNPQRSTU';
const key = body + checkCharacter(body);
/** The key as the field shows it. */
const grouped = formatCdkey(key);
/** The same key with one character mistyped: the check character catches it. */
const typo = `B${key.slice(1)}`;
const redeemed: Redeemed = {
  Redemption: { Key: maskCdkey(key), Batch: 'launch', Grant: { Kind: 'wallet', Amount: 1000 }, At: '2026-01-01T00:00:00.000Z', Order: null },
  Balance: 2500,
  MembershipUntil: null,
};

function getForm() {
  const world = getCommerceWorld();
  return { world, form: createRedeemCdkey(world.env) };
}

describe('typing a cdkey', () => {
  it('groups it in capitals as it is typed, no longer than a key', () => {
    const { form } = getForm();
    form.type('abcde fghj');
    expect(form.$typed.get()).toBe('ABCDE-FGHJ');
    form.type(`${key}XYZ`);
    expect(form.$typed.get()).toBe(grouped);
  });
});

describe('redeeming', () => {
  it('refuses a key too short, or with a character that cannot be in one, before asking the server', async () => {
    const { world, form } = getForm();
    form.type('ABCDE-FGHJK');
    await form.submit();
    expect(form.$notice.get()).toEqual({ kind: 'error', key: 'activate.cdkey.incomplete' });
    form.type(`${body}0`);
    await form.submit();
    expect(form.$notice.get()).toEqual({ kind: 'error', key: 'activate.cdkey.incomplete' });
    expect(world.calls).toEqual([]);
  });

  it('catches a typo by the check character, before asking the server', async () => {
    const { world, form } = getForm();
    form.type(typo);
    await form.submit();
    expect(form.$notice.get()).toEqual({ kind: 'error', key: 'activate.cdkey.typo' });
    expect(world.calls).toEqual([]);
  });

  it('redeems the key as the user, shows what it granted and empties the field', async () => {
    const { world, form } = getForm();
    world.replies.set(activationCalls.redeem, () => redeemed);
    form.type(key);
    const redeeming = form.submit();
    expect(form.$busy.get()).toBe(true);
    await redeeming;
    expect(world.calls).toEqual([{ route: activationCalls.redeem, params: undefined, body: { Key: grouped }, auth: true }]);
    expect(form.$redeemed.get()).toEqual(redeemed);
    expect(form.$typed.get()).toBe('');
    expect(form.$notice.get()).toBeNull();
  });

  it('keeps the key and shows the server’s refusal, or our message for a network failure; a new try forgets the last grant', async () => {
    const { world, form } = getForm();
    world.replies.set(activationCalls.redeem, () => redeemed);
    form.type(key);
    await form.submit();
    world.replies.set(activationCalls.redeem, () => Promise.reject(new ApiFailure('server', { code: 4030, serverMessage: 'This key was already used' })));
    form.type(key);
    await form.submit();
    expect(form.$notice.get()).toEqual({ kind: 'error', text: 'This key was already used' });
    expect(form.$redeemed.get()).toBeNull();
    expect(form.$typed.get()).toBe(grouped);
    world.replies.set(activationCalls.redeem, () => Promise.reject(new ApiFailure('network')));
    await form.submit();
    expect(form.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });
});
