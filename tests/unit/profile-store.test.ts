/**
 * The edit-profile page (src/features/account/profile-store.ts) in Node: an
 * avatar refused for its type or size before it travels, or uploaded as
 * base64; a nickname edited (its outcome cleared as the user fixes or changes
 * it) and saved.
 */
import { atom } from 'nanostores';
import { describe, expect, it, vi } from 'vitest';
import { accountCalls, avatarRules } from '#contract/account.ts';
import type { ApiRoute } from '#contract/api.ts';
import type { UserInfo } from '#contract/identity.ts';
import { createProfile } from '@/features/account/profile-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { fakeApi, type Reply } from './fake-api.ts';

const user = { Id: 7, NickName: 'Gordon', AvatarUrl: {} } as unknown as UserInfo;

const refusal = (serverMessage: string) => () => {
  throw new ApiFailure('server', { code: 4000, serverMessage });
};

/** A world with `user` logged in, whose files read as base64 "aW1hZ2U=". */
function getTestEnvironment(replies: Array<[ApiRoute, Reply]> = []) {
  const { call, calls } = fakeApi(replies);
  const $user = atom<UserInfo | null>(user);
  const env = {
    call,
    $user,
    updateUser: vi.fn((info: UserInfo) => $user.set(info)),
    readBase64: vi.fn(async () => 'aW1hZ2U='),
  };
  return { env, calls };
}

const image = (type = 'image/png', size = 5) => new File([new Uint8Array(size)], 'me.png', { type });

describe('the avatar', () => {
  it('refuses a file of another type before it travels, and names the file chosen', async () => {
    const world = getTestEnvironment();
    const store = createProfile(world.env);
    await store.upload(image('image/gif'));
    expect(store.$fileName.get()).toBe('me.png');
    expect(store.avatar.$notice.get()).toEqual({ kind: 'error', key: 'account.edit.fileType' });
    expect(world.env.readBase64).not.toHaveBeenCalled();
    expect(world.calls).toEqual([]);
  });

  it('refuses a file that is too large before it travels', async () => {
    const world = getTestEnvironment();
    const store = createProfile(world.env);
    await store.upload(image('image/jpeg', avatarRules.maxBytes + 1));
    expect(store.avatar.$notice.get()).toEqual({ kind: 'error', key: 'account.edit.fileTooLarge' });
    expect(world.calls).toEqual([]);
  });

  it('does nothing when no file was chosen', async () => {
    const world = getTestEnvironment();
    const store = createProfile(world.env);
    await store.upload(undefined);
    expect(store.$fileName.get()).toBeNull();
    expect(store.avatar.$notice.get()).toBeNull();
  });

  it('uploads the image as base64, says so and keeps the user the server answered', async () => {
    const updated = { ...user, AvatarUrl: { large: '/api/avatars/abc-256.webp' } };
    const world = getTestEnvironment([[accountCalls.uploadAvatar, () => updated]]);
    const store = createProfile(world.env);
    const file = image('image/webp');
    const uploading = store.upload(file);
    expect(store.avatar.$busy.get()).toBe(true);
    await uploading;
    expect(world.env.readBase64).toHaveBeenCalledWith(file);
    expect(world.calls).toEqual([{ route: accountCalls.uploadAvatar, body: { Image: 'aW1hZ2U=' } }]);
    expect(store.avatar.$notice.get()).toEqual({ kind: 'ok', key: 'account.edit.avatarSaved' });
    expect(world.env.updateUser).toHaveBeenCalledWith(updated);
    expect(store.avatar.$busy.get()).toBe(false);
  });

  it('shows the server’s words when it refuses the image', async () => {
    const world = getTestEnvironment([[accountCalls.uploadAvatar, refusal('The image is too large.')]]);
    const store = createProfile(world.env);
    await store.upload(image());
    expect(store.avatar.$notice.get()).toEqual({ kind: 'error', text: 'The image is too large.' });
    expect(world.env.updateUser).not.toHaveBeenCalled();
  });

  it('says why when the file could not be read', async () => {
    const world = getTestEnvironment();
    world.env.readBase64.mockRejectedValueOnce(new Error('read failed'));
    const store = createProfile(world.env);
    await store.upload(image());
    expect(store.avatar.$notice.get()).toEqual({ kind: 'error', key: 'messages.unknownError' });
    expect(world.calls).toEqual([]);
  });
});

describe('the nickname', () => {
  it('shows the user’s nickname until it is edited', () => {
    const store = createProfile(getTestEnvironment().env);
    expect(store.$nickname.get()).toBe('Gordon');
    store.editNickname('Freeman');
    expect(store.$nickname.get()).toBe('Freeman');
  });

  it('saves the name shown, says so, keeps the user the server answered and shows their name again', async () => {
    const world = getTestEnvironment([[accountCalls.updateNickname, ({ body }) => ({ ...user, NickName: (body as { NickName: string }).NickName })]]);
    const store = createProfile(world.env);
    store.editNickname('星の旅人');
    await store.saveNickname();
    expect(world.calls).toEqual([{ route: accountCalls.updateNickname, body: { NickName: '星の旅人' } }]);
    expect(store.nickname.$notice.get()).toEqual({ kind: 'ok', key: 'account.edit.nicknameSaved' });
    expect(world.env.updateUser).toHaveBeenCalledWith({ ...user, NickName: '星の旅人' });
    expect(store.$nickname.get()).toBe('星の旅人');

    // Edited again, the name is no longer the one saved.
    store.editNickname('星の旅');
    expect(store.nickname.$notice.get()).toBeNull();
  });

  it('keeps a rule’s refusal while the name still breaks a rule, and drops it once the name keeps them', async () => {
    const world = getTestEnvironment([[accountCalls.updateNickname, refusal('A nickname has 2 to 20 characters.')]]);
    const store = createProfile(world.env);
    store.editNickname('A');
    await store.saveNickname();
    expect(store.nickname.$notice.get()).toEqual({ kind: 'error', text: 'A nickname has 2 to 20 characters.' });
    expect(world.env.updateUser).not.toHaveBeenCalled();
    store.editNickname('');
    expect(store.nickname.$notice.get()).toEqual({ kind: 'error', text: 'A nickname has 2 to 20 characters.' });
    store.editNickname('星の旅人');
    expect(store.nickname.$notice.get()).toBeNull();
    expect(store.$nickname.get()).toBe('星の旅人');
  });

  it('says why when the name could not be saved for want of a network', async () => {
    const world = getTestEnvironment([
      [
        accountCalls.updateNickname,
        () => {
          throw new ApiFailure('network');
        },
      ],
    ]);
    const store = createProfile(world.env);
    await store.saveNickname();
    expect(world.calls).toEqual([{ route: accountCalls.updateNickname, body: { NickName: 'Gordon' } }]);
    expect(store.nickname.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });
});
