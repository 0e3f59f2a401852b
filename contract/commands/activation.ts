/**
 * The operators' commands about cdkeys: `cdkey create|export|show|revoke|redeemed|check`.
 * Keys are printed only by `create` and `export`, from the server's secret.
 */
import * as z from 'zod/mini';
import { CdkeyGrant, Redemption } from '../activation.ts';
import { cdkeyShape } from '../cdkey-format.ts';
import { command, oneUserWord, UsageError, UserKey } from '../command.ts';
import { Minor, text } from '../fields.ts';
import { listArgs, listPage, listSize, listWords } from '../list.ts';
import { MembershipGrant, WalletGrant } from '../grants.ts';

/** At most this many keys a batch, and exported at once. */
export const cdkeyBatchMax = 100_000;

const Timestamp = text();

/** A batch: what each key grants, how many keys it has, how many were used or revoked, and until when they can be redeemed. */
export const CdkeyBatch = z.object({
  name: text(),
  grant: CdkeyGrant,
  count: z.int(),
  used: z.int(),
  revoked: z.int(),
  expiresAt: z.nullable(Timestamp),
  createdAt: Timestamp,
});

/** A key's batch, what it grants and what became of it: who used it and when (and the order a Steam recharge made), or when it was revoked. */
export const CdkeyState = z.object({
  batch: text(),
  grant: CdkeyGrant,
  expiresAt: z.nullable(Timestamp),
  usedBy: z.nullable(z.int()),
  usedAt: z.nullable(Timestamp),
  revokedAt: z.nullable(Timestamp),
  order: z.nullable(text()),
});

const BatchName = text(z.regex(/^[a-z0-9-]{1,40}$/, 'a batch name is lowercase letters, digits and dashes'));

/** A key as typed (with or without its dashes). */
const Key = text(
  z.maxLength(64),
  z.refine((key) => cdkeyShape(key) === 'ok', 'a key is 20 characters in four groups, e.g. ABCDE-FGHJK-LMNPQ-RSTUV'),
);

/** How many keys: a whole number from 1 to `cdkeyBatchMax`. */
const KeyCount = z
  .int({ error: `a whole number from 1 to ${cdkeyBatchMax}` })
  .check(z.minimum(1, `a whole number from 1 to ${cdkeyBatchMax}`), z.maximum(cdkeyBatchMax, `a whole number from 1 to ${cdkeyBatchMax}`));

/**
 * What each key of a new batch grants, as an operator asks for it: a Steam recharge names a Steam recharge product and
 * an amount it sells (in its currency's smallest unit); the server fills in the currency from the product.
 */
const GrantAsked = z.discriminatedUnion('Kind', [
  WalletGrant,
  MembershipGrant,
  z.object({ Kind: z.literal('steamRecharge'), Product: text(z.regex(/^[a-z0-9-]{1,40}$/)), Amount: Minor }),
]);

/** `wallet:1000` (fen), `membership:30` (days) or `steam:<product>:<amount>` → the grant asked for. */
function grantWord(value: string): z.input<typeof GrantAsked> {
  const [kind, first = '', second = ''] = value.split(':');
  const whole = /^\d{1,9}$/;
  if (kind === 'wallet' && whole.test(first)) return { Kind: 'wallet', Amount: Number(first) };
  if (kind === 'membership' && whole.test(first)) return { Kind: 'membership', Days: Number(first) };
  if (kind === 'steam' && first && whole.test(second)) return { Kind: 'steamRecharge', Product: first, Amount: Number(second) };
  throw new UsageError('--grants takes wallet:<fen>, membership:<days> or steam:<product>:<amount>, e.g. wallet:1000');
}

const CreateArgs = z
  .strictObject({
    batch: BatchName,
    count: KeyCount,
    grant: GrantAsked,
    /** The day its keys expire, at its start (UTC, as a date alone reads); absent, they never expire. */
    expires: z.optional(z.iso.date({ error: 'a date is written YYYY-MM-DD, e.g. 2027-06-30' })),
    /** Makes a batch whose date has passed all the same. */
    force: z.optional(z.boolean()),
  })
  .check(
    z.refine((args) => !args.expires || args.force === true || Date.parse(args.expires) > Date.now(), {
      error: 'the date has passed, so no key of the batch could be redeemed; add --force to make it anyway',
      path: ['expires'],
    }),
  );

/** `cdkey create --batch NAME --count N --grants GRANT [--expires YYYY-MM-DD] [--force]`. */
function createWords(rest: string[]): Partial<Record<keyof z.input<typeof CreateArgs>, unknown>> {
  const args: Partial<Record<keyof z.input<typeof CreateArgs>, unknown>> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (flag === '--force') {
      args.force = true;
      i -= 1;
      continue;
    }
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--batch') args.batch = value;
    else if (flag === '--count') args.count = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
    else if (flag === '--grants') args.grant = grantWord(value);
    else if (flag === '--expires') args.expires = value;
    else throw new UsageError(`cdkey create does not know ${flag}`);
  }
  if (args.batch === undefined || args.count === undefined || args.grant === undefined)
    throw new UsageError('cdkey create needs --batch NAME --count N --grants …');
  return args;
}

/** `<name> <batch>`: one batch's name, and nothing else. */
const oneBatchWord =
  (name: string) =>
  (rest: string[]): { batch: string } => {
    if (rest.length !== 1) throw new UsageError(`${name} takes one batch name`);
    return { batch: rest[0] };
  };

/** `cdkey create`, `export` and `show`: the batch (null: no such batch) and its unused keys as customers type them (`show` leaves them out). */
const BatchAndKeys = { batch: z.nullable(CdkeyBatch), keys: z.array(text()) };

/** The columns `cdkey batches` sorts by. */
export const batchSorts = ['created', 'name', 'count', 'expires'] as const;

export const activationCommands = {
  batches: command({
    name: 'cdkey batches',
    role: 'operator',
    usage: `cdkey batches [--search <start of a name>] [--state current|expired] [--sort ${batchSorts.join('|')}] [--asc|--desc] [--page N] [--size N]
                                  the batches, newest first unless sorted, a page at a time (${listSize.default}),
                                  with how many of each were used and revoked`,
    /** `state`: current batches (no end, or one still to come) or expired ones. */
    args: z.strictObject({
      ...listArgs(batchSorts, 'created'),
      search: z.optional(text(z.trim(), z.minLength(1), z.maxLength(64))),
      state: z.optional(z.enum(['current', 'expired'])),
    }),
    words: listWords('cdkey batches', { '--search': 'search', '--state': 'state' }),
    result: listPage(CdkeyBatch),
  }),
  create: command({
    name: 'cdkey create',
    role: 'operator',
    usage: `cdkey create --batch NAME --count N --grants GRANT [--expires YYYY-MM-DD [--force]]
                                  make a batch of keys and print them; GRANT is
                                  wallet:<fen>, membership:<days> or
                                  steam:<product>:<amount>; a date that has passed
                                  needs --force`,
    args: CreateArgs,
    words: createWords,
    result: BatchAndKeys,
  }),
  export: command({
    name: 'cdkey export',
    role: 'operator',
    usage: "cdkey export <batch> [--limit N]   the batch's unused keys, to hand out",
    /** `limit`: at most this many keys (all of them when absent). */
    args: z.strictObject({ batch: BatchName, limit: z.optional(KeyCount) }),
    words: ([batch = '', ...rest]) => {
      if (rest.length === 0) return { batch };
      if (rest.length === 2 && rest[0] === '--limit') return { batch, limit: /^\d{1,9}$/.test(rest[1]) ? Number(rest[1]) : NaN };
      throw new UsageError('cdkey export takes a batch name and --limit N');
    },
    result: BatchAndKeys,
  }),
  show: command({
    name: 'cdkey show',
    role: 'operator',
    usage: 'cdkey show <batch>              a batch: what it grants, how many used',
    args: z.strictObject({ batch: BatchName }),
    words: oneBatchWord('cdkey show'),
    result: BatchAndKeys,
  }),
  revoke: command({
    name: 'cdkey revoke',
    role: 'operator',
    usage: 'cdkey revoke <key> | --batch <batch>   no longer redeemable (unused keys only)',
    /** One key, or every unused key of a batch. */
    args: z
      .strictObject({ key: z.optional(Key), batch: z.optional(BatchName) })
      .check(z.refine((args) => (args.key === undefined) !== (args.batch === undefined), 'cdkey revoke takes one key or one batch')),
    words: (rest) => {
      if (rest[0] === '--batch') return oneBatchWord('cdkey revoke --batch')(rest.slice(1));
      if (rest.length !== 1) throw new UsageError('cdkey revoke takes one key (or --batch NAME)');
      return { key: rest[0] };
    },
    /** How many keys it revoked. */
    result: { revoked: z.int() },
  }),
  redeemed: command({
    name: 'cdkey redeemed',
    role: 'support',
    usage: "cdkey redeemed <user>           a user's latest redemptions, newest first",
    args: z.strictObject({ user: UserKey }),
    words: oneUserWord('cdkey redeemed'),
    /** The user's latest redemptions, newest first; null for no such user. */
    result: { key: text(), userId: z.nullable(z.int()), redemptions: z.nullable(z.array(Redemption)) },
  }),
  check: command({
    name: 'cdkey check',
    role: 'support',
    usage: 'cdkey check <key>               a key: its batch, whether and by whom it was used',
    args: z.strictObject({ key: Key }),
    words: (rest) => {
      if (rest.length !== 1) throw new UsageError('cdkey check takes one key, e.g. ABCDE-FGHJK-LMNPQ-RSTUV');
      return { key: rest[0] };
    },
    /** The key's batch and state, or null for a key that was never made. */
    result: { key: text(), state: z.nullable(CdkeyState) },
  }),
};
