/**
 * /bindorder's store (src/features/commerce/bind-order-store.ts) in Node: the
 * signed link read from the address, whom the order would be linked to, and
 * linking it once as the logged-in user.
 */
import { describe, expect, it } from 'vitest';
import { commerceCalls } from '#contract/commerce.ts';
import { createBindOrder } from '@/features/commerce/bind-order-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { getCommerceWorld, order, user } from './commerce-world.ts';

const link = { order: order.Key, expires: '1767225600', sig: 'c2lnbmF0dXJl' };
const search = `?${new URLSearchParams(link)}`;

describe('linking a desktop order to the account', () => {
  it('reads the signed link from the address, and has none when part of it is missing', () => {
    expect(createBindOrder(getCommerceWorld({ search }).env).link).toEqual(link);
    expect(createBindOrder(getCommerceWorld({ search: `?order=${order.Key}&expires=1767225600` }).env).link).toBeNull();
  });

  it('names the account it would go to once someone is logged in', () => {
    const world = getCommerceWorld({ search, loggedIn: false });
    const binding = createBindOrder(world.env);
    binding.$account.listen(() => {});
    expect(binding.$account.get()).toBeNull();
    // The user kept from a login that has expired is nobody to link to.
    world.env.session.$user.set(user);
    expect(binding.$account.get()).toBeNull();
    world.env.session.$isLoggedIn.set(true);
    expect(binding.$account.get()).toBe('Beacon-0000');
  });

  it('links the order as the user and keeps it, to offer paying or viewing it', async () => {
    const world = getCommerceWorld({ search });
    world.replies.set(commerceCalls.bindOrder, () => order);
    const binding = createBindOrder(world.env);
    const linking = binding.bind();
    expect(binding.$busy.get()).toBe(true);
    await linking;
    expect(world.calls).toEqual([{ route: commerceCalls.bindOrder, params: undefined, body: link, auth: true }]);
    expect(binding.$bound.get()).toEqual(order);
  });

  it('shows a refused link in the server’s words and a network failure by our message', async () => {
    const world = getCommerceWorld({ search });
    world.replies.set(commerceCalls.bindOrder, () => Promise.reject(new ApiFailure('server', { code: 400, serverMessage: 'This link has expired' })));
    const binding = createBindOrder(world.env);
    await binding.bind();
    expect(binding.$notice.get()).toEqual({ kind: 'error', text: 'This link has expired' });
    expect(binding.$bound.get()).toBeNull();
    world.replies.set(commerceCalls.bindOrder, () => Promise.reject(new ApiFailure('network')));
    await binding.bind();
    expect(binding.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });

  it('asks nothing without a whole link', async () => {
    const world = getCommerceWorld({ search: '?order=x' });
    await createBindOrder(world.env).bind();
    expect(world.calls).toEqual([]);
  });
});
