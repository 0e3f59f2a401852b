/**
 * The customer-service button (src/features/support/service-store.ts) in Node:
 * logged in, it goes to the chat's signed address; logged out, it asks for a
 * login first; a refusal shows the server's words.
 */
import { atom, onMount } from 'nanostores';
import { describe, expect, it, vi } from 'vitest';
import { createCustomerService } from '@/features/support/service-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';

const chat = 'https://chat.example/session?ref=signed';

function getWorld(options: { loggedIn?: boolean; link?: () => Promise<string> } = {}) {
  return {
    session: { $isLoggedIn: atom(options.loggedIn ?? true) },
    serviceLink: vi.fn(options.link ?? (async () => chat)),
    location: { assign: vi.fn() },
  };
}

describe('the customer-service button', () => {
  it('goes to the chat’s signed address, busy while it is fetched', async () => {
    const world = getWorld();
    const service = createCustomerService(world);
    const opening = service.open();
    expect(service.$busy.get()).toBe(true);
    await expect(opening).resolves.toBeUndefined();
    expect(world.location.assign).toHaveBeenCalledWith(chat);
    expect(service.$busy.get()).toBe(false);
  });

  it('asks for a login first when nobody is logged in, fetching nothing', async () => {
    const world = getWorld({ loggedIn: false });
    const service = createCustomerService(world);
    await expect(service.open()).resolves.toBe('needsLogin');
    expect(world.serviceLink).not.toHaveBeenCalled();
    expect(world.location.assign).not.toHaveBeenCalled();
  });

  it('stays with the server’s words for a refusal, and our message for a network failure', async () => {
    const refused = getWorld({ link: () => Promise.reject(new ApiFailure('server', { serverMessage: 'The chat is closed tonight' })) });
    const service = createCustomerService(refused);
    await service.open();
    expect(service.$notice.get()).toEqual({ kind: 'error', text: 'The chat is closed tonight' });
    expect(refused.location.assign).not.toHaveBeenCalled();

    const offline = createCustomerService(getWorld({ link: () => Promise.reject(new ApiFailure('network')) }));
    await offline.open();
    expect(offline.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });

  it('follows the session while the button is shown, so the stored login is read', () => {
    const world = getWorld();
    let followed = false;
    onMount(world.session.$isLoggedIn, () => {
      followed = true;
      return () => (followed = false);
    });
    const service = createCustomerService(world);
    const stop = service.$notice.listen(() => {});
    expect(followed).toBe(true);
    stop();
  });
});
