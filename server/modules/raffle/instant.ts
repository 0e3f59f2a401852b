/**
 * Instant raffles: each draw is decided at once by a provably fair roll
 * (contract/raffle-draw.ts `instantRoll`) from the user's current server seed,
 * their client seed and the seed's next nonce. The user's seed row is locked
 * for the draw, so their draws take nonces one by one and stay within the
 * limit; a winning roll takes a prize only if the stock, counted down in one
 * statement, still has one, so the stock can never be over-given.
 */
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { ErrorCode } from '#contract/errors.ts';
import type { InstantDraw, InstantHistory } from '#contract/raffle.ts';
import { commitmentOf, instantRoll, newSeed } from '#contract/raffle-draw.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { instantDraws, instantSeeds, raffles } from '../../db/schema/raffle.ts';
import { ApiError } from '../../http/api-error.ts';
import type { PrizeGranter } from './draws.ts';
import { notFound, stateOf } from './raffles.ts';

/** How many of their draws the history shows, newest first. */
const historyLength = 100;

type SeedRow = typeof instantSeeds.$inferSelect;

/** The user's current (unrevealed) seed for the raffle, locked until the transaction ends; made on first use. */
async function currentSeed(tx: Transaction, raffleId: number, userId: number): Promise<SeedRow> {
  const seed = newSeed();
  await tx.execute(sql`
    insert into instant_seeds (raffle_id, user_id, seed, seed_hash) values (${raffleId}, ${userId}, ${seed}, ${await commitmentOf(seed)})
    on conflict (raffle_id, user_id) where revealed_at is null do nothing`);
  const [row] = await tx
    .select()
    .from(instantSeeds)
    .where(and(eq(instantSeeds.raffleId, raffleId), eq(instantSeeds.userId, userId), isNull(instantSeeds.revealedAt)))
    .for('update');
  return row;
}

async function instantRaffle(db: Database | Transaction, raffleId: number) {
  const [raffle] = await db.select().from(raffles).where(eq(raffles.id, raffleId));
  if (!raffle || raffle.kind !== 'instant') throw notFound();
  return raffle;
}

export async function drawInstant(
  db: Database,
  grantPrize: PrizeGranter,
  raffleId: number,
  userId: number,
  clientSeed: string,
): Promise<{ Draw: InstantDraw; Left: number; Stock: number }> {
  return db.transaction(async (tx) => {
    const raffle = await instantRaffle(tx, raffleId);
    if (stateOf(raffle) !== 'open') throw new ApiError(ErrorCode.RaffleNotOpen, 'raffleNotOpen');
    const seed = await currentSeed(tx, raffleId, userId);
    const [{ made }] = await tx
      .select({ made: count() })
      .from(instantDraws)
      .where(and(eq(instantDraws.raffleId, raffleId), eq(instantDraws.userId, userId)));
    if (made >= raffle.perUserLimit!) throw new ApiError(ErrorCode.RaffleDrawLimit, 'raffleDrawLimit');

    const nonce = seed.nextNonce;
    const roll = await instantRoll(seed.seed, clientSeed, nonce);
    await tx
      .update(instantSeeds)
      .set({ nextNonce: nonce + 1 })
      .where(eq(instantSeeds.id, seed.id));
    let won = false;
    let stock = raffle.stock!;
    if (roll < raffle.odds!) {
      const [left] = await tx
        .update(raffles)
        .set({ stock: sql`${raffles.stock} - 1` })
        .where(and(eq(raffles.id, raffleId), sql`${raffles.stock} > 0`))
        .returning({ stock: raffles.stock });
      won = left !== undefined;
      stock = left?.stock ?? 0;
    }
    const [row] = await tx
      .insert(instantDraws)
      .values({ seedId: seed.id, raffleId, userId, nonce, clientSeed, roll, won, soldOut: roll < raffle.odds! && !won })
      .returning();
    const grant = raffle.prizes[0]?.Grant;
    if (won && grant) await grantPrize(tx, userId, grant);
    return { Draw: toDraw(row, seed), Left: raffle.perUserLimit! - made - 1, Stock: stock };
  });
}

function toDraw(row: typeof instantDraws.$inferSelect, seed: SeedRow): InstantDraw {
  return {
    Nonce: row.nonce,
    ClientSeed: row.clientSeed,
    SeedHash: seed.seedHash,
    Seed: seed.revealedAt ? seed.seed : null,
    Roll: row.roll,
    Won: row.won,
    SoldOut: row.soldOut,
    At: row.createdAt.toISOString(),
  };
}

async function history(tx: Transaction, raffleId: number, userId: number, current: SeedRow): Promise<InstantHistory> {
  const draws = await tx
    .select()
    .from(instantDraws)
    .where(and(eq(instantDraws.raffleId, raffleId), eq(instantDraws.userId, userId)))
    .orderBy(desc(instantDraws.id))
    .limit(historyLength);
  const seedIds = [...new Set(draws.map((draw) => draw.seedId))];
  const seeds = seedIds.length ? await tx.select().from(instantSeeds).where(inArray(instantSeeds.id, seedIds)) : [];
  const seedOf = new Map(seeds.map((seed) => [seed.id, seed]));
  return { SeedHash: current.seedHash, NextNonce: current.nextNonce, Draws: draws.map((draw) => toDraw(draw, seedOf.get(draw.seedId)!)) };
}

/** The user's current seed hash and their draws, newest first. */
export async function instantHistory(db: Database, raffleId: number, userId: number): Promise<InstantHistory> {
  await instantRaffle(db, raffleId);
  return db.transaction(async (tx) => history(tx, raffleId, userId, await currentSeed(tx, raffleId, userId)));
}

/** Reveals the user's current seed, so their draws under it can be checked, and starts a new one. */
export async function rotateSeed(db: Database, raffleId: number, userId: number): Promise<InstantHistory> {
  await instantRaffle(db, raffleId);
  return db.transaction(async (tx) => {
    const old = await currentSeed(tx, raffleId, userId);
    await tx
      .update(instantSeeds)
      .set({ revealedAt: sql`now()` })
      .where(eq(instantSeeds.id, old.id));
    return history(tx, raffleId, userId, await currentSeed(tx, raffleId, userId));
  });
}
