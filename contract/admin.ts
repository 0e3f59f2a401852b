/**
 * The operators' endpoint (`npm run admin` → a running server): one command's
 * name and arguments in (contract/commands/), its result out. Only the server's
 * own machine may call it, with the token the server wrote to
 * `<DATA_DIR>/admin.json`; to anyone else the path does not exist. Also the
 * operators' roles and the records several modules' commands show.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { multilineText, text } from './fields.ts';
import { LoginEvent } from './account.ts';
import { LocalizedText, RaffleKind, RaffleState } from './raffle.ts';

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

/** A raffle as operators see it, its title in the caller's language (the console's, English at the shell): never its seed before the draw. */
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

/**
 * A raffle a user entered: which (its title), their number, the prize they won (null: none, or not drawn) and when they
 * claimed it; the title and prize in the caller's language (the console's, English at the shell).
 */
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

/** A drawn winner, for delivering prizes: who, which prize (named in the caller's language), when they were told and reminded, and whether they claimed it. */
export const RaffleWinnerEntry = z.object({
  place: z.int(),
  number: z.int(),
  userId: z.nullable(z.int()),
  prize: text(),
  toldAt: z.nullable(Timestamp),
  remindedAt: z.nullable(Timestamp),
  claimedAt: z.nullable(Timestamp),
});
export type RaffleWinnerEntry = z.infer<typeof RaffleWinnerEntry>;

/** How many of a raffle's winners were told of their win, reminded before the claim window closed, and claimed. */
export const RaffleWinnerCounts = z.object({ winners: z.int(), told: z.int(), reminded: z.int(), claimed: z.int() });
export type RaffleWinnerCounts = z.infer<typeof RaffleWinnerCounts>;

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

/**
 * An operators' command's result as the endpoints answer it: the fields of the command's own result schema
 * (contract/commands/), which the server checks outside production, and its name.
 */
export const CommandAnswer = z.looseObject({ command: text() });
export type CommandAnswer = z.infer<typeof CommandAnswer>;

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
      /** The command's name (`status set`) and its arguments, as its declaration in contract/commands/ takes them. */
      command: text(z.maxLength(100)),
      args: z.unknown(),
      actor: z.optional(text(z.maxLength(200))),
      attachment: z.optional(Attachment),
    }),
    response: CommandAnswer,
    maxBodyBytes: attachmentMaxBase64 + 200_000,
  }),
};
