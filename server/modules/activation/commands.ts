/**
 * The operators' commands about cdkeys: `cdkey create|export|show|revoke|check`.
 * Keys are printed only by `create` and `export`, from the server's secret.
 */
import { eq } from 'drizzle-orm';
import { CdkeyGrant } from '#contract/activation.ts';
import { cdkeyShape } from '#contract/cdkey-format.ts';
import { commandsPlugin, oneUser, UsageError, type AdminCommand, type CommandContext, type ResultOf } from '../../admin-command.ts';
import { money, noUser, table, time } from '../../admin-text.ts';
import { recordAudit } from '../../db/audit.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Database } from '../../db/database.ts';
import { products } from '../../db/schema/commerce.ts';
import { batchCounts, createBatch, findBatch, keyState, redemptionPage, revoke, unusedKeys, type BatchRow } from './cdkeys.ts';

/** At most this many keys a batch, and printed at once. */
const maxCount = 100_000;

function usage(text: string): never {
  throw new UsageError(text);
}

const whole = (flag: string, value: string | undefined, max: number) =>
  value && /^\d{1,9}$/.test(value) && Number(value) > 0 && Number(value) <= max ? Number(value) : usage(`${flag} takes a whole number from 1 to ${max}`);

/**
 * `wallet:1000` (fen), `membership:30` (days) or `steam:<product>:<amount>`
 * (in the product's smallest unit; its currency is filled in from the product).
 */
function parseGrant(value: string | undefined): CdkeyGrant {
  const [kind, first, second] = (value ?? '').split(':');
  const grant =
    kind === 'wallet'
      ? { Kind: kind, Amount: Number(first) }
      : kind === 'membership'
        ? { Kind: kind, Days: Number(first) }
        : kind === 'steam'
          ? { Kind: 'steamRecharge', Product: first, Amount: Number(second), Currency: 'XXX' }
          : null;
  const parsed = CdkeyGrant.safeParse(grant);
  if (!parsed.success) usage('--grants takes wallet:<fen>, membership:<days> or steam:<product>:<amount>, e.g. wallet:1000');
  return parsed.data;
}

/** A Steam recharge grant must name a Steam recharge product and an amount it sells; it takes the product's currency. */
async function checkedGrant(db: Database, grant: CdkeyGrant): Promise<CdkeyGrant> {
  if (grant.Kind !== 'steamRecharge') return grant;
  const [product] = await db.select().from(products).where(eq(products.code, grant.Product));
  if (product?.kind !== 'steamRecharge' || !product.currency) usage(`There is no Steam recharge product ${grant.Product} (npm run admin -- product list).`);
  const sold = product.presets.includes(grant.Amount) || (grant.Amount >= (product.minAmount ?? Infinity) && grant.Amount <= (product.maxAmount ?? 0));
  if (!sold) usage(`${grant.Product} does not sell an amount of ${grant.Amount}.`);
  return { ...grant, Currency: product.currency };
}

function parseCreate(rest: string[]) {
  let name: string | undefined;
  let count: number | undefined;
  let grant: CdkeyGrant | undefined;
  let expiresAt: Date | null = null;
  let force = false;
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (flag === '--force') {
      force = true;
      i -= 1;
    } else if (flag === '--batch')
      name = value && /^[a-z0-9-]{1,40}$/.test(value) ? value : usage('--batch takes a name of lowercase letters, digits and dashes');
    else if (flag === '--count') count = whole(flag, value, maxCount);
    else if (flag === '--grants') grant = parseGrant(value);
    else if (flag === '--expires') {
      expiresAt =
        value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
          ? new Date(`${value}T00:00:00Z`)
          : usage('--expires takes a date, e.g. 2027-06-30');
    } else usage(`cdkey create does not know ${flag}`);
  }
  if (!name || !count || !grant) usage('cdkey create needs --batch NAME --count N --grants …');
  if (expiresAt && expiresAt.getTime() <= Date.now() && !force)
    usage(`--expires ${expiresAt.toISOString().slice(0, 10)} has passed, so no key of the batch could be redeemed; add --force to make it anyway`);
  return { name, count, grant, expiresAt };
}

async function batchResult(context: CommandContext, command: 'cdkey create' | 'cdkey export' | 'cdkey show', batch: BatchRow | null, keys: string[]) {
  if (!batch) return { command, batch: null, keys };
  const { used, revoked } = await batchCounts(context.db, batch);
  return {
    command,
    batch: {
      name: batch.name,
      grant: batch.grant,
      count: batch.count,
      used,
      revoked,
      expiresAt: batch.expiresAt?.toISOString() ?? null,
      createdAt: batch.createdAt.toISOString(),
    },
    keys,
  };
}

const oneName = (name: string, rest: string[]) => (rest.length === 1 && /^[a-z0-9-]{1,40}$/.test(rest[0]) ? rest[0] : usage(`${name} takes one batch name`));

const grantText = (grant: CdkeyGrant) =>
  grant.Kind === 'wallet'
    ? `${money(grant.Amount, 'CNY')} to the wallet`
    : grant.Kind === 'membership'
      ? `${grant.Days} day(s) of cloud idling`
      : `a ${grant.Product} recharge of ${grant.Amount}`;

/** How `cdkey create`, `export` and `show` read: the batch, and the keys when there are any. */
function batchText(result: ResultOf<'cdkey create' | 'cdkey export' | 'cdkey show'>): string {
  if (!result.batch) return 'No such batch.';
  const { batch } = result;
  const about = `Batch ${batch.name}: ${grantText(batch.grant)}; ${batch.count} keys, ${batch.used} used, ${batch.revoked} revoked; ${batch.expiresAt ? `expires ${time(batch.expiresAt)}` : 'never expires'}.`;
  return result.keys.length ? `${about}\n\n${result.keys.join('\n')}` : about;
}

const batchFound = (result: ResultOf<'cdkey export' | 'cdkey show'>) => result.batch !== null;

export const activationCommands: AdminCommand[] = [
  {
    name: 'cdkey create',
    role: 'operator',
    usage: `cdkey create --batch NAME --count N --grants GRANT [--expires YYYY-MM-DD [--force]]
                                  make a batch of keys and print them; GRANT is
                                  wallet:<fen>, membership:<days> or
                                  steam:<product>:<amount>; a date that has passed
                                  needs --force`,
    parse(rest) {
      const batch = parseCreate(rest);
      return async (context) => {
        try {
          await createBatch(context.db, context.actor, context.secret(), { ...batch, grant: await checkedGrant(context.db, batch.grant) });
        } catch (error) {
          if (isUniqueViolation(error)) usage(`There is a batch called ${batch.name} already.`);
          throw error;
        }
        const made = await findBatch(context.db, batch.name);
        return batchResult(context, 'cdkey create', made, await unusedKeys(context.db, context.secret(), made!, maxCount));
      };
    },
    format: batchText,
  },
  {
    name: 'cdkey export',
    role: 'operator',
    usage: "cdkey export <batch> [--limit N]   the batch's unused keys, to hand out",
    parse(rest) {
      const name = oneName('cdkey export', rest.slice(0, 1));
      const limit =
        rest.length === 1
          ? maxCount
          : rest[1] === '--limit' && rest.length === 3
            ? whole('--limit', rest[2], maxCount)
            : usage('cdkey export takes a batch name and --limit N');
      return async (context) => {
        const batch = await findBatch(context.db, name);
        const keys = batch ? await unusedKeys(context.db, context.secret(), batch, limit) : [];
        // Handing keys out is recorded like a change: whoever exported them can be asked where they went.
        if (batch)
          await recordAudit(context.db, context.actor, { action: 'cdkey export', target: `batch ${name}`, before: null, after: { keys: keys.length } });
        return batchResult(context, 'cdkey export', batch, keys);
      };
    },
    format: batchText,
    found: batchFound,
  },
  {
    name: 'cdkey show',
    role: 'operator',
    usage: 'cdkey show <batch>              a batch: what it grants, how many used',
    parse(rest) {
      const name = oneName('cdkey show', rest);
      return async (context) => batchResult(context, 'cdkey show', await findBatch(context.db, name), []);
    },
    format: batchText,
    found: batchFound,
  },
  {
    name: 'cdkey revoke',
    role: 'operator',
    usage: 'cdkey revoke <key> | --batch <batch>   no longer redeemable (unused keys only)',
    parse(rest) {
      if (rest[0] === '--batch') {
        const name = oneName('cdkey revoke --batch', rest.slice(1));
        return async (context) => {
          const batch = await findBatch(context.db, name);
          return { command: 'cdkey revoke', revoked: batch ? await revoke(context.db, context.actor, { batch }) : 0 };
        };
      }
      if (rest.length !== 1 || cdkeyShape(rest[0]) !== 'ok') usage('cdkey revoke takes one key (or --batch NAME)');
      return async (context) => ({ command: 'cdkey revoke', revoked: await revoke(context.db, context.actor, { key: rest[0] }) });
    },
    format: (result: ResultOf<'cdkey revoke'>) => `${result.revoked} key(s) revoked.`,
  },
  {
    name: 'cdkey redeemed',
    role: 'support',
    usage: "cdkey redeemed <user>           a user's latest redemptions, newest first",
    parse(rest) {
      const key = oneUser('cdkey redeemed', rest);
      return async ({ db, findUser }) => {
        const user = await findUser(key);
        return { command: 'cdkey redeemed', key, userId: user?.id ?? null, redemptions: user ? (await redemptionPage(db, user.id, 1)).Items : null };
      };
    },
    format: (result: ResultOf<'cdkey redeemed'>) =>
      !result.redemptions
        ? noUser(result.key)
        : result.redemptions.length
          ? table(
              ['AT', 'KEY', 'BATCH', 'GRANT', 'ORDER'],
              result.redemptions.map((r) => [time(r.At), r.Key, r.Batch, grantText(r.Grant), r.Order ?? '-']),
            )
          : 'No redemptions.',
    found: (result: ResultOf<'cdkey redeemed'>) => result.userId !== null,
  },
  {
    name: 'cdkey check',
    role: 'support',
    usage: 'cdkey check <key>               a key: its batch, whether and by whom it was used',
    parse(rest) {
      if (rest.length !== 1 || cdkeyShape(rest[0]) !== 'ok') usage('cdkey check takes one key, e.g. ABCDE-FGHJK-LMNPQ-RSTUV');
      return async (context) => {
        const state = await keyState(context.db, rest[0]);
        return {
          command: 'cdkey check',
          key: rest[0],
          state: state && {
            batch: state.batch,
            grant: state.grant,
            expiresAt: state.expiresAt?.toISOString() ?? null,
            usedBy: state.usedBy,
            usedAt: state.usedAt?.toISOString() ?? null,
            revokedAt: state.revokedAt?.toISOString() ?? null,
            order: state.order,
          },
        };
      };
    },
    format({ key, state }: ResultOf<'cdkey check'>) {
      if (!state) return `No key ${key} was ever made (or it is mistyped).`;
      const used = state.usedAt
        ? `used by user ${state.usedBy ?? '(deleted)'} at ${time(state.usedAt)}${state.order ? `, order ${state.order}` : ''}`
        : 'not used';
      return `Batch ${state.batch}: ${grantText(state.grant)}; ${used}${state.revokedAt ? `; revoked at ${time(state.revokedAt)}` : ''}.`;
    },
    found: (result: ResultOf<'cdkey check'>) => result.state !== null,
  },
];

export default commandsPlugin('activation', activationCommands);
