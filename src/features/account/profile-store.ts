/**
 * The edit-profile page (account centre `edit`): the avatar, uploaded as it
 * is (the server checks and re-encodes it), and the nickname (the server names
 * the rule a name breaks). A file of the wrong type or size is refused here
 * first, before it travels; a nickname refused for a rule loses that message
 * once it keeps the rules, and a saved one loses its "saved" once edited again. And the messages the account
 * gets besides those it asks for: a raffle win and its reminder, on unless turned off.
 */
import { atom, computed } from 'nanostores';
import { accountCalls, avatarRules, nicknameProblem } from '#contract/account.ts';
import { createAction, outcomeOf } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';

export type ProfileKey =
  'account.edit.fileType' | 'account.edit.fileTooLarge' | 'account.edit.avatarSaved' | 'account.edit.nicknameSaved' | 'account.edit.messagesSaved';

export interface ProfileEnvironment extends Pick<CenterEnvironment, 'call' | '$user' | 'updateUser'> {
  /** The file's bytes as base64, without a data-URL prefix. */
  readBase64(file: File): Promise<string>;
}

export function createProfile(env: ProfileEnvironment) {
  const avatar = createAction<ProfileKey>();
  const nickname = createAction<ProfileKey>();
  const messages = createAction<ProfileKey>();
  /** Whether raffle wins are told by SMS or e-mail; null until read. */
  const $raffleMessages = atom<boolean | null>(null);
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

  /** Reads the account's message choices. */
  async function loadMessages(): Promise<void> {
    const choices = await messages.run(() => env.call(accountCalls.messageChoices));
    if (choices) $raffleMessages.set(choices.RaffleMessages);
  }

  /** Turns raffle messages on or off; the box shows what the server kept. */
  async function setRaffleMessages(on: boolean): Promise<void> {
    $raffleMessages.set(on);
    const choices = await messages.run(() => env.call(accountCalls.setMessageChoices, { body: { RaffleMessages: on } }), 'account.edit.messagesSaved');
    $raffleMessages.set(choices ? choices.RaffleMessages : !on);
  }

  return {
    $user: env.$user,
    $raffleMessages,
    $fileName,
    $nickname,
    avatar: outcomeOf(avatar),
    nickname: outcomeOf(nickname),
    messages: outcomeOf(messages),
    loadMessages,
    setRaffleMessages,
    upload,
    editNickname,
    saveNickname,
  };
}
