/**
 * Drawing a registration raffle and claiming its prizes. A draw locks the
 * raffle's row, so two draws started at once draw once: the second finds it
 * drawn. The winners follow from the committed seed, the public value and the
 * number of entrants alone (contract/raffle-draw.ts), which the draw then
 * publishes. A claim marks the entry and makes its grant in one transaction.
 */
import { and, count, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { ErrorCode } from '#contract/errors.ts';
import type { OwnResult, PrizeGrant } from '#contract/raffle.ts';
import { raffleRules } from '#contract/raffle.ts';
import { drawWinners } from '#contract/raffle-draw.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { raffleEntries, raffles } from '../../db/schema/raffle.ts';
import { ApiError } from '../../http/api-error.ts';
import { notFound, ownResult, type RaffleRow } from './raffles.ts';

/** The pg-boss schedule that draws raffles whose time has come. */
export const drawsJob = 'raffle-draws';

/** Why a draw did not happen, for the operator. */
export type DrawRefusal = 'not found' | 'not a registration raffle' | 'canceled' | 'no public value';

export type DrawOutcome = { drawn: true; raffle: RaffleRow } | { drawn: false; raffle: RaffleRow | null; refused: DrawRefusal | 'drawn already' };

/**
 * Draws raffle `id` now, ending its registration if still open. `publicValue`
 * is the one entered at the draw, or else the one entered before.
 */
export async function drawRaffle(db: Database, actor: Actor, id: number, publicValue?: string): Promise<DrawOutcome> {
  return db.transaction(async (tx) => {
    const [raffle] = await tx.select().from(raffles).where(eq(raffles.id, id)).for('update');
    if (!raffle) return { drawn: false, raffle: null, refused: 'not found' };
    if (raffle.kind !== 'registration') return { drawn: false, raffle, refused: 'not a registration raffle' };
    if (raffle.drawnAt) return { drawn: false, raffle, refused: 'drawn already' };
    if (raffle.canceledAt) return { drawn: false, raffle, refused: 'canceled' };
    const value = publicValue ?? raffle.publicValue;
    if (!value) return { drawn: false, raffle, refused: 'no public value' };

    const winners = await drawWinners({
      seed: raffle.seed!,
      publicValue: value,
      entrants: raffle.entrants,
      quantities: raffle.prizes.map((prize) => prize.Quantity),
    });
    if (winners.length > 0) {
      await tx.execute(sql`
        update raffle_entries set prize = won.prize, draw_order = won.place::int
        from unnest(${`{${winners.map((w) => w.number).join(',')}}`}::int[], ${`{${winners.map((w) => w.prize).join(',')}}`}::int[])
          with ordinality as won(number, prize, place)
        where raffle_entries.raffle_id = ${id} and raffle_entries.number = won.number`);
    }
    const [drawn] = await tx
      .update(raffles)
      .set({ publicValue: value, drawnAt: sql`now()`, closesAt: sql`least(${raffles.closesAt}, now())` })
      .where(eq(raffles.id, id))
      .returning();
    await recordAudit(tx, actor, {
      action: 'raffle draw',
      target: `raffle ${id}`,
      before: { publicValue: raffle.publicValue, entrants: raffle.entrants },
      after: { publicValue: value, winners: winners.length },
    });
    return { drawn: true, raffle: drawn };
  });
}

/** Registration raffles past their draw time, not drawn or canceled. */
const overdue = () => and(eq(raffles.kind, 'registration'), isNull(raffles.drawnAt), isNull(raffles.canceledAt), lte(raffles.drawAt, sql`now()`));

/** Overdue raffles with a public value entered: the scheduled draws to make. */
export async function dueDraws(db: Database): Promise<Array<{ id: number }>> {
  return db
    .select({ id: raffles.id })
    .from(raffles)
    .where(and(overdue(), isNotNull(raffles.publicValue)));
}

/** Overdue raffles still waiting for an operator to enter the public value. */
export async function waitingForValue(db: Database): Promise<Array<{ id: number }>> {
  return db
    .select({ id: raffles.id })
    .from(raffles)
    .where(and(overdue(), isNull(raffles.publicValue)));
}

/** How many prizes the user won and can still claim (within the claim window). */
export async function unclaimedPrizes(db: Database, userId: number): Promise<number> {
  const window = sql`make_interval(secs => ${raffleRules.claimWindowMs / 1000})`;
  const [{ prizes }] = await db
    .select({ prizes: count() })
    .from(raffleEntries)
    .innerJoin(raffles, eq(raffles.id, raffleEntries.raffleId))
    .where(and(eq(raffleEntries.userId, userId), isNotNull(raffleEntries.prize), isNull(raffleEntries.claimedAt), sql`${raffles.drawnAt} + ${window} > now()`));
  return prizes;
}

/** Makes a prize's grant inside the claim's transaction (the commerce module's). */
export type PrizeGranter = (tx: Transaction, userId: number, grant: PrizeGrant) => Promise<void>;

/** The caller takes their prize: once, within the claim window, with its grant in the same transaction. */
export async function claimPrize(db: Database, grantPrize: PrizeGranter, raffleId: number, userId: number): Promise<OwnResult> {
  await db.transaction(async (tx) => {
    const window = sql`make_interval(secs => ${raffleRules.claimWindowMs / 1000})`;
    const [claimed] = await tx
      .update(raffleEntries)
      .set({ claimedAt: sql`now()` })
      .where(
        and(
          eq(raffleEntries.raffleId, raffleId),
          eq(raffleEntries.userId, userId),
          isNotNull(raffleEntries.prize),
          isNull(raffleEntries.claimedAt),
          sql`exists (select 1 from ${raffles} where ${raffles.id} = ${raffleId} and ${raffles.drawnAt} + ${window} > now())`,
        ),
      )
      .returning({ prize: raffleEntries.prize });
    if (!claimed) {
      const result = await ownResult(tx, raffleId, userId);
      throw result.ClaimedAt ? new ApiError(ErrorCode.PrizeClaimed, 'prizeClaimed') : new ApiError(ErrorCode.PrizeUnclaimable, 'prizeUnclaimable');
    }
    const [raffle] = await tx.select({ prizes: raffles.prizes }).from(raffles).where(eq(raffles.id, raffleId));
    if (!raffle) throw notFound();
    const grant = raffle.prizes[claimed.prize!]?.Grant;
    if (grant) await grantPrize(tx, userId, grant);
  });
  return ownResult(db, raffleId, userId);
}
