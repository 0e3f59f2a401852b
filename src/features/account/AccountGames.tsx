/**
 * The game list island (account centre `game`): the Steam games the user
 * wants idled in the cloud. A game is added by picking its name from the
 * bundled list's suggestions or by typing its app id, and removed by its button.
 */
import { useEffect, useState, type SubmitEvent } from 'react';
import { idleGameCalls, maxIdleGames, type IdleGame } from '#contract/idle-games.ts';
import { steamGames } from '#contract/steam-games.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { Loading, NoticeLine, useAction } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';

interface Props {
  strings: Strings<KeysUnder<'account.game' | 'api' | 'common.loading'>>;
}

const suggestions = Object.entries(steamGames).sort(([, a], [, b]) => a.localeCompare(b));

/** The app id a person typed: a number, or a name (any case) from the bundled list. */
function appIdOf(typed: string): number | null {
  const text = typed.trim();
  if (/^\d{1,10}$/.test(text) && Number(text) > 0 && Number(text) <= 2_147_483_647) return Number(text);
  const found = suggestions.find(([, name]) => name.toLowerCase() === text.toLowerCase());
  return found ? Number(found[0]) : null;
}

export default function AccountGames({ strings }: Props) {
  const t = translator(strings);
  const [games, setGames] = useState<IdleGame[] | null>(null);
  const [typed, setTyped] = useState('');
  const action = useAction(t);
  const nameOf = (game: Pick<IdleGame, 'AppId' | 'Name'>) => game.Name ?? t('account.game.unlisted', { id: game.AppId });

  useEffect(() => void action.run(async () => setGames(await authCall(idleGameCalls.list))), []);
  if (!games) return action.notice ? <NoticeLine notice={action.notice} t={t} /> : <Loading text={t('common.loading')} />;

  async function add(event: SubmitEvent) {
    event.preventDefault();
    const appId = appIdOf(typed);
    if (appId === null) {
      action.setNotice({ kind: 'error', text: t('account.game.notFound') });
      return;
    }
    const name = nameOf({ AppId: appId, Name: steamGames[appId] ?? null });
    const updated = await action.run(() => authCall(idleGameCalls.add, { body: { AppId: appId } }), t('account.game.added', { name }));
    if (updated) {
      setGames(updated);
      setTyped('');
    }
  }

  async function remove(game: IdleGame) {
    const updated = await action.run(
      () => authCall(idleGameCalls.remove, { params: { appId: game.AppId } }),
      t('account.game.removed', { name: nameOf(game) }),
    );
    if (updated) setGames(updated);
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
                <button type="button" className="button button-secondary button-small" disabled={action.busy} onClick={() => void remove(game)}>
                  {t('account.game.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="add-game-heading">
        <h2 id="add-game-heading">{t('account.game.add')}</h2>
        <form className="form" onSubmit={(event) => void add(event)} noValidate>
          <label>
            {t('account.game.search')}
            <input name="game" list="steam-games" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
            <span className="hint">{t('account.game.searchHint')}</span>
          </label>
          <datalist id="steam-games">
            {suggestions.map(([id, name]) => (
              <option key={id} value={name} />
            ))}
          </datalist>
          <div className="form-actions">
            <button type="submit" className="button" disabled={action.busy || games.length >= maxIdleGames}>
              {t('account.game.addButton')}
            </button>
          </div>
        </form>
      </section>
      <NoticeLine notice={action.notice} t={t} />
    </div>
  );
}
