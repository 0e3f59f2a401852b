/**
 * Tables of server/modules/raffle/: raffles, their registrations, and instant draws with their seeds.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { LocalizedText, Prize } from '#contract/raffle.ts';
import { createdAt } from './columns.ts';
import { users } from './identity.ts';

/**
 * A raffle (contract/raffle.ts). Registration raffles keep a running count of
 * entrants that hands out participation numbers: taking the next number and
 * writing the entry is one statement, so numbers are 1..N with no gap or
 * repeat. The seed stays secret until the draw; its hash is public from the
 * start. Instant raffles count their stock down instead.
 */
export const raffles = pgTable(
  'raffles',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['registration', 'instant'] }).notNull(),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    /** A stored file name (uploads/raffles), or null. */
    cover: text('cover'),
    prizes: jsonb('prizes').$type<Prize[]>().notNull(),
    opensAt: timestamp('opens_at', { withTimezone: true }).notNull(),
    closesAt: timestamp('closes_at', { withTimezone: true }).notNull(),
    drawAt: timestamp('draw_at', { withTimezone: true }),
    minAccountAgeDays: integer('min_account_age_days').notNull().default(0),
    entrants: integer('entrants').notNull().default(0),
    seed: text('seed'),
    seedHash: text('seed_hash'),
    publicSource: jsonb('public_source').$type<LocalizedText>(),
    publicValue: text('public_value'),
    drawnAt: timestamp('drawn_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /** Instant raffles: parts per million a draw wins, prizes left, draws per account. */
    odds: integer('odds'),
    stock: integer('stock'),
    perUserLimit: integer('per_user_limit'),
    createdAt: createdAt(),
  },
  (t) => [index('raffles_kind_opens').on(t.kind, t.opensAt), check('raffles_stock_not_negative', sql`${t.stock} >= 0`)],
);

/** A registration: one per user and raffle, each with its own number. A deleted account's entry keeps its number (the draw's input must not change), without a user. */
export const raffleEntries = pgTable(
  'raffle_entries',
  {
    raffleId: integer('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Set by the draw: the index of the prize won. */
    prize: integer('prize'),
    /** The order of the draw (0 first), for the public list. */
    drawOrder: integer('draw_order'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /**
     * A winner's messages (modules/raffle/winner-messages.ts): when the message of the win and the reminder were
     * queued (each once, in the transaction that queues its job) and when each went out.
     */
    wonQueuedAt: timestamp('won_queued_at', { withTimezone: true }),
    toldAt: timestamp('told_at', { withTimezone: true }),
    reminderQueuedAt: timestamp('reminder_queued_at', { withTimezone: true }),
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.raffleId, t.number] }),
    uniqueIndex('raffle_entries_user').on(t.raffleId, t.userId),
    // The raffles one user entered (the operators' look at a customer).
    index('raffle_entries_by_user').on(t.userId),
    // The console's dashboard counts the registrations per day.
    index('raffle_entries_created').on(t.createdAt),
    // The winners with a message still to queue: the minute's look walks only these.
    index('raffle_entries_to_tell')
      .on(t.raffleId)
      .where(sql`${t.prize} is not null and ${t.claimedAt} is null and ${t.reminderQueuedAt} is null`),
    index('raffle_entries_winners')
      .on(t.raffleId, t.drawOrder)
      .where(sql`${t.drawOrder} is not null`),
  ],
);

/** A user's server seed for an instant raffle: its hash is shown before any draw, the seed itself once rotated. */
export const instantSeeds = pgTable(
  'instant_seeds',
  {
    id: serial('id').primaryKey(),
    raffleId: integer('raffle_id')
      .notNull()
      .references(() => raffles.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seed: text('seed').notNull(),
    seedHash: text('seed_hash').notNull(),
    nextNonce: integer('next_nonce').notNull().default(0),
    revealedAt: timestamp('revealed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('instant_seeds_current')
      .on(t.raffleId, t.userId)
      .where(sql`${t.revealedAt} is null`),
  ],
);

/** One instant draw and its outcome. */
export const instantDraws = pgTable(
  'instant_draws',
  {
    id: serial('id').primaryKey(),
    seedId: integer('seed_id')
      .notNull()
      .references(() => instantSeeds.id, { onDelete: 'cascade' }),
    raffleId: integer('raffle_id').notNull(),
    userId: integer('user_id').notNull(),
    nonce: integer('nonce').notNull(),
    clientSeed: text('client_seed').notNull(),
    roll: integer('roll').notNull(),
    won: boolean('won').notNull(),
    soldOut: boolean('sold_out').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('instant_draws_nonce').on(t.seedId, t.nonce), index('instant_draws_user').on(t.raffleId, t.userId, t.id)],
);
