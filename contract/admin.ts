/**
 * The operators' endpoint (`npm run admin` → a running server): the words of
 * one command in, its result out. Only the server's own machine may call it,
 * with the token the server wrote to `<DATA_DIR>/admin.json`; to anyone else
 * the path does not exist.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { multilineText, text } from './fields.ts';
import { CloudIdleStatus } from './realtime.ts';
import { IdleGame } from './idle-games.ts';
import { CdkeyGrant, Redemption } from './activation.ts';
import { LoginEvent } from './account.ts';
import { Agreement } from './agreements.ts';
import { LedgerEntry, Order, OrderHistory, Product } from './commerce.ts';
import { LocalizedText, RaffleKind, RaffleState } from './raffle.ts';
import { ServiceStatus, StatusIncident } from './status.ts';

/** The largest file a command takes (a raffle's cover image), and its length as base64. */
export const attachmentMaxBytes = 8 * 1024 * 1024;
export const attachmentMaxBase64 = Math.ceil(attachmentMaxBytes / 3) * 4;
/** A file sent with a command, as base64: the console's upload, or a file the CLI read on the operator's machine. */
export const Attachment = text(z.maxLength(attachmentMaxBase64));

export const adminTokenHeader = 'x-admin-token';

const Timestamp = text();

export const UserSummary = z.object({
  id: z.int(),
  phone: z.nullable(text()),
  email: z.nullable(text()),
  nickname: text(),
  createdAt: Timestamp,
  activeSessions: z.int(),
});
export type UserSummary = z.infer<typeof UserSummary>;

export const UserDetail = z.object({
  id: z.int(),
  phone: z.nullable(text()),
  email: z.nullable(text()),
  nickname: text(),
  hasPassword: z.boolean(),
  createdAt: Timestamp,
  externalAccounts: z.array(z.object({ id: z.int(), provider: text(), subject: text(), displayName: text(), boundAt: Timestamp })),
  activeSessions: z.array(z.object({ id: text(), device: text(), deviceId: text(), createdAt: Timestamp, lastSeenAt: Timestamp })),
  /** The latest login attempts, newest first, as the account centre shows the user. */
  loginHistory: z.array(LoginEvent),
});
export type UserDetail = z.infer<typeof UserDetail>;

export const MigrationStatus = z.object({ tag: text(), createdAt: Timestamp, applied: z.boolean() });
export type MigrationStatus = z.infer<typeof MigrationStatus>;

/** What a backup holds: rows of the main tables and the uploaded files. */
export const BackupCounts = z.object({ users: z.int(), orders: z.int(), ledgerEntries: z.int(), raffles: z.int(), raffleEntries: z.int(), files: z.int() });
export type BackupCounts = z.infer<typeof BackupCounts>;

export const CdkeyBatch = z.object({
  name: text(),
  grant: CdkeyGrant,
  count: z.int(),
  used: z.int(),
  revoked: z.int(),
  expiresAt: z.nullable(Timestamp),
  createdAt: Timestamp,
});

export const CdkeyState = z.object({
  batch: text(),
  grant: CdkeyGrant,
  expiresAt: z.nullable(Timestamp),
  usedBy: z.nullable(z.int()),
  usedAt: z.nullable(Timestamp),
  revokedAt: z.nullable(Timestamp),
  order: z.nullable(text()),
});

/** A donation as operators look it over: who gave, how much (fen), the name it thanks, and whether that name is hidden. */
export const DonationEntry = z.object({
  id: z.int(),
  userId: z.nullable(z.int()),
  amount: z.int(),
  name: z.nullable(text()),
  hidden: z.boolean(),
  at: Timestamp,
});
export type DonationEntry = z.infer<typeof DonationEntry>;

/** A raffle as operators see it: never its seed before the draw. */
export const RaffleSummary = z.object({
  id: z.int(),
  kind: RaffleKind,
  title: text(),
  state: RaffleState,
  opensAt: Timestamp,
  closesAt: Timestamp,
  drawAt: z.nullable(Timestamp),
  drawnAt: z.nullable(Timestamp),
  entrants: z.int(),
  /** Instant raffles: prizes left. */
  stock: z.nullable(z.int()),
  commitment: z.nullable(text()),
  publicSource: z.nullable(LocalizedText),
  publicValue: z.nullable(text()),
});
export type RaffleSummary = z.infer<typeof RaffleSummary>;

/** A raffle a user entered: which, their number, the prize they won (its English name; null: none, or not drawn) and when they claimed it. */
export const RaffleEntryOfUser = z.object({
  raffleId: z.int(),
  title: text(),
  number: z.int(),
  prize: z.nullable(text()),
  claimedAt: z.nullable(Timestamp),
  at: Timestamp,
});

export type RaffleEntryOfUser = z.infer<typeof RaffleEntryOfUser>;

/** One entry of a raffle: its number, who, and when. */
export const RaffleEntryOfRaffle = z.object({ number: z.int(), userId: z.nullable(z.int()), at: Timestamp });

/** A drawn winner, for delivering prizes: who, which prize, and whether they claimed it. */
export const RaffleWinnerEntry = z.object({ place: z.int(), number: z.int(), userId: z.nullable(z.int()), prize: text(), claimedAt: z.nullable(Timestamp) });
export type RaffleWinnerEntry = z.infer<typeof RaffleWinnerEntry>;

/** A plugin review as operators see it: who wrote it, and what reports it drew. */
export const EvaluationEntry = z.object({
  id: z.int(),
  plugin: text(),
  userId: z.int(),
  rating: z.int(),
  text: multilineText(),
  helpful: z.int(),
  hidden: z.boolean(),
  reports: z.int(),
  reasons: z.array(text()),
  createdAt: Timestamp,
});
export type EvaluationEntry = z.infer<typeof EvaluationEntry>;

/** A server key pair that opens sealed calls: the SHA-256 of its public key (DER, hex), and until when a retired one still does (null: the current key). */
export const ServerKeyInUse = z.object({ fingerprint: text(), acceptedUntil: z.nullable(Timestamp) });
export type ServerKeyInUse = z.infer<typeof ServerKeyInUse>;

/**
 * Who may run the shop, each role including the one before it: support reads
 * customers and orders (and refunds up to a limit); an operator also runs
 * cdkeys, raffles, reviews, status and fulfilment; an admin also grants roles
 * and reads the audit log.
 */
export const operatorRoles = ['support', 'operator', 'admin'] as const;
export const OperatorRole = z.enum(operatorRoles);
export type OperatorRole = z.infer<typeof OperatorRole>;

export const OperatorEntry = z.object({
  userId: z.int(),
  phone: z.nullable(text()),
  email: z.nullable(text()),
  nickname: text(),
  role: OperatorRole,
  grantedAt: Timestamp,
  /** Until when wrong codes have locked their console sign-in (`role unlock` lifts it), or null. */
  lockedUntil: z.nullable(Timestamp),
});
export type OperatorEntry = z.infer<typeof OperatorEntry>;

/** One line of the audit log: who did what to which record, when and from where, and the record before and after. */
export const AuditEntry = z.object({
  id: z.int(),
  at: Timestamp,
  actor: text(),
  actorUserId: z.nullable(z.int()),
  address: z.nullable(text()),
  action: text(),
  target: z.nullable(text()),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/**
 * A refund of an order: its number (the provider's out_refund_no), fen, where to, and whether it is done. `abnormal`:
 * WeChat Pay could not return the money to the payer's account; the amount stays reserved, and an operator resolves it.
 */
export const RefundEntry = z.object({
  refundNo: text(),
  amount: z.int(),
  to: z.enum(['wallet', 'original']),
  state: z.enum(['pending', 'succeeded', 'failed', 'abnormal']),
  /** Who asked for it, as the audit log names them. */
  actor: text(),
  at: Timestamp,
  settledAt: z.nullable(Timestamp),
});
export type RefundEntry = z.infer<typeof RefundEntry>;

export const CommandResult = z.discriminatedUnion('command', [
  z.object({ command: z.literal('users list'), users: z.array(UserSummary) }),
  z.object({ command: z.literal('users show'), key: text(), user: z.nullable(UserDetail) }),
  /** `session end <id>`: whose session it was, or null when no session of that id was open. */
  z.object({ command: z.literal('session end'), sessionId: text(), userId: z.nullable(z.int()) }),
  z.object({ command: z.literal('idle show'), key: text(), userId: z.nullable(z.int()), status: z.nullable(CloudIdleStatus) }),
  /** `pushed`: sent to the user's open pages (false when no server could be reached to do it). */
  z.object({ command: z.literal('idle set'), key: text(), userId: z.nullable(z.int()), status: z.nullable(CloudIdleStatus), pushed: z.boolean() }),
  z.object({ command: z.literal('idle games'), key: text(), userId: z.nullable(z.int()), games: z.nullable(z.array(IdleGame)) }),
  z.object({ command: z.literal('migrations status'), migrations: z.array(MigrationStatus) }),
  /** `keys rotate`: the key pairs in use after it, the new current one first, and how many retired ones past their window it deleted. */
  z.object({ command: z.literal('keys rotate'), keys: z.array(ServerKeyInUse), removed: z.int() }),
  /**
   * `messages test sms|email <to>`: a login code message sent through the configured provider, and its answer:
   * the provider's id of the message when it took it, else the refusal (server/messages/messenger.ts), its code and words.
   */
  z.object({
    command: z.literal('messages test'),
    channel: z.enum(['sms', 'email']),
    to: text(),
    provider: text(),
    sent: z.boolean(),
    id: z.nullable(text()),
    refusal: z.nullable(text()),
    providerCode: z.nullable(text()),
    error: z.nullable(text()),
  }),
  /**
   * `backup <file>`: the file written, its size and what it holds (`uploadsBucket`: the bucket that keeps the uploaded
   * files instead, null when they are in it); or, as a sentence, why nothing was written.
   */
  z.object({
    command: z.literal('backup'),
    file: text(),
    saved: z.nullable(z.object({ bytes: z.int(), counts: BackupCounts, uploadsBucket: z.nullable(text()) })),
    refused: z.nullable(text()),
  }),
  /** `restore <file> --into <folder>`, run by the CLI alone: what the restored database holds; or, as a sentence, what went wrong. */
  z.object({ command: z.literal('restore'), file: text(), into: text(), counts: z.nullable(BackupCounts), refused: z.nullable(text()) }),
  z.object({ command: z.literal('product list'), products: z.array(z.extend(Product, { Active: z.boolean() })) }),
  z.object({ command: z.literal('product set'), product: z.extend(Product, { Active: z.boolean() }) }),
  z.object({ command: z.literal('order list'), orders: z.array(z.extend(Order, { UserId: z.nullable(z.int()) })) }),
  /** `order show <order>`: the order with its timeline, or null for a number there is none of. */
  z.object({
    command: z.literal('order show'),
    key: text(),
    order: z.nullable(z.extend(OrderHistory, { UserId: z.nullable(z.int()), Refunds: z.array(RefundEntry) })),
  }),
  /** `wallet show <user>`: the balance (fen), the newest ledger rows, and until when the user's plan runs; null for no such user. */
  z.object({
    command: z.literal('wallet show'),
    key: text(),
    userId: z.nullable(z.int()),
    wallet: z.nullable(z.object({ balance: z.int(), ledger: z.array(LedgerEntry), planUntil: z.nullable(Timestamp), agreements: z.array(Agreement) })),
  }),
  /** `refund attention`: the refunds that need an operator (abnormal), oldest first, each with its order's number. */
  z.object({ command: z.literal('refund attention'), refunds: z.array(z.extend(RefundEntry, { orderKey: text() })) }),
  /**
   * `order fulfil`, `order refund` and `refund resolve`: the order as it is now and whether its owner's open pages were
   * told, or why it was refused; a refund's own line. `key`: the order's number (the refund's for `refund resolve`).
   */
  z.object({
    command: z.enum(['order fulfil', 'order refund', 'refund resolve']),
    key: text(),
    order: z.nullable(z.extend(Order, { UserId: z.nullable(z.int()) })),
    refund: z.nullable(RefundEntry),
    refused: z.nullable(text()),
    pushed: z.boolean(),
  }),
  z.object({ command: z.enum(['maintenance on', 'maintenance off', 'maintenance status']), maintenance: z.boolean() }),
  /** `cdkey create` and `cdkey export`: the batch and its unused keys as customers type them (`cdkey show` leaves them out). */
  z.object({ command: z.enum(['cdkey create', 'cdkey export', 'cdkey show']), batch: z.nullable(CdkeyBatch), keys: z.array(text()) }),
  z.object({ command: z.literal('cdkey revoke'), revoked: z.int() }),
  /** `cdkey redeemed <user>`: the user's latest redemptions, newest first; null for no such user. */
  z.object({ command: z.literal('cdkey redeemed'), key: text(), userId: z.nullable(z.int()), redemptions: z.nullable(z.array(Redemption)) }),
  /** `cdkey check <key>`: the key's batch and state, or null for a key that was never made. */
  z.object({ command: z.literal('cdkey check'), key: text(), state: z.nullable(CdkeyState) }),
  z.object({ command: z.literal('donation list'), donations: z.array(DonationEntry) }),
  /** `donation hide|show <id>`: the donation as it is now, or null for an id there is none of. */
  z.object({ command: z.enum(['donation hide', 'donation show']), donation: z.nullable(DonationEntry) }),
  z.object({ command: z.literal('raffle list'), raffles: z.array(RaffleSummary) }),
  /** `raffle entered <user>`: the raffles the user entered, newest first, with the number, the prize won and its claim; null for no such user. */
  z.object({ command: z.literal('raffle entered'), key: text(), userId: z.nullable(z.int()), entries: z.nullable(z.array(RaffleEntryOfUser)) }),
  /** `raffle entries <id>`: the raffle's first entries by number (null: no such raffle). */
  z.object({ command: z.literal('raffle entries'), raffleId: z.int(), entries: z.nullable(z.array(RaffleEntryOfRaffle)) }),
  /** The raffle as it is now (null: no such raffle), its winners once drawn, why the command did nothing, and whether open pages were told. */
  z.object({
    command: z.enum(['raffle create', 'raffle show', 'raffle open', 'raffle close', 'raffle value', 'raffle draw']),
    raffle: z.nullable(RaffleSummary),
    winners: z.array(RaffleWinnerEntry),
    refused: z.nullable(text()),
    pushed: z.boolean(),
  }),
  z.object({ command: z.literal('evaluation reported'), evaluations: z.array(EvaluationEntry) }),
  /** `evaluation show|hide|unhide <id>`: the review as it is now, or null for an id there is none of. */
  z.object({ command: z.enum(['evaluation show', 'evaluation hide', 'evaluation unhide']), evaluation: z.nullable(EvaluationEntry) }),
  z.object({ command: z.literal('status list'), services: z.array(ServiceStatus) }),
  z.object({ command: z.literal('status incidents'), incidents: z.array(StatusIncident) }),
  /** `pushed`: sent to open accelerate pages (false when no server or backplane could be reached to do it). */
  z.object({ command: z.literal('status set'), service: ServiceStatus, pushed: z.boolean() }),
  /** `role grant|revoke <user> …`: the user's role before and after (null: none), or null for a user there is none of. */
  z.object({
    command: z.enum(['role grant', 'role revoke']),
    key: text(),
    userId: z.nullable(z.int()),
    previous: z.nullable(OperatorRole),
    role: z.nullable(OperatorRole),
  }),
  z.object({ command: z.literal('role list'), operators: z.array(OperatorEntry) }),
  /** `role reset-factor <user>`: whether the user had an authenticator to forget (they enrol anew at their next console sign-in); userId null for no such user. */
  z.object({ command: z.literal('role reset-factor'), key: text(), userId: z.nullable(z.int()), reset: z.boolean() }),
  /** `role unlock <user>`: whether wrong console codes had locked the user's sign-in, or counted towards it (now cleared); userId null for no such user. */
  z.object({ command: z.literal('role unlock'), key: text(), userId: z.nullable(z.int()), unlocked: z.boolean() }),
  z.object({ command: z.literal('audit list'), entries: z.array(AuditEntry) }),
  /** `audit export`: the entries as CSV, oldest first, for a spreadsheet. */
  z.object({ command: z.literal('audit export'), csv: multilineText() }),
]);
export type CommandResult = z.infer<typeof CommandResult>;

export const admin = {
  run: route({
    method: 'POST',
    path: '/admin/run',
    encrypted: false,
    auth: 'admin',
    shape: 'envelope',
    /**
     * `actor`: who typed the command (`user@host` of the CLI's process), for the audit log. `attachment`: a file the CLI read
     * on the operator's side for the command (a raffle's cover), as the console sends one.
     */
    request: z.object({
      // A word may be a whole raffle definition the CLI read from its file.
      command: z.array(multilineText(z.maxLength(50_000))).check(z.maxLength(100)),
      actor: z.optional(text(z.maxLength(200))),
      attachment: z.optional(Attachment),
    }),
    response: CommandResult,
    maxBodyBytes: attachmentMaxBase64 + 200_000,
  }),
};
