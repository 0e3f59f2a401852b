/**
 * The edit-profile island: the avatar (uploaded as it is; the server checks and
 * re-encodes it) and the nickname (the server names the rule a name breaks).
 * A file of the wrong type or size is refused here first, before it travels;
 * a nickname refused for a rule loses that message once it keeps the rules.
 */
import { useStore } from '@nanostores/react';
import { useId, useRef, useState, type SubmitEvent } from 'react';
import { accountCalls, avatarRules, nicknameProblem, nicknameRules } from '#contract/account.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { h5AvatarUrl } from '@/lib/avatar.ts';
import { $user, updateUser } from '@/stores/session.ts';
import { Loading, NoticeLine, useAction } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';
import './ProfileEdit.css';

interface Props {
  strings: Strings<KeysUnder<'account.edit' | 'api' | 'common.loading'>>;
  /** The choose-an-image button's icon (an SVG string the page renders from the icon set). */
  uploadIcon: string;
}

/** The file's bytes as base64, without the data-URL prefix. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

export default function ProfileEdit({ strings, uploadIcon }: Props) {
  const t = translator(strings);
  const user = useStore($user);
  const avatar = useAction(t);
  const nickname = useAction(t);
  const [name, setName] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const avatarHint = useId();

  if (!user) return <Loading text={t('common.loading')} />;

  async function upload(file: File | undefined) {
    if (!file) return;
    setFileName(file.name);
    if (!(avatarRules.types as readonly string[]).includes(file.type)) {
      avatar.setNotice({ kind: 'error', text: t('account.edit.fileType') });
      return;
    }
    if (file.size > avatarRules.maxBytes) {
      avatar.setNotice({ kind: 'error', text: t('account.edit.fileTooLarge') });
      return;
    }
    const updated = await avatar.run(async () => authCall(accountCalls.uploadAvatar, { body: { Image: await base64Of(file) } }), t('account.edit.avatarSaved'));
    if (updated) updateUser(updated);
  }

  /** A saved name that is edited again is no longer saved; a refused one that now keeps the rules is no longer wrong. */
  function editNickname(value: string) {
    setName(value);
    if (nickname.notice?.kind === 'ok' || (nickname.notice?.kind === 'error' && nicknameProblem(value) === null)) nickname.setNotice(null);
  }

  async function saveNickname(event: SubmitEvent) {
    event.preventDefault();
    const updated = await nickname.run(
      () => authCall(accountCalls.updateNickname, { body: { NickName: name ?? user!.NickName } }),
      t('account.edit.nicknameSaved'),
    );
    if (updated) {
      updateUser(updated);
      setName(null);
    }
  }

  return (
    <div className="account-sections">
      <section className="card" aria-labelledby="avatar-heading">
        <h2 id="avatar-heading">{t('account.edit.avatar')}</h2>
        <div className="avatar-edit">
          <img src={h5AvatarUrl(user)} alt="" width={96} height={96} data-avatar />
          <div className="form">
            {/* The browser's own file input cannot be styled: a button of the design system opens it. */}
            <input
              ref={fileInput}
              type="file"
              accept={avatarRules.types.join(',')}
              hidden
              onChange={(event) => {
                void upload(event.currentTarget.files?.[0]);
                // The same file can be chosen again (after a refusal, say) and still be uploaded.
                event.currentTarget.value = '';
              }}
            />
            <div className="file-choice">
              <button
                type="button"
                className="button button-secondary"
                disabled={avatar.busy}
                aria-describedby={avatarHint}
                onClick={() => fileInput.current?.click()}
              >
                <span dangerouslySetInnerHTML={{ __html: uploadIcon }} />
                {t('account.edit.chooseImage')}
              </button>
              {fileName && (
                <span className="file-name" data-file-name>
                  {fileName}
                </span>
              )}
            </div>
            <span className="hint" id={avatarHint}>
              {t('account.edit.avatarHint')}
            </span>
            {avatar.busy && <p role="status">{t('account.edit.uploading')}</p>}
          </div>
        </div>
        <NoticeLine notice={avatar.notice} t={t} />
      </section>

      <section className="card" aria-labelledby="nickname-heading">
        <h2 id="nickname-heading">{t('account.edit.nickname')}</h2>
        <form className="form" onSubmit={(event) => void saveNickname(event)} noValidate>
          <label>
            {t('account.edit.nickname')}
            <input
              name="nickname"
              value={name ?? user.NickName}
              maxLength={nicknameRules.max * 2}
              autoComplete="nickname"
              aria-invalid={nickname.notice?.kind === 'error' || undefined}
              onChange={(event) => editNickname(event.currentTarget.value)}
            />
            <span className="hint">{t('account.edit.nicknameHint')}</span>
          </label>
          <div className="form-actions">
            <button type="submit" className="button" disabled={nickname.busy}>
              {nickname.busy ? t('account.edit.saving') : t('account.edit.save')}
            </button>
          </div>
        </form>
        <NoticeLine notice={nickname.notice} t={t} />
      </section>
    </div>
  );
}
