/**
 * The operators' commands about raffles: `raffle create|entered|entries|list|show|open|close|value|draw|resend`.
 * `raffle create` takes the definition itself (contract/raffle.ts `RaffleDefinition`) and its cover as the
 * attachment; at the shell `--file` names a definition file, which the CLI reads on the operator's side
 * (the handler's `readFiles`) and sends as `--definition` would.
 */
import * as z from 'zod/mini';
import { RaffleEntryOfRaffle, RaffleEntryOfUser, RaffleSummary, RaffleWinnerCounts, RaffleWinnerEntry } from '../admin.ts';
import { command, oneUserWord, UsageError, UserKey, type ResultOf } from '../command.ts';
import { text } from '../fields.ts';
import { listArgs, listPage, listSize, listWords } from '../list.ts';
import { RaffleDefinition, RaffleKind, RaffleState } from '../raffle.ts';

/** Entries `raffle entries` shows: a raffle may have hundreds of thousands; the count is on the raffle. */
export const raffleEntriesShown = 200;

/** The most a draw's public value may say. */
export const publicValueMaxLength = 200;

/** A raffle's id (a Postgres `serial`). */
const RaffleId = z.int().check(z.positive(), z.maximum(2_147_483_647));

const PublicValue = text(z.trim(), z.minLength(1), z.maxLength(publicValueMaxLength));

/** A raffle's id as typed: a whole number, which the schema then bounds. */
function idWord(name: string, word: string | undefined): number {
  if (!word || !/^[1-9][0-9]{0,9}$/.test(word)) throw new UsageError(`${name} takes a raffle id (raffle list shows them)`);
  return Number(word);
}

/** `words` of a command that takes one raffle id and nothing else. */
const oneIdWord = (name: string) => (rest: string[]) => {
  if (rest.length !== 1) throw new UsageError(`${name} takes one raffle id`);
  return { id: idWord(name, rest[0]) };
};

const OneRaffle = z.strictObject({ id: RaffleId });

/**
 * A definition given as JSON text (a file's, or what the console's form holds), checked; the problem says where it is
 * wrong, for the operator to read and fix.
 */
export function definitionFromJson(json: string): { definition: RaffleDefinition } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { problem: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = RaffleDefinition.safeParse(value);
  if (parsed.success) return { definition: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: `${issue.path.join('.') || '(top)'}: ${issue.message}` };
}

/**
 * A command about one raffle answers it as it is now (null: no such raffle), its winners once drawn with how many were
 * told, reminded and claimed, why it did nothing, and whether open pages were told.
 */
const raffleShown = {
  raffle: z.nullable(RaffleSummary),
  winners: z.array(RaffleWinnerEntry),
  counts: z.nullable(RaffleWinnerCounts),
  refused: z.nullable(text()),
  pushed: z.boolean(),
};

/** The columns `raffle list` sorts by: when it opens, when it closes, how many entered. */
export const raffleSorts = ['opens', 'closes', 'entrants'] as const;

export const raffleCommands = {
  create: command({
    name: 'raffle create',
    role: 'operator',
    usage: `raffle create --file <raffle.json> | --definition '<json>'
                                  a raffle as described in the file (docs/tour.md, "Raffles"),
                                  or in the words themselves (the console's: its cover comes
                                  with the command)`,
    args: z.strictObject({ definition: RaffleDefinition }),
    words(rest) {
      // `--file` is read by the CLI on the operator's side (the handler's readFiles) and reaches here as `--definition`.
      if (rest.length !== 2 || rest[0] !== '--definition') throw new UsageError("raffle create takes --file <raffle.json> or --definition '<json>'");
      try {
        return { definition: JSON.parse(rest[1]) };
      } catch (error) {
        throw new UsageError(`raffle create --definition: not JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    result: raffleShown,
  }),
  entered: command({
    name: 'raffle entered',
    role: 'support',
    usage: 'raffle entered <user>           the raffles a user entered, with the prizes won and claims',
    args: z.strictObject({ user: UserKey }),
    words: oneUserWord('raffle entered'),
    /** The raffles the user entered, newest first, with the number, the prize won and its claim; null for no such user. */
    result: { key: text(), userId: z.nullable(z.int()), entries: z.nullable(z.array(RaffleEntryOfUser)) },
  }),
  entries: command({
    name: 'raffle entries',
    role: 'operator',
    usage: `raffle entries <id>             a raffle's first ${raffleEntriesShown} entries by number`,
    args: OneRaffle,
    words: oneIdWord('raffle entries'),
    /** The raffle's first entries by number (null: no such raffle). */
    result: { raffleId: z.int(), entries: z.nullable(z.array(RaffleEntryOfRaffle)) },
  }),
  list: command({
    name: 'raffle list',
    role: 'operator',
    usage: `raffle list [--kind <kind>] [--state <state>] [--sort ${raffleSorts.join('|')}] [--asc|--desc] [--page N] [--size N]
                                  raffles, latest opening first unless sorted, a page at a time (${listSize.default});
                                  kind ${RaffleKind.options.join(' or ')}, state one of ${RaffleState.options.join(', ')}`,
    args: z.strictObject({ ...listArgs(raffleSorts, 'opens'), kind: z.optional(RaffleKind), state: z.optional(RaffleState) }),
    words: listWords('raffle list', { '--kind': 'kind', '--state': 'state' }),
    result: listPage(RaffleSummary),
  }),
  show: command({
    name: 'raffle show',
    role: 'operator',
    usage: 'raffle show <id>                a raffle, with its winners once drawn',
    args: OneRaffle,
    words: oneIdWord('raffle show'),
    result: raffleShown,
  }),
  open: command({
    name: 'raffle open',
    role: 'operator',
    usage: 'raffle open <id>                open an upcoming raffle now',
    args: OneRaffle,
    words: oneIdWord('raffle open'),
    result: raffleShown,
  }),
  close: command({
    name: 'raffle close',
    role: 'operator',
    usage: 'raffle close <id>               end registration (or an instant raffle) now',
    args: OneRaffle,
    words: oneIdWord('raffle close'),
    result: raffleShown,
  }),
  value: command({
    name: 'raffle value',
    role: 'operator',
    usage: 'raffle value <id> <value>       enter the public value for the scheduled draw, once it is published',
    args: z.strictObject({ id: RaffleId, value: PublicValue }),
    words(rest) {
      if (rest.length !== 2) throw new UsageError(`raffle value takes a raffle id and the public value (at most ${publicValueMaxLength} characters)`);
      return { id: idWord('raffle value', rest[0]), value: rest[1] };
    },
    result: raffleShown,
  }),
  draw: command({
    name: 'raffle draw',
    role: 'operator',
    usage:
      'raffle draw <id> [--public-value <value>]\n                                  draw now (closing registration), with the value given or the one entered',
    /** `publicValue`: the value to draw with; absent, the one `raffle value` entered. */
    args: z.strictObject({ id: RaffleId, publicValue: z.optional(PublicValue) }),
    words([id, ...options]) {
      const raffle = idWord('raffle draw', id);
      if (options.length === 0) return { id: raffle };
      if (options.length !== 2 || options[0] !== '--public-value')
        throw new UsageError(`raffle draw takes a raffle id and optionally --public-value <value> (at most ${publicValueMaxLength} characters)`);
      return { id: raffle, publicValue: options[1] };
    },
    result: raffleShown,
  }),
  resend: command({
    name: 'raffle resend',
    role: 'operator',
    usage: 'raffle resend <id> <number>     send the winner of that number the message of their win again, now',
    args: z.strictObject({ id: RaffleId, number: z.int().check(z.positive(), z.maximum(2_147_483_647)) }),
    words(rest) {
      if (rest.length !== 2 || !/^[1-9][0-9]{0,9}$/.test(rest[1]))
        throw new UsageError('raffle resend takes a raffle id and a winning number (raffle show lists them)');
      return { id: idWord('raffle resend', rest[0]), number: Number(rest[1]) };
    },
    result: raffleShown,
  }),
};

/** A command about one raffle's answer: the raffle as it is now, its winners, why the command did nothing, and whether open pages were told. */
export type RaffleShown = ResultOf<
  | typeof raffleCommands.create
  | typeof raffleCommands.show
  | typeof raffleCommands.open
  | typeof raffleCommands.close
  | typeof raffleCommands.value
  | typeof raffleCommands.draw
  | typeof raffleCommands.resend
>;
