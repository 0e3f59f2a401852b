/**
 * The game list island (account centre `game`): the Steam games the user
 * wants idled in the cloud. A game is added by picking its name from the
 * bundled list's suggestions or by typing its app id, and removed by its
 * button. It renders the list's store (games-store.ts).
 */
import { useStore } from '@nanostores/react';
import { useState, type SubmitEvent } from 'react';
import { maxIdleGames, type IdleGame } from '#contract/idle-games.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import type { NoticeParams } from '@/stores/action.ts';
import { centerEnvironment } from './center-environment.ts';
import { createGames, suggestions } from './games-store.ts';

type Key = KeysUnder<'account.game' | FailureMessageKey | 'common.loading'>;

interface Props {
  strings: Strings<Key>;
}

export default function AccountGames({ strings }: Props) {
  const t = translator(strings);
  const [store] = useState(() => createGames(centerEnvironment));
  const games = useStore(store.$games);
  const typed = useStore(store.$typed);
  const busy = useStore(store.$busy);
  const notice = useStore(store.$notice);
  const unlisted = (id: string | number) => t('account.game.unlisted', { id });
  const nameOf = (game: IdleGame) => game.Name ?? unlisted(game.AppId);
  // A notice names a game without a name of its own by its app id (games-store.ts `gameParams`).
  const noticeText = (key: Key, params?: NoticeParams) =>
    t(key, params && !('name' in params) && 'id' in params ? { ...params, name: unlisted(params.id) } : params);
  if (!games) return notice ? <NoticeLine notice={notice} t={noticeText} /> : <Loading text={t('common.loading')} />;

  function add(event: SubmitEvent) {
    event.preventDefault();
    void store.add();
  }

  return (
    <div className="account-sections">
      <section className="card" aria-labelledby="games-heading">
        <h2 id="games-heading">{t('account.game.listTitle')}</h2>
        <p className="muted" data-game-count>
          {t('account.game.count', { count: games.length, max: maxIdleGames })}
        </p>
        {games.length === 0 ? (
          <p className="muted">{t('account.game.empty')}</p>
        ) : (
          <ul className="item-list">
            {games.map((game) => (
              <li key={game.AppId} data-app-id={game.AppId}>
                <span className="item-main">
                  <strong>{nameOf(game)}</strong>
                  <span className="muted">{t('account.game.appId', { id: game.AppId })}</span>
                </span>
                <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => void store.remove(game)}>
                  {t('account.game.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="add-game-heading">
        <h2 id="add-game-heading">{t('account.game.add')}</h2>
        <form className="form" onSubmit={add} noValidate>
          <label>
            {t('account.game.search')}
            <input name="game" list="steam-games" autoComplete="off" value={typed} onChange={(e) => store.$typed.set(e.target.value)} />
            <span className="hint">{t('account.game.searchHint')}</span>
          </label>
          <datalist id="steam-games">
            {suggestions.map(([id, name]) => (
              <option key={id} value={name} />
            ))}
          </datalist>
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy || games.length >= maxIdleGames}>
              {t('account.game.addButton')}
            </button>
          </div>
        </form>
      </section>
      <NoticeLine notice={notice} t={noticeText} />
    </div>
  );
}
