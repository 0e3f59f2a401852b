/**
 * The operators' commands about raffles: `raffle create|list|show|open|close|value|draw`.
 * A draw made here is told to open raffle pages through the hub.
 */
import { and, asc, desc, eq, isNotNull } from 'drizzle-orm';
import type { RaffleEntryOfUser, RaffleSummary, RaffleWinnerEntry } from '#contract/admin.ts';
import { hubEvents } from '#contract/realtime.ts';
import { commandsPlugin, oneUser, UsageError, type AdminCommand, type CommandContext, type ResultOf, type RunCommand } from '../../admin-command.ts';
import { indent, noUser, orDash, table, time } from '../../admin-text.ts';
import { recordAudit } from '../../db/audit.ts';
import type { Database } from '../../db/database.ts';
import { raffleEntries, raffles } from '../../db/schema/raffle.ts';
import { message } from '../../i18n/messages.ts';
import { StorageError, storageRefusal } from '../../services/file-store.ts';
import { checkDefinition, createRaffle, readDefinition, storeCover } from './definition.ts';
import { drawRaffle } from './draws.ts';
import { stateOf, type RaffleRow } from './raffles.ts';

const summary = (row: RaffleRow): RaffleSummary => ({
  id: row.id,
  kind: row.kind,
  title: row.title.en,
  state: stateOf(row),
  opensAt: row.opensAt.toISOString(),
  closesAt: row.closesAt.toISOString(),
  drawAt: row.drawAt?.toISOString() ?? null,
  drawnAt: row.drawnAt?.toISOString() ?? null,
  entrants: row.entrants,
  stock: row.stock,
  commitment: row.seedHash,
  publicSource: row.publicSource,
  publicValue: row.publicValue,
});

async function winnersOf(db: Database, row: RaffleRow): Promise<RaffleWinnerEntry[]> {
  const entries = await db
    .select()
    .from(raffleEntries)
    .where(and(eq(raffleEntries.raffleId, row.id), isNotNull(raffleEntries.drawOrder)))
    .orderBy(asc(raffleEntries.drawOrder));
  return entries.map((entry) => ({
    place: entry.drawOrder!,
    number: entry.number,
    userId: entry.userId,
    prize: prizeName(row, entry.prize!),
    claimedAt: entry.claimedAt?.toISOString() ?? null,
  }));
}

/** Entries `raffle entries` shows: a raffle may have hundreds of thousands; the count is on the raffle. */
const entriesShown = 200;

/** The raffles a user entered, newest first (by the index on the entries' user). */
async function enteredBy(db: Database, userId: number): Promise<RaffleEntryOfUser[]> {
  const rows = await db
    .select({ entry: raffleEntries, raffle: raffles })
    .from(raffleEntries)
    .innerJoin(raffles, eq(raffles.id, raffleEntries.raffleId))
    .where(eq(raffleEntries.userId, userId))
    .orderBy(desc(raffleEntries.createdAt))
    .limit(100);
  return rows.map(({ entry, raffle }) => ({
    raffleId: raffle.id,
    title: raffle.title.en,
    number: entry.number,
    prize: entry.prize === null ? null : prizeName(raffle, entry.prize),
    claimedAt: entry.claimedAt?.toISOString() ?? null,
    at: entry.createdAt.toISOString(),
  }));
}

/** A prize by its index, named in English as operators read the raffle. */
const prizeName = (raffle: RaffleRow, index: number) => raffle.prizes[index]?.Name.en ?? String(index);

type Name = 'raffle create' | 'raffle show' | 'raffle open' | 'raffle close' | 'raffle value' | 'raffle draw';

async function answer(db: Database, command: Name, row: RaffleRow | null, refused: string | null = null, pushed = false) {
  return { command, raffle: row && summary(row), winners: row ? await winnersOf(db, row) : [], refused, pushed };
}

function oneId(name: string, word: string | undefined): number {
  if (!word || !/^[1-9][0-9]{0,9}$/.test(word)) throw new UsageError(`${name} takes a raffle id (raffle list shows them)`);
  return Number(word);
}

async function find(db: Database, id: number): Promise<RaffleRow | null> {
  const [row] = await db.select().from(raffles).where(eq(raffles.id, id));
  return row ?? null;
}

/** Tells open raffle pages that a raffle was drawn; false when no server or backplane is reachable from here. */
async function announceDraw(context: CommandContext, raffleId: number): Promise<boolean> {
  if (!context.pusher) return false;
  await context.pusher.broadcast(hubEvents.raffleDrawn, [{ RaffleId: raffleId }]);
  return true;
}

const raffleHeaders = ['ID', 'KIND', 'TITLE', 'STATE', 'OPENS', 'CLOSES', 'DRAW', 'ENTRANTS', 'STOCK'];
const raffleRow = (raffle: RaffleSummary) => [
  raffle.id,
  raffle.kind,
  raffle.title,
  raffle.state,
  time(raffle.opensAt),
  time(raffle.closesAt),
  raffle.drawAt ? time(raffle.drawAt) : '-',
  raffle.entrants,
  raffle.stock ?? '-',
];

/** How a command about one raffle reads: the raffle, its proof and winners once drawn, and what was refused or told. */
const detail = {
  format(result: ResultOf<Name>): string {
    const { raffle, winners } = result;
    if (!raffle) return 'No such raffle (raffle list shows the ids).';
    const proof = raffle.commitment
      ? `\n\nCommitment    ${raffle.commitment}\nPublic source ${raffle.publicSource?.en ?? '-'}\nPublic value  ${orDash(raffle.publicValue)}\nDrawn         ${raffle.drawnAt ? time(raffle.drawnAt) : '-'}`
      : '';
    const drawn = winners.length
      ? `\n\nWinners (${winners.length})\n${indent(
          table(
            ['PLACE', 'NUMBER', 'USER', 'PRIZE', 'CLAIMED'],
            winners.map((w) => [w.place, w.number, w.userId ?? '(deleted)', w.prize, w.claimedAt ? time(w.claimedAt) : '-']),
          ),
        )}`
      : '';
    // A refusal is a phrase of ours or a whole sentence of the messages, which has its full stop already.
    const refused = result.refused ? `\n\nNothing done: ${result.refused}${/[.。]$/.test(result.refused) ? '' : '.'}` : '';
    const pushed =
      result.command === 'raffle draw' && !result.refused
        ? `\n\n${result.pushed ? 'Open raffle pages were told.' : 'No server could be reached to tell open pages; they see the draw on their next load.'}`
        : '';
    return `${table(raffleHeaders, [raffleRow(raffle)])}${proof}${drawn}${refused}${pushed}`;
  },
  found: (result: ResultOf<Name>) => result.raffle !== null && result.refused === null,
};

const byId = (
  name: 'raffle show' | 'raffle open' | 'raffle close',
  run: (context: CommandContext, row: RaffleRow) => Promise<Awaited<ReturnType<typeof answer>>>,
) => ({
  name,
  role: 'operator' as const,
  usage: {
    'raffle show': 'raffle show <id>                a raffle, with its winners once drawn',
    'raffle open': 'raffle open <id>                open an upcoming raffle now',
    'raffle close': 'raffle close <id>               end registration (or an instant raffle) now',
  }[name],
  parse(rest: string[]): RunCommand {
    if (rest.length !== 1) throw new UsageError(`${name} takes one raffle id`);
    const id = oneId(name, rest[0]);
    return async (context) => {
      const row = await find(context.db, id);
      return row ? run(context, row) : answer(context.db, name, null);
    };
  },
  ...detail,
});

export const raffleCommands: AdminCommand[] = [
  {
    name: 'raffle create',
    role: 'operator',
    usage: `raffle create --file <raffle.json> | --definition '<json>'
                                  a raffle as described in the file (docs/tour.md, "Raffles"),
                                  or in the words themselves (the console's: its cover comes
                                  with the command)`,
    readFiles(rest) {
      if (rest.length !== 2 || rest[0] !== '--file') return { rest, attachment: null };
      try {
        const { json, coverBytes } = readDefinition(rest[1]);
        return { rest: ['--definition', json], attachment: coverBytes };
      } catch (error) {
        throw new UsageError(error instanceof Error ? error.message : String(error));
      }
    },
    parse(rest) {
      // `--file` is read by the CLI on the operator's machine (readFiles): what reaches here names no path.
      if (rest.length !== 2 || rest[0] !== '--definition') throw new UsageError("raffle create takes --file <raffle.json> or --definition '<json>'");
      // What is wrong with a definition is the command's refusal, for the operator to read and fix.
      const checked = checkDefinition(rest[1]);
      return async (context) => {
        if ('problem' in checked) return answer(context.db, 'raffle create', null, checked.problem);
        let cover: string | null = null;
        if (context.attachment) {
          try {
            cover = await storeCover(context.uploads.store('raffles'), context.attachment);
          } catch (error) {
            // No room or no storage is told in the operator's language, as the site tells a customer; anything else is the image's fault.
            const refused = error instanceof StorageError ? message(context.locale, storageRefusal(error).messageKey) : 'Cover: not a PNG, JPEG or WebP image';
            return answer(context.db, 'raffle create', null, refused);
          }
        }
        return answer(context.db, 'raffle create', await createRaffle(context.db, context.actor, checked.definition, cover));
      };
    },
    ...detail,
  },
  {
    name: 'raffle entered',
    role: 'support',
    usage: 'raffle entered <user>           the raffles a user entered, with the prizes won and claims',
    parse(rest) {
      const key = oneUser('raffle entered', rest);
      return async ({ db, findUser }) => {
        const user = await findUser(key);
        return { command: 'raffle entered', key, userId: user?.id ?? null, entries: user ? await enteredBy(db, user.id) : null };
      };
    },
    format: (result: ResultOf<'raffle entered'>) =>
      !result.entries
        ? noUser(result.key)
        : result.entries.length
          ? table(
              ['RAFFLE', 'TITLE', 'NUMBER', 'PRIZE', 'CLAIMED', 'ENTERED'],
              result.entries.map((e) => [e.raffleId, e.title, e.number, orDash(e.prize), e.claimedAt ? time(e.claimedAt) : '-', time(e.at)]),
            )
          : 'No raffles entered.',
    found: (result: ResultOf<'raffle entered'>) => result.userId !== null,
  },
  {
    name: 'raffle entries',
    role: 'operator',
    usage: `raffle entries <id>             a raffle's first ${entriesShown} entries by number`,
    parse(rest) {
      if (rest.length !== 1) throw new UsageError('raffle entries takes one raffle id');
      const id = oneId('raffle entries', rest[0]);
      return async ({ db }) => {
        const row = await find(db, id);
        if (!row) return { command: 'raffle entries', raffleId: id, entries: null };
        const entries = await db
          .select({ number: raffleEntries.number, userId: raffleEntries.userId, at: raffleEntries.createdAt })
          .from(raffleEntries)
          .where(eq(raffleEntries.raffleId, id))
          .orderBy(asc(raffleEntries.number))
          .limit(entriesShown);
        return { command: 'raffle entries', raffleId: id, entries: entries.map((e) => ({ ...e, at: e.at.toISOString() })) };
      };
    },
    format: (result: ResultOf<'raffle entries'>) =>
      !result.entries
        ? 'No such raffle (raffle list shows the ids).'
        : result.entries.length
          ? table(
              ['NUMBER', 'USER', 'ENTERED'],
              result.entries.map((e) => [e.number, e.userId ?? '-', time(e.at)]),
            )
          : 'No entries yet.',
    found: (result: ResultOf<'raffle entries'>) => result.entries !== null,
  },
  {
    name: 'raffle list',
    role: 'operator',
    usage: 'raffle list                     every raffle, newest first',
    parse(rest) {
      if (rest.length > 0) throw new UsageError('raffle list takes nothing more');
      return async (context) => ({
        command: 'raffle list',
        raffles: (await context.db.select().from(raffles).orderBy(desc(raffles.opensAt), desc(raffles.id))).map(summary),
      });
    },
    format: ({ raffles: listed }: ResultOf<'raffle list'>) => (listed.length ? table(raffleHeaders, listed.map(raffleRow)) : 'No raffles yet.'),
  },
  byId('raffle show', (context, row) => answer(context.db, 'raffle show', row)),
  byId('raffle open', async (context, row) => {
    if (stateOf(row) !== 'upcoming') return answer(context.db, 'raffle open', row, `it is ${stateOf(row)} already`);
    const opened = await context.db.transaction(async (tx) => {
      const [changed] = await tx.update(raffles).set({ opensAt: new Date() }).where(eq(raffles.id, row.id)).returning();
      await recordAudit(tx, context.actor, {
        action: 'raffle open',
        target: `raffle ${row.id}`,
        before: { opensAt: row.opensAt },
        after: { opensAt: changed.opensAt },
      });
      return changed;
    });
    return answer(context.db, 'raffle open', opened);
  }),
  byId('raffle close', async (context, row) => {
    if (stateOf(row) !== 'open' && stateOf(row) !== 'upcoming') return answer(context.db, 'raffle close', row, `it is ${stateOf(row)} already`);
    const closed = await context.db.transaction(async (tx) => {
      const [changed] = await tx.update(raffles).set({ closesAt: new Date() }).where(eq(raffles.id, row.id)).returning();
      await recordAudit(tx, context.actor, {
        action: 'raffle close',
        target: `raffle ${row.id}`,
        before: { closesAt: row.closesAt },
        after: { closesAt: changed.closesAt },
      });
      return changed;
    });
    return answer(context.db, 'raffle close', closed);
  }),
  {
    name: 'raffle value',
    role: 'operator',
    usage: 'raffle value <id> <value>       enter the public value for the scheduled draw, once it is published',
    parse(rest) {
      if (rest.length !== 2 || !rest[1].trim() || rest[1].length > 200)
        throw new UsageError('raffle value takes a raffle id and the public value (at most 200 characters)');
      const id = oneId('raffle value', rest[0]);
      const value = rest[1].trim();
      return async (context) => {
        const row = await find(context.db, id);
        if (!row) return answer(context.db, 'raffle value', null);
        // A value known while people can still register would let entries be placed to suit it.
        const state = stateOf(row);
        if (row.kind !== 'registration' || state !== 'closed')
          return answer(context.db, 'raffle value', row, `a public value is entered once registration has closed (it is ${state})`);
        const changed = await context.db.transaction(async (tx) => {
          const [updated] = await tx.update(raffles).set({ publicValue: value }).where(eq(raffles.id, id)).returning();
          await recordAudit(tx, context.actor, {
            action: 'raffle value',
            target: `raffle ${id}`,
            before: { publicValue: row.publicValue },
            after: { publicValue: value },
          });
          return updated;
        });
        return answer(context.db, 'raffle value', changed);
      };
    },
    ...detail,
  },
  {
    name: 'raffle draw',
    role: 'operator',
    usage:
      'raffle draw <id> [--public-value <value>]\n                                  draw now (closing registration), with the value given or the one entered',
    parse(rest) {
      const id = oneId('raffle draw', rest[0]);
      let value: string | undefined;
      if (rest.length === 3 && rest[1] === '--public-value' && rest[2].trim() && rest[2].length <= 200) value = rest[2].trim();
      else if (rest.length !== 1) throw new UsageError('raffle draw takes a raffle id and optionally --public-value <value> (at most 200 characters)');
      return async (context) => {
        const outcome = await drawRaffle(context.db, context.actor, id, value);
        if (!outcome.drawn) return answer(context.db, 'raffle draw', outcome.raffle, outcome.raffle ? outcome.refused : null);
        return answer(context.db, 'raffle draw', outcome.raffle, null, await announceDraw(context, id));
      };
    },
    ...detail,
  },
];

export default commandsPlugin('raffle', raffleCommands);
