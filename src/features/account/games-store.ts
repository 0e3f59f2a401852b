/**
 * The cloud-idle game list (account centre `game`): the list, loaded when
 * first shown; a game added by its name from the bundled list or by its app
 * id, refused before any call when it is neither; and a game removed. Each
 * change shows the list as the server answers it.
 */
import { atom, onMount } from 'nanostores';
import { idleGameCalls, type IdleGame } from '#contract/idle-games.ts';
import { steamGameName, steamGames } from '#contract/steam-games.ts';
import { createAction, type NoticeParams } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';

export type GameKey = 'account.game.notFound' | 'account.game.added' | 'account.game.removed';

/** The bundled list's games, by name: the suggestions offered while typing. */
export const suggestions = Object.entries(steamGames).sort(([, a], [, b]) => a.localeCompare(b));

/** The app id a person typed: a number, or a name (any case) from the bundled list. */
export function appIdOf(typed: string): number | null {
  const text = typed.trim();
  if (/^\d{1,10}$/.test(text) && Number(text) > 0 && Number(text) <= 2_147_483_647) return Number(text);
  const found = suggestions.find(([, name]) => name.toLowerCase() === text.toLowerCase());
  return found ? Number(found[0]) : null;
}

/**
 * A notice's words for a game: its `id`, and its `name` when it has one. A
 * game without a name is called by its id in the page's language
 * (`account.game.unlisted`), which the island fills in as `name`.
 */
export const gameParams = (game: Pick<IdleGame, 'AppId' | 'Name'>): NoticeParams =>
  game.Name === null ? { id: game.AppId } : { id: game.AppId, name: game.Name };

export function createGames(env: Pick<CenterEnvironment, 'call'>) {
  const action = createAction<GameKey>();
  /** The games on the list; null until loaded. */
  const $games = atom<IdleGame[] | null>(null);
  /** What is typed in the add field: a name or an app id. */
  const $typed = atom('');

  async function load(): Promise<void> {
    const games = await action.run(() => env.call(idleGameCalls.list));
    if (games) $games.set(games);
  }

  onMount($games, () => {
    void load();
  });

  /** Adds the game typed; the field empties once it is on the list. */
  async function add(): Promise<void> {
    if (action.$busy.get()) return;
    const appId = appIdOf($typed.get());
    if (appId === null) {
      action.refuse('account.game.notFound');
      return;
    }
    const params = gameParams({ AppId: appId, Name: steamGameName(appId) });
    const updated = await action.run(() => env.call(idleGameCalls.add, { body: { AppId: appId } }), 'account.game.added', params);
    if (!updated) return;
    $games.set(updated);
    $typed.set('');
  }

  async function remove(game: IdleGame): Promise<void> {
    if (action.$busy.get()) return;
    const updated = await action.run(() => env.call(idleGameCalls.remove, { params: { appId: game.AppId } }), 'account.game.removed', gameParams(game));
    if (updated) $games.set(updated);
  }

  return { $games, $typed, $busy: action.$busy, $notice: action.$notice, add, remove };
}
