/**
 * The security island: the password (set with the account's code, or changed
 * with the current one, which signs out every other device), the signed-in
 * devices with sign-out per device and for all others, the login history, and
 * account deletion after a code or the password.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type SubmitEvent } from 'react';
import type { DeletionLosses } from '#contract/account.ts';
import { formatPrice } from '#contract/facts.ts';
import { formatDateTime, formatDay } from '@/i18n/dates.ts';
import { placeName } from '@/i18n/places.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings, type Translate } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { CodeField, useFields } from './island.tsx';
import { contactOn, ownChannel } from './own-code.ts';
import { safetyEnvironment } from './safety-environment.ts';
import { createSafety } from './safety-store.ts';
import './AccountSafety.css';

type Key = KeysUnder<'account.safe' | 'account.code' | 'login.code' | 'login.codePlaceholder' | 'login.resendIn' | FailureMessageKey | 'common.loading'>;

interface Props {
  strings: Strings<Key>;
  locale: LocaleCode;
  /** Where a deleted account's visitor goes: the login page, which says the account is gone. */
  loginPath: string;
}

export default function AccountSafety({ strings, locale, loginPath }: Props) {
  const t = translator(strings);
  const [store] = useState(() => createSafety(safetyEnvironment, { loginPath }));
  const user = useStore(store.$user);
  const sessions = useStore(store.$sessions);
  const history = useStore(store.$history);
  const losses = useStore(store.$losses);
  const understood = useStore(store.$understood);
  const password = { busy: useStore(store.password.$busy), notice: useStore(store.password.$notice) };
  const devices = { busy: useStore(store.devices.$busy), notice: useStore(store.devices.$notice) };
  const removal = { busy: useStore(store.removal.$busy), notice: useStore(store.removal.$notice) };
  const { field } = useFields(store.$form);
  useEffect(() => store.load(), []);

  if (!user) return <Loading text={t('common.loading')} />;

  function savePassword(event: SubmitEvent) {
    event.preventDefault();
    void store.savePassword();
  }

  function deleteAccount(event: SubmitEvent) {
    event.preventDefault();
    void store.deleteAccount();
  }

  const contact = user.Phone ?? user.Email;
  /** Where the account's code goes, and the button that sends it there ("Send code to 138****0000"). */
  const channel = ownChannel(user);
  const sendLabel = channel && t('account.code.sendTo', { contact: contactOn(user, channel) });
  const others = sessions?.filter((session) => !session.Current) ?? [];
  return (
    <div className="account-sections">
      <section className="card" aria-labelledby="password-heading">
        <h2 id="password-heading">{t('account.safe.password')}</h2>
        <p className="muted">{user.HasPassword ? t('account.safe.passwordNote') : t('account.safe.passwordNone')}</p>
        <form className="form" onSubmit={savePassword} noValidate>
          {/* Tells password managers whose password this is. */}
          <input type="text" name="username" autoComplete="username" value={contact ?? ''} hidden readOnly />
          {user.HasPassword && (
            <label>
              {t('account.safe.currentPassword')}
              <input {...field('current')} type="password" autoComplete="current-password" />
            </label>
          )}
          <label>
            {t('account.safe.newPassword')}
            <input {...field('next')} type="password" autoComplete="new-password" />
            <span className="hint">{t('account.safe.passwordRule')}</span>
          </label>
          <label>
            {t('account.safe.repeatPassword')}
            <input {...field('repeat')} type="password" autoComplete="new-password" />
          </label>
          {!user.HasPassword && sendLabel && (
            <CodeField label={t('login.code')} sendLabel={sendLabel} send={store.sendPasswordCode} busy={password.busy} input={field('passwordCode')} t={t} />
          )}
          <div className="form-actions">
            <button type="submit" className="button" disabled={password.busy}>
              {user.HasPassword ? t('account.safe.changePassword') : t('account.safe.setPassword')}
            </button>
          </div>
        </form>
        <NoticeLine notice={password.notice} t={t} />
      </section>

      <section className="card" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">{t('account.safe.sessions')}</h2>
        {sessions === null ? (
          <Loading text={t('common.loading')} announce={false} />
        ) : (
          <ul className="item-list" data-sessions>
            {sessions.map((session) => (
              <li key={session.Id} data-session={session.Current ? 'current' : 'other'}>
                <span className="item-main">
                  <strong>{session.Device}</strong>
                  <span className="muted">
                    {placeName(session.Place, locale, t)} · {t('account.safe.lastSeen', { time: formatDateTime(session.LastSeenAt, locale) })}
                  </span>
                </span>
                {session.Current ? (
                  <span className="badge badge-green">{t('account.safe.thisDevice')}</span>
                ) : (
                  <button type="button" className="button button-secondary button-small" disabled={devices.busy} onClick={() => void store.signOut(session.Id)}>
                    {t('account.safe.signOut')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="form-actions">
          {others.length > 0 ? (
            <button type="button" className="button button-secondary" disabled={devices.busy} onClick={() => void store.signOutOthers()}>
              {t('account.safe.signOutOthers')}
            </button>
          ) : (
            sessions && <p className="muted">{t('account.safe.noOtherSessions')}</p>
          )}
        </div>
        <NoticeLine notice={devices.notice} t={t} />
      </section>

      <section className="card" aria-labelledby="history-heading">
        <h2 id="history-heading">{t('account.safe.history')}</h2>
        <p className="muted">{t('account.safe.historyIntro')}</p>
        {history === null ? (
          <Loading text={t('common.loading')} announce={false} />
        ) : (
          <ul className="item-list" data-history>
            {history.map((event, index) => (
              <li key={index} data-success={String(event.Success)}>
                <span className="item-main">
                  <strong>
                    {t(`account.safe.method.${event.Method}`)} · {event.Success ? t('account.safe.succeeded') : t('account.safe.failed')}
                  </strong>
                  <span className="muted">
                    <time dateTime={event.At}>{formatDateTime(event.At, locale)}</time> · {event.Address} · {placeName(event.Place, locale, t)} · {event.Device}
                  </span>
                </span>
                {!event.Success && <span className="badge badge-red">{t('account.safe.failed')}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card danger-zone" aria-labelledby="delete-heading">
        <h2 id="delete-heading">{t('account.safe.delete')}</h2>
        <p>{t('account.safe.deleteIntro')}</p>
        {losses && <LossList losses={losses} locale={locale} t={t} />}
        <p>{t('account.safe.deleteOrdersKept')}</p>
        <form className="form" onSubmit={deleteAccount} noValidate>
          {sendLabel && <CodeField label={t('login.code')} sendLabel={sendLabel} send={store.sendCode} busy={removal.busy} input={field('code')} t={t} />}
          {user.HasPassword && (
            <label>
              {t('account.safe.orPassword')}
              <input {...field('proofPassword')} type="password" autoComplete="current-password" />
            </label>
          )}
          <label className="agree">
            <input type="checkbox" name="understood" checked={understood} onChange={(event) => store.$understood.set(event.currentTarget.checked)} />
            <span>{t('account.safe.deleteUnderstood')}</span>
          </label>
          <div className="form-actions">
            <button type="submit" className="button button-danger" disabled={removal.busy || !understood}>
              {t('account.safe.deleteButton')}
            </button>
          </div>
        </form>
        <NoticeLine notice={removal.notice} t={t} />
      </section>
    </div>
  );
}

/** What deleting the account would lose, with the figures; nothing when it would lose none of these. */
function LossList({ losses, locale, t }: { losses: DeletionLosses; locale: LocaleCode; t: Translate<Key> }) {
  const items = [
    losses.Wallet > 0 && t('account.safe.lossWallet', { amount: formatPrice(losses.Wallet, locale) }),
    losses.PlanUntil && t('account.safe.lossPlan', { date: formatDay(losses.PlanUntil, locale) }),
    losses.Agreements > 0 && t('account.safe.lossAgreements', { count: losses.Agreements }),
    losses.UnclaimedPrizes > 0 && t('account.safe.lossPrizes', { count: losses.UnclaimedPrizes }),
  ].filter((item) => typeof item === 'string');
  if (items.length === 0) return null;
  return (
    <div className="deletion-losses" data-deletion-losses>
      <p>{t('account.safe.deleteLoses')}</p>
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}
