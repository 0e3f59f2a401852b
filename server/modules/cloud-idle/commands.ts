/** The operators' commands about cloud idling (contract/commands/cloud-idle.ts). */
import { cloudIdleCommands } from '#contract/commands/cloud-idle.ts';
import type { CloudIdleStatus } from '#contract/realtime.ts';
import { commandsPlugin, handle } from '../../admin-command.ts';
import { indent, noUser, table, time } from '../../admin-text.ts';
import { listIdleGames } from './games.ts';
import { readCloudIdleStatus, setCloudIdleStatus } from './status.ts';

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
const userFound = (result: { userId: number | null }) => result.userId !== null;

export default commandsPlugin('cloud-idle', [
  handle(cloudIdleCommands.show, {
    async run(app, { user: key }) {
      const user = await app.findUser(key);
      return { command: 'idle show', key, userId: user?.id ?? null, status: user ? await readCloudIdleStatus(app.db, user.id) : null };
    },
    format(result) {
      if (result.userId === null) return noUser(result.key);
      return result.status ? cloudIdle(result.userId, result.status) : `User ${result.userId} has no cloud-idling status yet.`;
    },
    found: userFound,
  }),
  handle(cloudIdleCommands.games, {
    async run(app, { user: key }) {
      const user = await app.findUser(key);
      return { command: 'idle games', key, userId: user?.id ?? null, games: user ? await listIdleGames(app.db, user.id) : null };
    },
    format(result) {
      if (result.userId === null || !result.games) return noUser(result.key);
      if (result.games.length === 0) return `User ${result.userId} has no games on their list.`;
      return table(
        ['APP ID', 'NAME', 'ADDED'],
        result.games.map((game) => [game.AppId, game.Name ?? '(not in the bundled list)', time(game.AddedAt)]),
      );
    },
    found: userFound,
  }),
  handle(cloudIdleCommands.set, {
    async run(app, { user: key, state, games, cards }, { actor }) {
      const user = await app.findUser(key);
      if (!user) return { command: 'idle set', key, userId: null, status: null, pushed: false };
      const update = { State: state, Games: games, CardsRemaining: cards ?? games.reduce((sum, game) => sum + game.CardsRemaining, 0) };
      const status = await setCloudIdleStatus(app.db, actor, app.pusher, user.id, update);
      return { command: 'idle set', key, userId: user.id, status, pushed: app.pusher !== null };
    },
    format(result) {
      if (result.userId === null || !result.status) return noUser(result.key);
      return `${cloudIdle(result.userId, result.status)}\n\n${
        result.pushed
          ? "Saved and pushed to the user's open pages."
          : 'Saved. No server was running to push it to (set REDIS_URL to push through Redis): open pages show it when they next load.'
      }`;
    },
    found: userFound,
  }),
]);
