/**
 * The operators' commands about raffles (contract/commands/raffle.ts).
 * A draw made here is told to open raffle pages through the hub, and its winners' messages are queued at once when
 * the command runs in a server (from the CLI, the servers' next minute queues them).
 */
import { and, asc, count, desc, eq, gt, isNotNull, isNull, lte, not, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { RaffleEntryOfUser, RaffleSummary, RaffleWinnerEntry } from '#contract/admin.ts';
import { UsageError, type ParsedArgsOf } from '#contract/command.ts';
import { raffleCommands, raffleEntriesShown, type RaffleShown } from '#contract/commands/raffle.ts';
import { offsetOf } from '#contract/list.ts';
import type { LocaleCode } from '#contract/locales.ts';
import type { RaffleState } from '#contract/raffle.ts';
import { hubEvents } from '#contract/realtime.ts';
import { commandsPlugin, handle, refusalText, type Caller, type Refusal } from '../../admin-command.ts';
import { indent, noUser, orDash, pageLine, table, time } from '../../admin-text.ts';
import { recordAudit } from '../../db/audit.ts';
import type { Database } from '../../db/database.ts';
import { raffleEntries, raffles } from '../../db/schema/raffle.ts';
import { message, type MessageKey } from '../../i18n/messages.ts';
import { StorageError, storageRefusal } from '../../services/file-store.ts';
import { createRaffle, readDefinition, storeCover } from './definition.ts';
import { drawRaffle, type DrawRefusal } from './draws.ts';
import { stateOf, type RaffleRow } from './raffles.ts';
import { messageCounts, queueDue, resend, type ResendRefusal } from './winner-messages.ts';

/** What `raffle list` sorts by → the column; the id breaks ties. */
const raffleSortColumns = { opens: raffles.opensAt, closes: raffles.closesAt, entrants: raffles.entrants } as const;

/** The raffles in a state, as `stateOf` (raffles.ts) reads it from the row, now. */
function whereState(state: RaffleState): SQL {
  const now = new Date();
  const going = and(isNull(raffles.canceledAt), isNull(raffles.drawnAt))!;
  // A raffle without stock (a registration raffle) never runs out.
  const over = or(lte(raffles.closesAt, now), sql`coalesce(${raffles.stock}, 1) = 0`)!;
  switch (state) {
    case 'canceled':
      return isNotNull(raffles.canceledAt);
    case 'drawn':
      return and(isNull(raffles.canceledAt), isNotNull(raffles.drawnAt))!;
    case 'upcoming':
      return and(going, gt(raffles.opensAt, now))!;
    case 'closed':
      return and(going, lte(raffles.opensAt, now), over)!;
    case 'open':
      return and(going, lte(raffles.opensAt, now), not(over))!;
  }
}

/** A page of the raffles of a kind and in a state, and how many there are (a shop holds tens of them: no index is needed). */
async function listRaffles(db: Database, { sort, dir, page, size, kind, state }: ParsedArgsOf<typeof raffleCommands.list>) {
  const where = and(kind ? eq(raffles.kind, kind) : undefined, state ? whereState(state) : undefined);
  const order = dir === 'asc' ? asc : desc;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(raffles).where(where).orderBy(order(raffleSortColumns[sort]), order(raffles.id)).limit(size).offset(offsetOf({ page, size })),
    db.select({ total: count() }).from(raffles).where(where),
  ]);
  return { rows, total };
}

/** A raffle as operators read it, its title in the caller's language (English at the shell). */
const summary = (row: RaffleRow, locale: LocaleCode): RaffleSummary => ({
  id: row.id,
  kind: row.kind,
  title: row.title[locale],
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

async function winnersOf(db: Database, row: RaffleRow, locale: LocaleCode): Promise<RaffleWinnerEntry[]> {
  const entries = await db
    .select()
    .from(raffleEntries)
    .where(and(eq(raffleEntries.raffleId, row.id), isNotNull(raffleEntries.drawOrder)))
    .orderBy(asc(raffleEntries.drawOrder));
  return entries.map((entry) => ({
    place: entry.drawOrder!,
    number: entry.number,
    userId: entry.userId,
    prize: prizeName(row, entry.prize!, locale),
    toldAt: entry.toldAt?.toISOString() ?? null,
    remindedAt: entry.remindedAt?.toISOString() ?? null,
    claimedAt: entry.claimedAt?.toISOString() ?? null,
  }));
}

/** The raffles a user entered, newest first (by the index on the entries' user). */
async function enteredBy(db: Database, userId: number, locale: LocaleCode): Promise<RaffleEntryOfUser[]> {
  const rows = await db
    .select({ entry: raffleEntries, raffle: raffles })
    .from(raffleEntries)
    .innerJoin(raffles, eq(raffles.id, raffleEntries.raffleId))
    .where(eq(raffleEntries.userId, userId))
    .orderBy(desc(raffleEntries.createdAt))
    .limit(100);
  return rows.map(({ entry, raffle }) => ({
    raffleId: raffle.id,
    title: raffle.title[locale],
    number: entry.number,
    prize: entry.prize === null ? null : prizeName(raffle, entry.prize, locale),
    claimedAt: entry.claimedAt?.toISOString() ?? null,
    at: entry.createdAt.toISOString(),
  }));
}

/** A prize by its index, named in the caller's language. */
const prizeName = (raffle: RaffleRow, index: number, locale: LocaleCode) => raffle.prizes[index]?.Name[locale] ?? String(index);

/** A command's answer about one raffle, in the caller's language: its title, its prizes and why it did nothing (a message key of the server's). */
async function answer<N extends RaffleShown['command']>(
  db: Database,
  { locale }: Caller,
  command: N,
  row: RaffleRow | null,
  refused: Refusal | null = null,
  pushed = false,
) {
  return {
    command,
    raffle: row && summary(row, locale),
    winners: row ? await winnersOf(db, row, locale) : [],
    counts: row?.drawnAt && row.kind === 'registration' ? await messageCounts(db, row.id) : null,
    refused: refused && refusalText({ locale }, refused),
    pushed,
  };
}

/** A refusal that names the raffle's state in the caller's language. */
const inState = (key: MessageKey, row: RaffleRow, locale: LocaleCode): Refusal => ({
  key,
  params: { state: message(locale, `raffleState.${stateOf(row)}`) },
});

/** Why a draw did not happen, as the operator is told. */
const drawRefusals: Record<Exclude<DrawRefusal, 'not found'> | 'drawn already', MessageKey> = {
  'not a registration raffle': 'refused.raffleNotRegistration',
  'drawn already': 'refused.raffleDrawnAlready',
  canceled: 'refused.raffleCanceled',
  'no public value': 'refused.raffleNoPublicValue',
};

/** Why a resend sent nothing, as the operator is told. */
const resendRefusals: Record<ResendRefusal, MessageKey> = {
  'not a winner': 'refused.raffleNotWinner',
  claimed: 'refused.rafflePrizeClaimed',
  'turned off': 'refused.raffleMessagesOff',
  'no contact': 'refused.raffleNoContact',
  'not sent': 'refused.raffleMessageNotSent',
};

async function find(db: Database, id: number): Promise<RaffleRow | null> {
  const [row] = await db.select().from(raffles).where(eq(raffles.id, id));
  return row ?? null;
}

/** Tells open raffle pages that a raffle was drawn; false when no server or backplane is reachable from here. */
async function announceDraw(app: FastifyInstance, raffleId: number): Promise<boolean> {
  if (!app.pusher) return false;
  await app.pusher.broadcast(hubEvents.raffleDrawn, [{ RaffleId: raffleId }]);
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
  format(result: RaffleShown): string {
    const { raffle, winners } = result;
    if (!raffle) return 'No such raffle (raffle list shows the ids).';
    const proof = raffle.commitment
      ? `\n\nCommitment    ${raffle.commitment}\nPublic source ${raffle.publicSource?.en ?? '-'}\nPublic value  ${orDash(raffle.publicValue)}\nDrawn         ${raffle.drawnAt ? time(raffle.drawnAt) : '-'}`
      : '';
    const counts = result.counts ? `, ${result.counts.told} told, ${result.counts.reminded} reminded, ${result.counts.claimed} claimed` : '';
    const drawn = winners.length
      ? `\n\nWinners (${winners.length}${counts})\n${indent(
          table(
            ['PLACE', 'NUMBER', 'USER', 'PRIZE', 'TOLD', 'REMINDED', 'CLAIMED'],
            winners.map((w) => [
              w.place,
              w.number,
              w.userId ?? '(deleted)',
              w.prize,
              w.toldAt ? time(w.toldAt) : '-',
              w.remindedAt ? time(w.remindedAt) : '-',
              w.claimedAt ? time(w.claimedAt) : '-',
            ]),
          ),
        )}`
      : '';
    // A refusal is a phrase of ours or a whole sentence of the messages, which has its full stop already.
    const refused = result.refused ? `\n\nNothing done: ${result.refused}${/[.。]$/.test(result.refused) ? '' : '.'}` : '';
    const pushed =
      result.command === 'raffle draw' && !result.refused
        ? `\n\n${result.pushed ? 'Open raffle pages were told.' : 'No server could be reached to tell open pages; they see the draw on their next load.'}`
        : '';
    const resent = result.command === 'raffle resend' && !result.refused ? '\n\nThe message of the win was sent again.' : '';
    return `${table(raffleHeaders, [raffleRow(raffle)])}${proof}${drawn}${refused}${pushed}${resent}`;
  },
  found: (result: RaffleShown) => result.raffle !== null && result.refused === null,
};

export default commandsPlugin('raffle', [
  handle(raffleCommands.create, {
    readFiles(rest) {
      if (rest.length !== 2 || rest[0] !== '--file') return { rest, attachment: null };
      try {
        const { json, coverBytes } = readDefinition(rest[1]);
        return { rest: ['--definition', json], attachment: coverBytes };
      } catch (error) {
        throw new UsageError(error instanceof Error ? error.message : String(error));
      }
    },
    async run(app, { definition }, caller) {
      let cover: string | null = null;
      if (caller.attachment) {
        try {
          cover = await storeCover(app.uploads.store('raffles'), caller.attachment);
        } catch (error) {
          // No room or no storage is told as the site tells a customer; anything else is the image's fault.
          const refused: Refusal = { key: error instanceof StorageError ? storageRefusal(error).messageKey : 'refused.coverNotImage' };
          return answer(app.db, caller, 'raffle create', null, refused);
        }
      }
      return answer(app.db, caller, 'raffle create', await createRaffle(app.db, caller.actor, definition, cover));
    },
    ...detail,
  }),
  handle(raffleCommands.entered, {
    async run(app, { user: key }, { locale }) {
      const user = await app.findUser(key);
      return { command: 'raffle entered', key, userId: user?.id ?? null, entries: user ? await enteredBy(app.db, user.id, locale) : null };
    },
    format: (result) =>
      !result.entries
        ? noUser(result.key)
        : result.entries.length
          ? table(
              ['RAFFLE', 'TITLE', 'NUMBER', 'PRIZE', 'CLAIMED', 'ENTERED'],
              result.entries.map((e) => [e.raffleId, e.title, e.number, orDash(e.prize), e.claimedAt ? time(e.claimedAt) : '-', time(e.at)]),
            )
          : 'No raffles entered.',
    found: (result) => result.userId !== null,
  }),
  handle(raffleCommands.entries, {
    async run(app, { id }) {
      if (!(await find(app.db, id))) return { command: 'raffle entries', raffleId: id, entries: null };
      const entries = await app.db
        .select({ number: raffleEntries.number, userId: raffleEntries.userId, at: raffleEntries.createdAt })
        .from(raffleEntries)
        .where(eq(raffleEntries.raffleId, id))
        .orderBy(asc(raffleEntries.number))
        .limit(raffleEntriesShown);
      return { command: 'raffle entries', raffleId: id, entries: entries.map((e) => ({ ...e, at: e.at.toISOString() })) };
    },
    format: (result) =>
      !result.entries
        ? 'No such raffle (raffle list shows the ids).'
        : result.entries.length
          ? table(
              ['NUMBER', 'USER', 'ENTERED'],
              result.entries.map((e) => [e.number, e.userId ?? '-', time(e.at)]),
            )
          : 'No entries yet.',
    found: (result) => result.entries !== null,
  }),
  handle(raffleCommands.list, {
    async run(app, args, { locale }) {
      const { rows, total } = await listRaffles(app.db, args);
      return { command: 'raffle list', rows: rows.map((row) => summary(row, locale)), total, page: args.page, size: args.size };
    },
    format: (result) => (result.rows.length ? `${table(raffleHeaders, result.rows.map(raffleRow))}\n\n${pageLine(result)}` : 'No raffles.'),
  }),
  handle(raffleCommands.show, {
    run: async (app, { id }, caller) => answer(app.db, caller, 'raffle show', await find(app.db, id)),
    ...detail,
  }),
  handle(raffleCommands.open, {
    async run(app, { id }, caller) {
      const { actor, locale } = caller;
      const row = await find(app.db, id);
      if (!row) return answer(app.db, caller, 'raffle open', null);
      if (stateOf(row) !== 'upcoming') return answer(app.db, caller, 'raffle open', row, inState('refused.raffleNotUpcoming', row, locale));
      const opened = await app.db.transaction(async (tx) => {
        const [changed] = await tx.update(raffles).set({ opensAt: new Date() }).where(eq(raffles.id, row.id)).returning();
        await recordAudit(tx, actor, {
          action: 'raffle open',
          target: `raffle ${row.id}`,
          before: { opensAt: row.opensAt },
          after: { opensAt: changed.opensAt },
        });
        return changed;
      });
      return answer(app.db, caller, 'raffle open', opened);
    },
    ...detail,
  }),
  handle(raffleCommands.close, {
    async run(app, { id }, caller) {
      const { actor, locale } = caller;
      const row = await find(app.db, id);
      if (!row) return answer(app.db, caller, 'raffle close', null);
      if (stateOf(row) !== 'open' && stateOf(row) !== 'upcoming')
        return answer(app.db, caller, 'raffle close', row, inState('refused.raffleNotOpen', row, locale));
      const closed = await app.db.transaction(async (tx) => {
        const [changed] = await tx.update(raffles).set({ closesAt: new Date() }).where(eq(raffles.id, row.id)).returning();
        await recordAudit(tx, actor, {
          action: 'raffle close',
          target: `raffle ${row.id}`,
          before: { closesAt: row.closesAt },
          after: { closesAt: changed.closesAt },
        });
        return changed;
      });
      return answer(app.db, caller, 'raffle close', closed);
    },
    ...detail,
  }),
  handle(raffleCommands.value, {
    async run(app, { id, value }, caller) {
      const { actor, locale } = caller;
      const row = await find(app.db, id);
      if (!row) return answer(app.db, caller, 'raffle value', null);
      // A value known while people can still register would let entries be placed to suit it.
      const state = stateOf(row);
      if (row.kind !== 'registration' || state !== 'closed')
        return answer(app.db, caller, 'raffle value', row, inState('refused.raffleValueEarly', row, locale));
      const changed = await app.db.transaction(async (tx) => {
        const [updated] = await tx.update(raffles).set({ publicValue: value }).where(eq(raffles.id, id)).returning();
        await recordAudit(tx, actor, {
          action: 'raffle value',
          target: `raffle ${id}`,
          before: { publicValue: row.publicValue },
          after: { publicValue: value },
        });
        return updated;
      });
      return answer(app.db, caller, 'raffle value', changed);
    },
    ...detail,
  }),
  handle(raffleCommands.draw, {
    async run(app, { id, publicValue }, caller) {
      const outcome = await drawRaffle(app.db, caller.actor, id, publicValue);
      if (!outcome.drawn)
        return answer(
          app.db,
          caller,
          'raffle draw',
          outcome.raffle,
          outcome.raffle && outcome.refused !== 'not found' ? { key: drawRefusals[outcome.refused] } : null,
        );
      // The draw stands whatever happens here: a look that fails is made again by the servers' next minute.
      if (app.hasDecorator('jobs'))
        await queueDue(app.db, app.jobs).catch((error: unknown) => app.log.warn({ err: error }, 'could not queue the winners’ messages'));
      return answer(app.db, caller, 'raffle draw', outcome.raffle, null, await announceDraw(app, id));
    },
    ...detail,
  }),
  handle(raffleCommands.resend, {
    async run(app, { id, number }, caller) {
      const row = await find(app.db, id);
      if (!row) return answer(app.db, caller, 'raffle resend', null);
      const outcome = await resend(app, caller.actor, id, number);
      if ('sent' in outcome) return answer(app.db, caller, 'raffle resend', row);
      const refused: Refusal = { key: resendRefusals[outcome.refused], params: { number: String(number), reason: outcome.why ?? '' } };
      return answer(app.db, caller, 'raffle resend', row, refused);
    },
    ...detail,
  }),
]);
