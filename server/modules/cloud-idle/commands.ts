/** The operators' commands about cloud idling: `idle show`, `idle set` and `idle games`. */
import { CloudIdleState, CloudIdleUpdate, IdledGame, type CloudIdleStatus } from '#contract/realtime.ts';
import { steamGameName } from '#contract/steam-games.ts';
import { commandsPlugin, oneUser, UsageError, type AdminCommand, type ResultOf } from '../../admin-command.ts';
import { indent, noUser, table, time } from '../../admin-text.ts';
import { listIdleGames } from './games.ts';
import { readCloudIdleStatus, setCloudIdleStatus } from './status.ts';

/** `--state S [--game appid:cards[:name]]... [--cards N]`; a name may itself hold colons, and a game of the bundled list needs none. */
function parseIdleUpdate(flags: string[]): CloudIdleUpdate {
  let state: string | undefined;
  let cards: number | undefined;
  const games: IdledGame[] = [];
  for (let i = 0; i < flags.length; i += 2) {
    const [flag, value] = [flags[i], flags[i + 1]];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--state') state = value;
    else if (flag === '--cards') cards = /^\d+$/.test(value) ? Number(value) : NaN;
    else if (flag === '--game') games.push(parseGame(value));
    else throw new UsageError(`idle set does not know ${flag}`);
  }
  const parsedState = CloudIdleState.safeParse(state);
  if (!parsedState.success) throw new UsageError(`idle set needs --state, one of ${CloudIdleState.options.join(', ')}`);
  const total = cards ?? games.reduce((sum, game) => sum + game.CardsRemaining, 0);
  if (!Number.isSafeInteger(total) || total < 0) throw new UsageError('--cards takes a whole number of cards');
  const update = CloudIdleUpdate.safeParse({ State: parsedState.data, Games: games, CardsRemaining: total });
  if (!update.success) throw new UsageError(`idle set: ${update.error.issues[0].path.join('.')} ${update.error.issues[0].message}`);
  return update.data;
}

function parseGame(value: string): IdledGame {
  const match = /^(\d+):(\d+)(?::(.+))?$/.exec(value);
  const name = match ? (match[3]?.trim() ?? steamGameName(Number(match[1]))) : null;
  const game = match && name ? IdledGame.safeParse({ AppId: Number(match[1]), CardsRemaining: Number(match[2]), Name: name }) : null;
  if (!game?.success)
    throw new UsageError(
      `--game takes <appid>:<cards>[:<name>], e.g. 730:3 or 730:3:Counter-Strike 2; the name is needed for a game not in the bundled list (got "${value}")`,
    );
  return game.data;
}

function cloudIdle(userId: number, status: CloudIdleStatus): string {
  const facts = table(
    ['Cloud idling of user', String(userId)],
    [
      ['state', status.State],
      ['cards remaining', String(status.CardsRemaining)],
      ['updated', time(status.UpdatedAt)],
    ],
  );
  const games = status.Games.length
    ? indent(
        table(
          ['APP ID', 'CARDS LEFT', 'NAME'],
          status.Games.map((g) => [g.AppId, g.CardsRemaining, g.Name]),
        ),
      )
    : '  none';
  return `${facts}\n\nGames being idled (${status.Games.length})\n${games}`;
}

/** The user a command names exists. */
const userFound = (result: ResultOf<'idle show' | 'idle games' | 'idle set'>) => result.userId !== null;

export const cloudIdleCommands: AdminCommand[] = [
  {
    name: 'idle show',
    role: 'support',
    usage: "idle show <user>                a user's cloud-idling status",
    parse(rest) {
      const key = oneUser('idle show', rest);
      return async ({ db, findUser }) => {
        const user = await findUser(key);
        return { command: 'idle show', key, userId: user?.id ?? null, status: user ? await readCloudIdleStatus(db, user.id) : null };
      };
    },
    format(result: ResultOf<'idle show'>) {
      if (result.userId === null) return noUser(result.key);
      return result.status ? cloudIdle(result.userId, result.status) : `User ${result.userId} has no cloud-idling status yet.`;
    },
    found: userFound,
  },
  {
    name: 'idle games',
    role: 'support',
    usage: 'idle games <user>               the games a user wants idled (their game list)',
    parse(rest) {
      const key = oneUser('idle games', rest);
      return async ({ db, findUser }) => {
        const user = await findUser(key);
        return { command: 'idle games', key, userId: user?.id ?? null, games: user ? await listIdleGames(db, user.id) : null };
      };
    },
    format(result: ResultOf<'idle games'>) {
      if (result.userId === null || !result.games) return noUser(result.key);
      if (result.games.length === 0) return `User ${result.userId} has no games on their list.`;
      return table(
        ['APP ID', 'NAME', 'ADDED'],
        result.games.map((game) => [game.AppId, game.Name ?? '(not in the bundled list)', time(game.AddedAt)]),
      );
    },
    found: userFound,
  },
  {
    name: 'idle set',
    role: 'operator',
    usage: `idle set <user> --state <state> [--game <appid>:<cards>[:<name>]]... [--cards N]
                                  store a user's cloud-idling status and push it
                                  to their open pages; state is one of
                                  ${CloudIdleState.options.join(', ')}; each --game
                                  is a game being idled and the cards it has left
                                  (named from the bundled list when no name given);
                                  --cards is the account's total (default: the
                                  games' sum)`,
    parse(rest) {
      const key = oneUser('idle set', rest.slice(0, 1));
      const update = parseIdleUpdate(rest.slice(1));
      return async ({ db, pusher, findUser, actor }) => {
        const user = await findUser(key);
        if (!user) return { command: 'idle set', key, userId: null, status: null, pushed: false };
        const status = await setCloudIdleStatus(db, actor, pusher, user.id, update);
        return { command: 'idle set', key, userId: user.id, status, pushed: pusher !== null };
      };
    },
    format(result: ResultOf<'idle set'>) {
      if (result.userId === null || !result.status) return noUser(result.key);
      return `${cloudIdle(result.userId, result.status)}\n\n${
        result.pushed
          ? "Saved and pushed to the user's open pages."
          : 'Saved. No server was running to push it to (set REDIS_URL to push through Redis): open pages show it when they next load.'
      }`;
    },
    found: userFound,
  },
];

export default commandsPlugin('cloud-idle', cloudIdleCommands);
