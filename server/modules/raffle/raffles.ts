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
import { isUniqueViolation } from '../../db/errors.ts';
import { rowsOf, type Database, type Transaction } from '../../db/database.ts';
import { raffleEntries, raffles } from '../../db/schema/raffle.ts';
import { users } from '../../db/schema/identity.ts';
import { ApiError } from '../../http/api-error.ts';

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
 * registrations of the same raffle that arrive with it (`inTurn`): it takes
 * the next number only if the raffle is open, the user is old enough and not
 * registered yet, and writes the entry with it; a failing insert rolls the
 * number back too. Only when it writes nothing is the reason looked up.
 */
export async function register(db: Database, raffleId: number, userId: number): Promise<{ registration: Registration; fresh: boolean }> {
  const number = await inTurn(db, raffleId, userId);
  if (number !== null) return { registration: { Number: number, Count: number }, fresh: true };
  return { registration: await whyNotRegistered(db, raffleId, userId), fresh: false };
}

/** A registration waiting for its raffle's next statement: settled with the number it took, or null when it took none. */
interface Waiting {
  userId: number;
  settle: (number: number | null) => void;
  fail: (error: unknown) => void;
}

/**
 * Per database, the raffles with a registration statement about to run or
 * running, each with the registrations waiting for it or, once it runs, for
 * the next, which takes them all (up to `batchLimit`). A rush of N
 * registrations costs a few statements instead of N: PGlite runs one
 * statement at a time, and on PostgreSQL they would all have queued for the
 * raffle row's lock anyway.
 */
const running = new WeakMap<Database, Map<number, Waiting[]>>();
const batchLimit = 500;

function inTurn(db: Database, raffleId: number, userId: number): Promise<number | null> {
  return new Promise((settle, fail) => {
    let raffleQueues = running.get(db);
    if (!raffleQueues) running.set(db, (raffleQueues = new Map()));
    const queue = raffleQueues.get(raffleId);
    if (queue) {
      queue.push({ userId, settle, fail });
      return;
    }
    const started: Waiting[] = [{ userId, settle, fail }];
    raffleQueues.set(raffleId, started);
    // After the requests read with this one have queued too: PGlite runs in this thread, so while its statement runs none arrive.
    setImmediate(() => void drain(db, raffleQueues, raffleId, started));
  });
}

async function drain(db: Database, raffleQueues: Map<number, Waiting[]>, raffleId: number, queue: Waiting[]): Promise<void> {
  while (queue.length > 0) {
    const batch = queue.splice(0, batchLimit);
    await takeNumbers(db, raffleId, batch).catch((error: unknown) => batch.forEach((waiting) => waiting.fail(error)));
  }
  raffleQueues.delete(raffleId);
}

/**
 * Takes numbers for a batch, in the order it arrived, and settles each
 * waiting registration. Several users go in one statement; one user alone,
 * or a batch whose statement failed (say a user registering on two instances
 * at once), one statement each, as they would have alone.
 */
async function takeNumbers(db: Database, raffleId: number, batch: Waiting[]): Promise<void> {
  const userIds = [...new Set(batch.map((waiting) => waiting.userId))];
  if (userIds.length > 1) {
    let taken: Map<number, number> | null = null;
    try {
      const rows = rowsOf<{ user_id: number; number: number }>(await db.execute(takeManySql(raffleId, userIds)));
      taken = new Map(rows.map((row) => [row.user_id, row.number]));
    } catch {
      // Each on its own below: its own statement decides its answer.
    }
    if (taken) {
      for (const waiting of batch) {
        // A user twice in the batch: the first gets the number, the second answers it as a repeat.
        waiting.settle(taken.get(waiting.userId) ?? null);
        taken.delete(waiting.userId);
      }
      return;
    }
  }
  await Promise.all(batch.map((waiting) => takeNumber(db, raffleId, waiting.userId).then(waiting.settle, waiting.fail)));
}

/** One user's number, or null when they took none. */
async function takeNumber(db: Database, raffleId: number, userId: number): Promise<number | null> {
  try {
    const [taken] = rowsOf<{ number: number }>(
      await db.execute(sql`
        with taken as (
          update raffles set entrants = entrants + 1
          where id = ${raffleId} and kind = 'registration' and canceled_at is null and drawn_at is null
            and opens_at <= now() and closes_at > now()
            and not exists (select 1 from raffle_entries where raffle_id = ${raffleId} and user_id = ${userId})
            and exists (select 1 from users where id = ${userId} and created_at <= now() - make_interval(days => raffles.min_account_age_days))
          returning entrants
        )
        insert into raffle_entries (raffle_id, number, user_id) select ${raffleId}, entrants, ${userId} from taken returning number`),
    );
    return taken?.number ?? null;
  } catch (error) {
    // The same user registering at the same moment: their other request took the number.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/**
 * The same for several users at once: the ones old enough and not registered
 * yet take the next numbers in the order given, all under the one update of
 * the raffle row, which adds exactly as many as are written.
 */
function takeManySql(raffleId: number, userIds: number[]) {
  return sql`
    with eligible as (
      select wanting.user_id, row_number() over (order by wanting.arrival) as place
      from unnest(${`{${userIds.join(',')}}`}::int[]) with ordinality as wanting(user_id, arrival)
        join users on users.id = wanting.user_id
        join raffles on raffles.id = ${raffleId}
      where users.created_at <= now() - make_interval(days => raffles.min_account_age_days)
        and not exists (select 1 from raffle_entries where raffle_id = ${raffleId} and user_id = wanting.user_id)
    ),
    taken as (
      update raffles set entrants = entrants + (select count(*) from eligible)
      where id = ${raffleId} and kind = 'registration' and canceled_at is null and drawn_at is null
        and opens_at <= now() and closes_at > now()
        and exists (select 1 from eligible)
      returning entrants
    )
    insert into raffle_entries (raffle_id, number, user_id)
    select ${raffleId}, taken.entrants - (select count(*) from eligible) + eligible.place, eligible.user_id
    from taken cross join eligible
    returning user_id, number`;
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
