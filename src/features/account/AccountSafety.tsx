/**
 * The security island: the password (set, or changed with the current one,
 * which signs out every other device), the signed-in devices with sign-out per
 * device and for all others, the login history, and account deletion after a
 * code or the password.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type SubmitEvent } from 'react';
import { accountCalls, type DeletionLosses, type LoginEvent } from '#contract/account.ts';
import { formatPrice } from '#contract/facts.ts';
import { identity, type Session } from '#contract/identity.ts';
import { formatDateTime, formatDay } from '@/i18n/dates.ts';
import { placeName } from '@/i18n/places.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings, type Translate } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { $user, leaveNotice, signOutHere, updateUser } from '@/stores/session.ts';
import { Loading, NoticeLine, useAction } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';
import { CodeField, useFields } from './island.tsx';
import './AccountSafety.css';

type Key = KeysUnder<'account.safe' | 'login.code' | 'login.codePlaceholder' | 'login.resendIn' | 'api' | 'common.loading'>;

interface Props {
  strings: Strings<Key>;
  locale: LocaleCode;
  /** Where a deleted account's visitor goes: the login page, which says the account is gone. */
  loginPath: string;
}

export default function AccountSafety({ strings, locale, loginPath }: Props) {
  const t = translator(strings);
  const user = useStore($user);
  const password = useAction(t);
  const devices = useAction(t);
  const removal = useAction(t);
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [history, setHistory] = useState<LoginEvent[] | null>(null);
  const [losses, setLosses] = useState<DeletionLosses | null>(null);
  const { form, setForm, field } = useFields({ current: '', next: '', repeat: '', code: '', proofPassword: '' });
  const [understood, setUnderstood] = useState(false);

  const loadSessions = () => devices.run(async () => setSessions(await authCall(identity.sessions)));
  useEffect(() => {
    void loadSessions();
    void authCall(accountCalls.loginHistory).then(setHistory, () => setHistory([]));
    // What deletion would lose is stated when it is known; the form works without it.
    void authCall(accountCalls.deletionLosses).then(setLosses, () => setLosses(null));
  }, []);

  if (!user) return <Loading text={t('common.loading')} />;

  async function savePassword(event: SubmitEvent) {
    event.preventDefault();
    if (form.next !== form.repeat) {
      password.setNotice({ kind: 'error', text: t('account.safe.passwordsDiffer') });
      return;
    }
    const body = { Password: form.next, ...(user!.HasPassword ? { Current: form.current } : {}) };
    const done = await password.run(() => authCall(accountCalls.setPassword, { body }), t('account.safe.passwordSaved'));
    if (done) {
      updateUser({ ...user!, HasPassword: true });
      setForm({ ...form, current: '', next: '', repeat: '' });
      void loadSessions();
    }
  }

  const signOut = (id: string) =>
    devices.run(async () => {
      await authCall(accountCalls.revokeSession, { params: { id } });
      setSessions(await authCall(identity.sessions));
    }, t('account.safe.signedOut'));

  const signOutOthers = () =>
    devices.run(async () => {
      await authCall(identity.signOutOtherSessions);
      setSessions(await authCall(identity.sessions));
    }, t('account.safe.signedOut'));

  const contact = user.Phone ?? user.Email;
  const sendCode = () =>
    removal.run(
      () => authCall(accountCalls.sendOwnCode, { body: { Channel: user.Phone ? 'sms' : 'email' } }),
      t('account.safe.codeSent', { contact: contact ?? '' }),
    );

  async function deleteAccount(event: SubmitEvent) {
    event.preventDefault();
    const body = form.proofPassword ? { Password: form.proofPassword } : { Code: form.code };
    const deleted = await removal.run(async () => {
      await authCall(accountCalls.deleteAccount, { body });
      return true;
    });
    if (deleted) {
      leaveNotice('session.accountDeleted');
      signOutHere();
      location.assign(loginPath);
    }
  }

  const others = sessions?.filter((session) => !session.Current) ?? [];
  return (
    <div className="account-sections">
      <section className="card" aria-labelledby="password-heading">
        <h2 id="password-heading">{t('account.safe.password')}</h2>
        <p className="muted">{user.HasPassword ? t('account.safe.passwordNote') : t('account.safe.passwordNone')}</p>
        <form className="form" onSubmit={(event) => void savePassword(event)} noValidate>
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
                  <button type="button" className="button button-secondary button-small" disabled={devices.busy} onClick={() => void signOut(session.Id)}>
                    {t('account.safe.signOut')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="form-actions">
          {others.length > 0 ? (
            <button type="button" className="button button-secondary" disabled={devices.busy} onClick={() => void signOutOthers()}>
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
        <form className="form" onSubmit={(event) => void deleteAccount(event)} noValidate>
          {contact && (
            <CodeField label={t('login.code')} sendLabel={t('account.safe.sendCode')} send={sendCode} busy={removal.busy} input={field('code')} t={t} />
          )}
          {user.HasPassword && (
            <label>
              {t('account.safe.orPassword')}
              <input {...field('proofPassword')} type="password" autoComplete="current-password" />
            </label>
          )}
          <label className="agree">
            <input type="checkbox" name="understood" checked={understood} onChange={(event) => setUnderstood(event.currentTarget.checked)} />
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
