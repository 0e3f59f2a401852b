/**
 * The Steam section of the account centre: the linked Steam identity —
 * persona name, SteamID64 and profile — linked through Steam quick login and
 * unlinked here. On the section's home (`overview`) it comes with a summary
 * of cloud idling: its live state and the games on the list. It renders the
 * section's store (steam-store.ts) and the cloud-idling status (cloud-idle.ts).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { LocaleCode } from '@/i18n/locales.ts';
import { formatDateTime } from '@/i18n/dates.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { $cloudIdle, followCloudIdle } from './cloud-idle.ts';
import { steamEnvironment } from './steam-environment.ts';
import { createSteamAccount } from './steam-store.ts';

type Key = KeysUnder<
  | 'account.steam'
  | 'account.bind.unbindConfirm'
  | 'account.bind.linked'
  | 'login.external'
  | 'cloudIdle.state'
  | 'cloudIdle.none'
  | FailureMessageKey
  | 'common.loading'
>;

interface Props {
  strings: Strings<Key>;
  locale: LocaleCode;
  view: 'overview' | 'account';
  /** The cloud-idling page and the game list. */
  cloudIdlePath: string;
  gamePath: string;
}

const profileUrl = (steamId: string) => `https://steamcommunity.com/profiles/${steamId}`;

function CloudIdleSummary({
  store,
  t,
  cloudIdlePath,
  gamePath,
}: {
  store: ReturnType<typeof createSteamAccount>;
  t: (key: Key, params?: Record<string, string | number>) => string;
  cloudIdlePath: string;
  gamePath: string;
}) {
  const status = useStore($cloudIdle);
  const games = useStore(store.$gameCount);
  useEffect(followCloudIdle, []);
  return (
    <section className="card" aria-labelledby="steam-idle-heading" data-cloud-idle-summary>
      <h2 id="steam-idle-heading">{t('account.steam.cloudIdle')}</h2>
      {status === null && <p className="muted">{t('cloudIdle.none')}</p>}
      {status && <p data-idle-state={status.State}>{t(`cloudIdle.state.${status.State}`)}</p>}
      {games !== null && <p className="muted">{t('account.steam.games', { count: games })}</p>}
      <div className="form-actions">
        <a className="button button-small" href={cloudIdlePath}>
          {t('account.steam.openCloudIdle')}
        </a>
        <a className="button button-secondary button-small" href={gamePath}>
          {t('account.steam.editGames')}
        </a>
      </div>
    </section>
  );
}

export default function SteamAccount({ strings, locale, view, cloudIdlePath, gamePath }: Props) {
  const t = translator(strings);
  const [store] = useState(() => createSteamAccount(steamEnvironment, { locale }));
  const steam = useStore(store.$steam);
  const busy = useStore(store.$busy);
  const notice = useStore(store.$notice);
  if (steam === undefined) return <Loading text={t('common.loading')} />;

  const unlink = (id: number) => void store.unlink(id, t('account.bind.unbindConfirm', { provider: 'Steam' }));

  return (
    <div className="account-sections">
      <section className="card" aria-labelledby="steam-heading" data-steam-identity>
        <h2 id="steam-heading">{t('account.steam.linkedTitle')}</h2>
        {steam ? (
          <>
            <dl className="facts">
              <div>
                <dt>{t('account.steam.personaName')}</dt>
                <dd data-persona>{steam.DisplayName}</dd>
              </div>
              {steam.Subject && (
                <div>
                  <dt>{t('account.steam.steamId')}</dt>
                  <dd data-steam-id>{steam.Subject}</dd>
                </div>
              )}
              <div>
                <dt>{t('account.steam.linkedAt')}</dt>
                <dd>{formatDateTime(steam.BoundAt, locale)}</dd>
              </div>
            </dl>
            <div className="form-actions">
              {steam.Subject && (
                <a className="button button-secondary button-small" href={profileUrl(steam.Subject)} rel="noopener noreferrer" target="_blank">
                  {t('account.steam.profile')}
                </a>
              )}
              {view === 'account' && (
                <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => unlink(steam.Id)}>
                  {t('account.steam.unlink')}
                </button>
              )}
            </div>
          </>
        ) : (
          <>
            <p className="muted">{t('account.steam.notLinked')}</p>
            <div className="form-actions">
              <button type="button" className="button" disabled={busy} onClick={() => void store.link()}>
                {t('account.steam.link')}
              </button>
            </div>
          </>
        )}
        <NoticeLine notice={notice} t={t} />
      </section>
      {view === 'overview' && <CloudIdleSummary store={store} t={t} cloudIdlePath={cloudIdlePath} gamePath={gamePath} />}
    </div>
  );
}
