/**
 * The edit-profile island: the avatar (uploaded as it is; the server checks and
 * re-encodes it), the nickname (the server names the rule a name breaks) and
 * whether raffle wins are told by SMS or e-mail (saved as the box is ticked).
 * A file of the wrong type or size is refused here first, before it travels;
 * a nickname refused for a rule loses that message once it keeps the rules.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { avatarRules, nicknameRules } from '#contract/account.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { h5AvatarUrl } from '@/lib/avatar.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { profileEnvironment } from './profile-environment.ts';
import { createProfile } from './profile-store.ts';
import './ProfileEdit.css';

interface Props {
  strings: Strings<KeysUnder<'account.edit' | FailureMessageKey | 'common.loading'>>;
  /** The choose-an-image button's icon (an SVG string the page renders from the icon set). */
  uploadIcon: string;
}

export default function ProfileEdit({ strings, uploadIcon }: Props) {
  const t = translator(strings);
  const [store] = useState(() => createProfile(profileEnvironment));
  const user = useStore(store.$user);
  const fileName = useStore(store.$fileName);
  const name = useStore(store.$nickname);
  const avatar = { busy: useStore(store.avatar.$busy), notice: useStore(store.avatar.$notice) };
  const nickname = { busy: useStore(store.nickname.$busy), notice: useStore(store.nickname.$notice) };
  const raffleMessages = useStore(store.$raffleMessages);
  const messages = { busy: useStore(store.messages.$busy), notice: useStore(store.messages.$notice) };
  const fileInput = useRef<HTMLInputElement>(null);
  const avatarHint = useId();
  const messagesHint = useId();
  const signedIn = user !== null;

  useEffect(() => {
    if (signedIn) void store.loadMessages();
  }, [store, signedIn]);

  if (!user) return <Loading text={t('common.loading')} />;

  function saveNickname(event: SubmitEvent) {
    event.preventDefault();
    void store.saveNickname();
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
                void store.upload(event.currentTarget.files?.[0]);
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
        <form className="form" onSubmit={saveNickname} noValidate>
          <label>
            {t('account.edit.nickname')}
            <input
              name="nickname"
              value={name}
              maxLength={nicknameRules.max * 2}
              autoComplete="nickname"
              aria-invalid={nickname.notice?.kind === 'error' || undefined}
              onChange={(event) => store.editNickname(event.currentTarget.value)}
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

      <section className="card" aria-labelledby="messages-heading">
        <h2 id="messages-heading">{t('account.edit.messages')}</h2>
        <div className="form">
          <label className="agree">
            <input
              type="checkbox"
              name="raffleMessages"
              checked={raffleMessages ?? false}
              disabled={raffleMessages === null || messages.busy}
              aria-describedby={messagesHint}
              onChange={(event) => void store.setRaffleMessages(event.currentTarget.checked)}
            />
            <span>{t('account.edit.raffleMessages')}</span>
          </label>
          <span className="hint" id={messagesHint}>
            {t('account.edit.raffleMessagesHint')}
          </span>
        </div>
        <NoticeLine notice={messages.notice} t={t} />
      </section>
    </div>
  );
}
