/**
 * Registration raffles: finding the one to show, the public lists, and
 * registering. A registration takes the raffle's next number and writes the
 * entry in one statement, under the raffle row's lock, so numbers are 1..N
 * with no gap or repeat however many register at once; registrations that
 * arrive together share that statement. A second registration of the same
 * user adds nothing and answers the number they have.
 */
import { and, asc, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { ErrorCode } from '#contract/errors.ts';
import { raffleRules, type OwnResult, type RaffleInfo, type RaffleState, type Registration, type Winner } from '#contract/raffle.ts';
import { drawAlgorithm } from '#contract/raffle-draw.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { raffleEntries, raffles } from '../../db/schema/raffle.ts';
import { users } from '../../db/schema/identity.ts';
import { ApiError } from '../../http/api-error.ts';
import { takeNumberInTurn } from './registration-batches.ts';

export type RaffleRow = typeof raffles.$inferSelect;

export function stateOf(row: RaffleRow, now = new Date()): RaffleState {
  if (row.canceledAt) return 'canceled';
  if (row.drawnAt) return 'drawn';
  if (now < row.opensAt) return 'upcoming';
  if (now >= row.closesAt || row.stock === 0) return 'closed';
  return 'open';
}

/** Builds the answers' cover URL from a stored file name. */
export type CoverUrl = (name: string) => string;

export function toInfo(row: RaffleRow, coverUrl: CoverUrl, now = new Date()): RaffleInfo {
  const instant = row.kind === 'instant';
  return {
    Id: row.id,
    Kind: row.kind,
    Title: row.title,
    Description: row.description,
    Cover: row.cover && coverUrl(row.cover),
    Prizes: row.prizes,
    State: stateOf(row, now),
    OpensAt: row.opensAt.toISOString(),
    ClosesAt: row.closesAt.toISOString(),
    DrawAt: row.drawAt?.toISOString() ?? null,
    DrawnAt: row.drawnAt?.toISOString() ?? null,
    MinAccountAgeDays: row.minAccountAgeDays,
    RegistrationCount: row.entrants,
    Proof: instant
      ? null
      : {
          Algorithm: drawAlgorithm,
          Commitment: row.seedHash!,
          PublicSource: row.publicSource!,
          // The seed stays secret until the draw; the public value, once entered, is public at once.
          PublicValue: row.publicValue,
          Seed: row.drawnAt ? row.seed : null,
          Entrants: row.entrants,
        },
    Instant: instant ? { Odds: row.odds!, Stock: row.stock!, PerUserLimit: row.perUserLimit! } : null,
  };
}

export function notFound(): ApiError {
  return new ApiError(ErrorCode.NotFound, 'raffleNotFound');
}

/**
 * A raffle by id, or the one to show of a kind: the open one closing first,
 * else the next to open, else the latest (drawn or closed). Canceled raffles
 * are only found by id.
 */
export async function findRaffle(db: Database, ref: number | 'current' | 'forthwith'): Promise<RaffleRow> {
  if (typeof ref === 'number') {
    const [row] = await db.select().from(raffles).where(eq(raffles.id, ref));
    if (!row) throw notFound();
    return row;
  }
  const kind = ref === 'current' ? 'registration' : 'instant';
  const open = sql`${raffles.opensAt} <= now() and ${raffles.closesAt} > now() and ${raffles.drawnAt} is null and coalesce(${raffles.stock}, 1) > 0`;
  const [row] = await db
    .select()
    .from(raffles)
    .where(and(eq(raffles.kind, kind), isNull(raffles.canceledAt)))
    .orderBy(
      sql`case when ${open} then 0 when ${raffles.opensAt} > now() then 1 else 2 end`,
      sql`case when ${raffles.opensAt} > now() or ${open} then ${raffles.closesAt} end asc`,
      desc(raffles.closesAt),
    )
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** Raffles, newest first, for the list of past and present ones. */
export async function rafflePage(db: Database, coverUrl: CoverUrl, page: number, size: number) {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(raffles)
      .where(isNull(raffles.canceledAt))
      .orderBy(desc(raffles.opensAt), desc(raffles.id))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ total: count() }).from(raffles).where(isNull(raffles.canceledAt)),
  ]);
  const now = new Date();
  return { Items: rows.map((row) => toInfo(row, coverUrl, now)), Total: total, Page: page };
}

/** Keeps the first and last character of a name, so a winner recognises themselves and nobody else learns much. */
export function maskName(name: string): string {
  const characters = Array.from(name.trim());
  if (characters.length <= 1) return `${characters[0] ?? ''}*`;
  if (characters.length === 2) return `${characters[0]}*`;
  return `${characters[0]}***${characters.at(-1)}`;
}

/** The winners of a drawn raffle in the order drawn; an account deleted since shows as a dash. */
export async function winnerPage(db: Database, raffleId: number, page: number, size: number) {
  const winners = and(eq(raffleEntries.raffleId, raffleId), isNotNull(raffleEntries.drawOrder));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ number: raffleEntries.number, prize: raffleEntries.prize, nickname: users.nickname })
      .from(raffleEntries)
      .leftJoin(users, eq(users.id, raffleEntries.userId))
      .where(winners)
      .orderBy(asc(raffleEntries.drawOrder))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ total: count() }).from(raffleEntries).where(winners),
  ]);
  const items: Winner[] = rows.map((row) => ({ Number: row.number, Name: row.nickname === null ? '-' : maskName(row.nickname), Prize: row.prize! }));
  return { Items: items, Total: total, Page: page };
}

/**
 * Registers `userId`. The fast path is one statement, shared with the
 * registrations of the same raffle that arrive with it
 * (registration-batches.ts): it takes the next number only if the raffle is
 * open, the user is old enough and not registered yet, and writes the entry
 * with it; a failing insert rolls the number back too. Only when it writes
 * nothing is the reason looked up.
 */
export async function register(db: Database, raffleId: number, userId: number): Promise<{ registration: Registration; fresh: boolean }> {
  const number = await takeNumberInTurn(db, raffleId, userId);
  if (number !== null) return { registration: { Number: number, Count: number }, fresh: true };
  return { registration: await whyNotRegistered(db, raffleId, userId), fresh: false };
}

async function whyNotRegistered(db: Database, raffleId: number, userId: number): Promise<Registration> {
  const [raffle] = await db.select().from(raffles).where(eq(raffles.id, raffleId));
  if (!raffle || raffle.kind !== 'registration') throw notFound();
  const { Number: number } = await ownResult(db, raffleId, userId);
  if (number !== null) return { Number: number, Count: raffle.entrants };
  if (stateOf(raffle) !== 'open') throw new ApiError(ErrorCode.RaffleNotOpen, 'raffleNotOpen');
  throw new ApiError(ErrorCode.RaffleIneligible, 'raffleIneligible', { days: String(raffle.minAccountAgeDays) });
}

export async function registrationCount(db: Database, raffleId: number): Promise<number> {
  const [row] = await db.select({ entrants: raffles.entrants }).from(raffles).where(eq(raffles.id, raffleId));
  if (!row) throw notFound();
  return row.entrants;
}

/** The caller's number (null when not registered) and, once drawn, their prize and until when to claim it. */
export async function ownResult(db: Database | Transaction, raffleId: number, userId: number): Promise<OwnResult> {
  const [row] = await db
    .select({ drawnAt: raffles.drawnAt, number: raffleEntries.number, prize: raffleEntries.prize, claimedAt: raffleEntries.claimedAt })
    .from(raffles)
    .leftJoin(raffleEntries, and(eq(raffleEntries.raffleId, raffles.id), eq(raffleEntries.userId, userId)))
    .where(eq(raffles.id, raffleId));
  if (!row) throw notFound();
  const won = row.drawnAt !== null && row.prize !== null;
  return {
    Number: row.number,
    Prize: won ? row.prize : null,
    ClaimBy: won ? new Date(row.drawnAt!.getTime() + raffleRules.claimWindowMs).toISOString() : null,
    ClaimedAt: row.claimedAt?.toISOString() ?? null,
  };
}
