/**
 * The edit-profile page (account centre `edit`): the avatar, uploaded as it
 * is (the server checks and re-encodes it), and the nickname (the server names
 * the rule a name breaks). A file of the wrong type or size is refused here
 * first, before it travels; a nickname refused for a rule loses that message
 * once it keeps the rules, and a saved one loses its "saved" once edited again.
 */
import { atom, computed } from 'nanostores';
import { accountCalls, avatarRules, nicknameProblem } from '#contract/account.ts';
import { createAction, outcomeOf } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';

export type ProfileKey = 'account.edit.fileType' | 'account.edit.fileTooLarge' | 'account.edit.avatarSaved' | 'account.edit.nicknameSaved';

export interface ProfileEnvironment extends Pick<CenterEnvironment, 'call' | '$user' | 'updateUser'> {
  /** The file's bytes as base64, without a data-URL prefix. */
  readBase64(file: File): Promise<string>;
}

export function createProfile(env: ProfileEnvironment) {
  const avatar = createAction<ProfileKey>();
  const nickname = createAction<ProfileKey>();
  /** The name of the image last chosen; null before one is. */
  const $fileName = atom<string | null>(null);
  /** The nickname as edited; null while it is the user's own. */
  const $edited = atom<string | null>(null);
  /** The nickname the input shows: as edited, or the user's. */
  const $nickname = computed([$edited, env.$user], (edited, user) => edited ?? user?.NickName ?? '');

  /** Uploads the image chosen, unless its type or size is refused first. */
  async function upload(file: File | undefined): Promise<void> {
    if (!file) return;
    $fileName.set(file.name);
    if (!(avatarRules.types as readonly string[]).includes(file.type)) avatar.refuse('account.edit.fileType');
    else if (file.size > avatarRules.maxBytes) avatar.refuse('account.edit.fileTooLarge');
    else {
      const updated = await avatar.run(
        async () => env.call(accountCalls.uploadAvatar, { body: { Image: await env.readBase64(file) } }),
        'account.edit.avatarSaved',
      );
      if (updated) env.updateUser(updated);
    }
  }

  /** A saved name that is edited again is no longer saved; a refused one that now keeps the rules is no longer wrong. */
  function editNickname(value: string): void {
    $edited.set(value);
    const notice = nickname.$notice.get();
    if (notice?.kind === 'ok' || (notice?.kind === 'error' && nicknameProblem(value) === null)) nickname.clear();
  }

  /** Saves the nickname shown; the server says which rule a name breaks. */
  async function saveNickname(): Promise<void> {
    const updated = await nickname.run(() => env.call(accountCalls.updateNickname, { body: { NickName: $nickname.get() } }), 'account.edit.nicknameSaved');
    if (!updated) return;
    env.updateUser(updated);
    $edited.set(null);
  }

  return {
    $user: env.$user,
    $fileName,
    $nickname,
    avatar: outcomeOf(avatar),
    nickname: outcomeOf(nickname),
    upload,
    editNickname,
    saveNickname,
  };
}
