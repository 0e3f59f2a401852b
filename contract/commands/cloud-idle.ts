/** The operators' commands about cloud idling: `idle show`, `idle games` and `idle set`. */
import * as z from 'zod/mini';
import { command, oneUserWord, UsageError, UserKey } from '../command.ts';
import { text } from '../fields.ts';
import { IdleGame } from '../idle-games.ts';
import { CloudIdleState, CloudIdleStatus, type IdledGame } from '../realtime.ts';
import { steamGameName } from '../steam-games.ts';

const OneUser = z.strictObject({ user: UserKey });

/** `--state S [--game appid:cards[:name]]... [--cards N]`; a name may itself hold colons, and a game of the bundled list needs none. */
function idleSetWords(rest: string[]) {
  const [user = '', ...flags] = rest;
  if (!user || user.startsWith('--')) throw new UsageError('idle set takes one user id, phone or e-mail');
  let state: string | undefined;
  let cards: number | undefined;
  const games: IdledGame[] = [];
  for (let i = 0; i < flags.length; i += 2) {
    const [flag, value] = [flags[i], flags[i + 1]];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--state') state = value;
    else if (flag === '--cards') cards = /^\d+$/.test(value) ? Number(value) : NaN;
    else if (flag === '--game') games.push(gameWord(value));
    else throw new UsageError(`idle set does not know ${flag}`);
  }
  if (!CloudIdleState.safeParse(state).success) throw new UsageError(`idle set needs --state, one of ${CloudIdleState.options.join(', ')}`);
  if (cards !== undefined && !Number.isSafeInteger(cards)) throw new UsageError('--cards takes a whole number of cards');
  return { user, state: state as CloudIdleState, games, cards };
}

function gameWord(value: string): IdledGame {
  const match = /^(\d+):(\d+)(?::(.+))?$/.exec(value);
  const name = match ? (match[3]?.trim() ?? steamGameName(Number(match[1]))) : null;
  if (!match || !name)
    throw new UsageError(
      `--game takes <appid>:<cards>[:<name>], e.g. 730:3 or 730:3:Counter-Strike 2; the name is needed for a game not in the bundled list (got "${value}")`,
    );
  return { AppId: Number(match[1]), CardsRemaining: Number(match[2]), Name: name };
}

export const cloudIdleCommands = {
  show: command({
    name: 'idle show',
    role: 'support',
    usage: "idle show <user>                a user's cloud-idling status",
    args: OneUser,
    words: oneUserWord('idle show'),
    result: { key: text(), userId: z.nullable(z.int()), status: z.nullable(CloudIdleStatus) },
  }),
  games: command({
    name: 'idle games',
    role: 'support',
    usage: 'idle games <user>               the games a user wants idled (their game list)',
    args: OneUser,
    words: oneUserWord('idle games'),
    result: { key: text(), userId: z.nullable(z.int()), games: z.nullable(z.array(IdleGame)) },
  }),
  set: command({
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
    /** `cards`: the account's total; absent, the games' sum. */
    args: z.strictObject({ user: UserKey, state: CloudIdleState, games: CloudIdleStatus.shape.Games, cards: z.optional(z.int().check(z.minimum(0))) }),
    words: idleSetWords,
    /** `pushed`: sent to the user's open pages (false when no server could be reached to do it). */
    result: { key: text(), userId: z.nullable(z.int()), status: z.nullable(CloudIdleStatus), pushed: z.boolean() },
  }),
};
