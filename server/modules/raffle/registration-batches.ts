/**
 * Registration batching: a registration waits for its raffle's next
 * statement, which takes the next numbers for every registration that arrived
 * with it and writes their entries, under the raffle row's lock.
 *
 * Why batch: a rush of N registrations then costs a few statements instead of
 * N. PGlite runs one statement at a time in the server's thread, so one
 * statement per registration capped a rush at the speed of parsing and
 * planning it; on PostgreSQL the single statements would all have queued for
 * the raffle row's lock anyway. Numbers stay 1..N with no gap or repeat, in
 * the order the registrations arrived.
 */
import { sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors.ts';
import { rowsOf, type Database } from '../../db/database.ts';
/** A registration waiting for its raffle's next statement: settled with the number it took, or null when it took none. */
interface Waiting {
  userId: number;
  settle: (number: number | null) => void;
  fail: (error: unknown) => void;
}

/**
 * Per database, the raffles with a registration statement about to run or
 * running, each with the registrations waiting for it or, once it runs, for
 * the next, which takes them all (up to `batchLimit`).
 */
const running = new WeakMap<Database, Map<number, Waiting[]>>();
const batchLimit = 500;

/**
 * Takes `userId`'s next number of the raffle together with the registrations
 * that arrive with it: the number written, or null when the raffle is not
 * open, the user is too new or already registered (the caller looks up which).
 */
export function takeNumberInTurn(db: Database, raffleId: number, userId: number): Promise<number | null> {
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
