/**
 * The cloud-idling page's island: the live connection state with the error
 * messages, and the status the server pushes — no reload needed. It renders
 * only in the browser (`client:only`): the built page knows nobody's login, so
 * it shows a loading placeholder instead of controls that would do nothing yet.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { HubProblem } from '@/lib/realtime/hub-client.ts';
import { loginUrl } from '@/stores/session.ts';
import { cloudIdleEnvironment } from './cloud-idle.ts';
import { createCloudIdle } from './cloud-idle-store.ts';
import { Loading } from '@/components/island.tsx';
import './CloudIdle.css';

interface Props {
  /** This page's translations: the hub's state and problems, cloud idling's, and the way in for a visitor who is not logged in. */
  strings: Strings<KeysUnder<'realtime' | HubProblem['key'] | 'cloudIdle' | 'account.signInToSee' | 'nav.login'>>;
  locale: LocaleCode;
  loginPath: string;
  /** The game list page, where the games to idle are chosen. */
  gamePath: string;
}

export default function CloudIdle({ strings, locale, loginPath, gamePath }: Props) {
  const t = translator(strings);
  const [store] = useState(() => createCloudIdle(cloudIdleEnvironment));
  const state = useStore(store.$state);
  const problem = useStore(store.$problem);
  const status = useStore(store.$status);
  const loggedIn = useStore(store.$isLoggedIn);
  // The games chosen for idling; a failure leaves the section out.
  const list = useStore(store.$games);

  const problemText = (p: HubProblem) => p.serverMessage ?? t(p.key, { error: p.error ?? '' });
  const problemNotice = problem && (
    <p className="notice notice-error" role="alert" data-code={problem.code}>
      {problemText(problem)}
    </p>
  );

  // Signed out, here or elsewhere: say why the live updates ended, if they did, and offer to log in.
  if (!loggedIn) {
    return (
      <div className="card sign-in-prompt">
        {problemNotice}
        <p>{t('account.signInToSee')}</p>
        <a className="button" href={loginUrl(loginPath)}>
          {t('nav.login')}
        </a>
      </div>
    );
  }

  return (
    <div className="cloud-idle account-sections">
      <div className="hub-state" data-state={state}>
        <span className="hub-dot" aria-hidden="true" />
        <span>
          {t('realtime.label')} <strong role="status">{t(`realtime.state.${state}`)}</strong>
        </span>
        {state === 'Disconnected' && (
          <button type="button" className="button button-secondary button-small" onClick={store.reconnect}>
            {t('realtime.reconnect')}
          </button>
        )}
      </div>
      {problemNotice}

      <section className="card cloud-idle-status" aria-live="polite">
        {/* Not a status of its own: the section speaks for itself (aria-live), and the connection state is the page's status. */}
        {status === undefined && <Loading text={t('cloudIdle.loading')} announce={false} />}
        {status === null && <p>{t('cloudIdle.none')}</p>}
        {status && (
          <>
            <dl className="facts">
              <div>
                <dt>{t('cloudIdle.status')}</dt>
                <dd data-idle-state={status.State}>{t(`cloudIdle.state.${status.State}`)}</dd>
              </div>
              <div>
                <dt>{t('cloudIdle.cardsRemaining')}</dt>
                <dd data-cards-remaining>{status.CardsRemaining}</dd>
              </div>
            </dl>
            <p className="muted">{t('cloudIdle.updatedAt', { time: formatDateTime(status.UpdatedAt, locale) })}</p>
            <h2>{t('cloudIdle.games')}</h2>
            {status.Games.length === 0 ? (
              <p className="muted">{t('cloudIdle.noGames')}</p>
            ) : (
              <ul className="idled-games">
                {status.Games.map((game) => (
                  <li key={game.AppId}>
                    <span>{game.Name}</span>
                    <span className="badge">{t('cloudIdle.gameCards', { count: game.CardsRemaining })}</span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </section>

      {list && (
        <section className="card" aria-labelledby="game-list-heading" data-game-list>
          <h2 id="game-list-heading">{t('cloudIdle.list.title')}</h2>
          {list.length === 0 ? (
            <p className="muted">{t('cloudIdle.list.empty')}</p>
          ) : (
            <ul className="idled-games">
              {list.map((game) => (
                <li key={game.AppId}>{game.Name ?? t('cloudIdle.list.unlisted', { id: game.AppId })}</li>
              ))}
            </ul>
          )}
          <a className="button button-secondary button-small" href={gamePath}>
            {t('cloudIdle.list.edit')}
          </a>
        </section>
      )}
    </div>
  );
}
