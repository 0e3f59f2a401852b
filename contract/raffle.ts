/**
 * Raffles (`/raffle`): registration raffles,
 * drawn at a set time from a committed seed and a public value anyone can
 * check (raffle-draw.ts), and instant raffles, where each draw is decided at
 * once by a provably fair roll. Every call is plain JSON under `raffleBase`,
 * at the paths the product has always used; answers carry every locale's text, so one cached
 * answer serves every reader.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { MembershipGrant, WalletGrant } from './grants.ts';
import { paged } from './paging.ts';
import { facts, periodMs } from './facts.ts';
import { Empty, text } from './fields.ts';
import { localeCodes } from './locales.ts';

/** Odds and rolls are in parts per million (the draws: raffle-draw.ts). */
export const rollRange = 1_000_000;

/** Every raffle call lives under this path. */
export const raffleBase = '/komaasharu/raffle';

/** Where raffle cover images are served, under the API base. */
export const raffleCoversPath = '/raffle-covers';

export const raffleRules = {
  /** A winner claims the prize within this long of the draw (content/facts.json `raffle.claimWindow`). */
  claimWindowMs: periodMs(facts.raffle.claimWindow),
  /** A winner who has not claimed is reminded this long before the claim window closes (`raffle.claimReminderBefore`). */
  claimReminderBeforeMs: periodMs(facts.raffle.claimReminderBefore),
  /** The largest page of winners or raffles one call answers; the verify page reads a draw's winners in pages this big. */
  maxPageSize: 100,
  /** A client seed for the instant raffle: what the user types, or the random one their browser made. */
  clientSeedMaxLength: 64,
} as const;

/** How long the site keeps each answer, and how long paging waits for the reader to stop clicking. */
export const raffleCacheMs = { info: 60_000, result: 60_000, registration: 360_000, pagingDebounce: 300 } as const;

/** A text in every interface language. */
export const LocalizedText = z.record(z.enum(localeCodes), text(z.minLength(1), z.maxLength(4000)));
export type LocalizedText = z.infer<typeof LocalizedText>;

/** What a claimed prize gives at once: wallet credit or days of cloud idling, like a cdkey. */
export const PrizeGrant = z.discriminatedUnion('Kind', [WalletGrant, MembershipGrant]);
export type PrizeGrant = z.infer<typeof PrizeGrant>;

/** A prize: with a grant, claiming it gives the grant; without one, an operator delivers it (a game key, goods). */
export const Prize = z.object({ Name: LocalizedText, Quantity: z.int().check(z.positive(), z.maximum(10_000)), Grant: z.nullable(PrizeGrant) });
export type Prize = z.infer<typeof Prize>;

export const RaffleKind = z.enum(['registration', 'instant']);
export type RaffleKind = z.infer<typeof RaffleKind>;

/** upcoming → open → closed (registration over, the draw to come) → drawn; canceled by an operator at any point before the draw. Instant raffles are upcoming, open, or closed (ended or out of stock). */
export const RaffleState = z.enum(['upcoming', 'open', 'closed', 'drawn', 'canceled']);
export type RaffleState = z.infer<typeof RaffleState>;

const Hex64 = text(z.regex(/^[0-9a-f]{64}$/));
const Instant = z.iso.datetime();

/** What makes a registration raffle's draw checkable: the commitment from the start, the seed and public value once drawn. */
export const DrawProof = z.object({
  Algorithm: text(),
  /** SHA-256 of the seed, published when the raffle was made. */
  Commitment: Hex64,
  /** Which public value the draw will use, named at creation (for example a lottery's draw and its date). */
  PublicSource: LocalizedText,
  /** Both null until the draw. */
  PublicValue: z.nullable(text()),
  Seed: z.nullable(Hex64),
  /** How many took part: participation numbers 1..Entrants (the registration count until the draw). */
  Entrants: z.int(),
});
export type DrawProof = z.infer<typeof DrawProof>;

/** The terms of an instant raffle. */
export const InstantTerms = z.object({
  /** Parts per million that a draw wins (while stock lasts). */
  Odds: z.int().check(z.minimum(1), z.maximum(rollRange)),
  /** Prizes left. */
  Stock: z.int(),
  /** Draws each account may make. */
  PerUserLimit: z.int(),
});
export type InstantTerms = z.infer<typeof InstantTerms>;

export const RaffleInfo = z.object({
  Id: z.int(),
  Kind: RaffleKind,
  Title: LocalizedText,
  Description: LocalizedText,
  /** An image URL, or null. */
  Cover: z.nullable(text()),
  Prizes: z.array(Prize),
  State: RaffleState,
  OpensAt: Instant,
  ClosesAt: Instant,
  /** Registration raffles: when the draw is due; instant raffles: null. */
  DrawAt: z.nullable(Instant),
  DrawnAt: z.nullable(Instant),
  /** An account must be at least this many days old to take part. */
  MinAccountAgeDays: z.int(),
  RegistrationCount: z.int(),
  Proof: z.nullable(DrawProof),
  Instant: z.nullable(InstantTerms),
});
export type RaffleInfo = z.infer<typeof RaffleInfo>;

/** One winner on the public list: the participation number, the name masked, the prize's index in `Prizes`. */
export const Winner = z.object({ Number: z.int(), Name: text(), Prize: z.int() });
export type Winner = z.infer<typeof Winner>;

/** The caller's own part in a registration raffle. */
export const OwnResult = z.object({
  /** Null when not registered. */
  Number: z.nullable(z.int()),
  /** The index of the prize won in `Prizes`; null when not drawn yet or not won. */
  Prize: z.nullable(z.int()),
  /** Until when a won prize can be claimed; when it was. */
  ClaimBy: z.nullable(Instant),
  ClaimedAt: z.nullable(Instant),
});
export type OwnResult = z.infer<typeof OwnResult>;

export const Registration = z.object({ Number: z.int(), Count: z.int() });
export type Registration = z.infer<typeof Registration>;

/** One instant draw, with what it takes to check it: the seed's hash, and the seed once rotated. */
export const InstantDraw = z.object({
  Nonce: z.int(),
  ClientSeed: text(),
  SeedHash: Hex64,
  Seed: z.nullable(Hex64),
  /** 0..999,999; below the odds wins. */
  Roll: z.int(),
  /** The roll won and a prize was left: the prize is the user's. */
  Won: z.boolean(),
  /** The roll won but the stock was gone. */
  SoldOut: z.boolean(),
  At: Instant,
});
export type InstantDraw = z.infer<typeof InstantDraw>;

/** The user's seeds for one instant raffle and their draws, newest first. */
export const InstantHistory = z.object({ SeedHash: Hex64, NextNonce: z.int(), Draws: z.array(InstantDraw) });
export type InstantHistory = z.infer<typeof InstantHistory>;

const ClientSeed = text(z.regex(/^[\w-]+$/), z.minLength(1), z.maxLength(raffleRules.clientSeedMaxLength));

const number = (max: number) => z.pipe(text(z.regex(/^[0-9]{1,7}$/)), z.pipe(z.transform(Number), z.int().check(z.positive(), z.maximum(max))));
const raffleId = number(2_147_483_647);
const id = z.object({ id: raffleId });
const pageOf = { a: number(100_000), b: number(raffleRules.maxPageSize) };

/** `GET {path}`: a raffle by id, or `current` (the registration raffle to show now) or `forthwith` (the instant raffle running). */
export const RaffleRef = z.union([z.literal('current'), z.literal('forthwith'), raffleId]);

const call = <const M extends 'GET' | 'POST', const P extends string>(method: M, path: P) => ({
  method,
  path: `${raffleBase}${path}` as const,
  encrypted: false as const,
  shape: 'envelope' as const,
});

export const raffleCalls = {
  info: route({ ...call('GET', '/:id'), auth: 'none', params: z.object({ id: RaffleRef }), request: Empty, response: RaffleInfo }),
  /** Winners of a drawn raffle, page `a` of `b` each, in the order drawn. */
  winners: route({ ...call('GET', '/:id/result/:a/:b'), auth: 'none', params: z.object({ id: raffleId, ...pageOf }), request: Empty, response: paged(Winner) }),
  isRegistration: route({ ...call('GET', '/:id/isRegistration'), auth: 'required', params: id, request: Empty, response: z.boolean() }),
  participationNumber: route({ ...call('GET', '/:id/participationNumber'), auth: 'required', params: id, request: Empty, response: z.nullable(z.int()) }),
  /** Registers the caller; registering again answers the number they have. */
  registration: route({ ...call('POST', '/:id/registration'), auth: 'required', params: id, request: Empty, response: Registration }),
  forthwithRaffle: route({
    ...call('POST', '/:id/forthwithRaffle'),
    auth: 'required',
    params: id,
    request: z.object({ ClientSeed }),
    response: z.object({ Draw: InstantDraw, Left: z.int(), Stock: z.int() }),
  }),
  result: route({ ...call('GET', '/:id/result'), auth: 'required', params: id, request: Empty, response: OwnResult }),
  registrationCount: route({ ...call('GET', '/:id/registrationCount'), auth: 'required', params: id, request: Empty, response: z.int() }),
  /** Raffles, newest first, page `a` of `b` each. */
  list: route({ ...call('GET', '/list/:a/:b'), auth: 'none', params: z.object(pageOf), request: Empty, response: paged(RaffleInfo) }),
  forthwithRaffleResults: route({ ...call('GET', '/:id/forthwithRaffleResults'), auth: 'required', params: id, request: Empty, response: InstantHistory }),
  /** Beyond the product's own raffle calls: a winner takes the prize (within the claim window). */
  claim: route({ ...call('POST', '/:id/claim'), auth: 'required', params: id, request: Empty, response: OwnResult }),
  /** Beyond the product's own raffle calls: reveals the caller's instant-raffle seed, so their draws under it can be checked, and starts a new one. */
  rotateSeed: route({ ...call('POST', '/:id/forthwithSeed'), auth: 'required', params: id, request: Empty, response: InstantHistory }),
};

/**
 * A raffle as an operator describes it: the JSON file of `npm run admin -- raffle
 * create --file` (docs/tour.md, "Raffles"), or the console's new raffle. Checked in
 * full before anything is written.
 */
export const RaffleDefinition = z
  .strictObject({
    Kind: RaffleKind,
    Title: LocalizedText,
    Description: LocalizedText,
    /** An image file (PNG, JPEG or WebP), relative to the definition file (the CLI's; the console uploads it). */
    Cover: z.optional(text(z.minLength(1), z.maxLength(500))),
    Prizes: z.array(Prize).check(z.minLength(1), z.maxLength(20)),
    OpensAt: z.iso.datetime({ offset: true }),
    ClosesAt: z.iso.datetime({ offset: true }),
    /** Registration raffles: when the draw is due, at or after ClosesAt. */
    DrawAt: z.optional(z.iso.datetime({ offset: true })),
    MinAccountAgeDays: z.optional(z.int().check(z.minimum(0), z.maximum(3650))),
    /** Registration raffles: the public value the draw will use, named now (for example "the Shuang Se Qiu draw of 2026-12-03"). */
    PublicSource: z.optional(LocalizedText),
    /** Instant raffles: the odds in parts per million and the draws per account; the stock is the one prize's quantity. */
    Odds: z.optional(InstantTerms.shape.Odds),
    PerUserLimit: z.optional(z.int().check(z.positive(), z.maximum(1000))),
  })
  .check(
    z.refine((d) => Date.parse(d.OpensAt) < Date.parse(d.ClosesAt), { message: 'OpensAt must come before ClosesAt', path: ['ClosesAt'] }),
    z.refine((d) => d.Kind !== 'registration' || (d.DrawAt !== undefined && Date.parse(d.DrawAt) >= Date.parse(d.ClosesAt)), {
      message: 'a registration raffle needs DrawAt, at or after ClosesAt',
      path: ['DrawAt'],
    }),
    z.refine((d) => d.Kind !== 'registration' || d.PublicSource !== undefined, { message: 'a registration raffle needs PublicSource', path: ['PublicSource'] }),
    z.refine((d) => d.Kind !== 'instant' || (d.Odds !== undefined && d.PerUserLimit !== undefined && d.Prizes.length === 1), {
      message: 'an instant raffle needs Odds, PerUserLimit and exactly one prize',
      path: ['Odds'],
    }),
  );
export type RaffleDefinition = z.infer<typeof RaffleDefinition>;
