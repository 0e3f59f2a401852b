/**
 * The operators' commands about cdkeys (contract/commands/activation.ts):
 * `cdkey batches|create|export|show|revoke|redeemed|check`. Keys are printed only by
 * `create` and `export`, from the server's secret.
 */
import { and, asc, count, desc, eq, gt, isNull, like, lte, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { CdkeyGrant } from '#contract/activation.ts';
import type { ParsedArgsOf } from '#contract/command.ts';
import { activationCommands, cdkeyBatchMax } from '#contract/commands/activation.ts';
import { offsetOf } from '#contract/list.ts';
import { CommandRefused, commandsPlugin, handle } from '../../admin-command.ts';
import { money, noUser, pageLine, table, time } from '../../admin-text.ts';
import { recordAudit } from '../../db/audit.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { startingWith } from '../../db/like.ts';
import { cdkeyBatches } from '../../db/schema/activation.ts';
import { products } from '../../db/schema/commerce.ts';
import { batchCounts, createBatch, findBatch, keyState, redemptionPage, revoke, unusedKeys, type BatchRow } from './cdkeys.ts';

type GrantAsked = ParsedArgsOf<typeof activationCommands.create>['grant'];

/** A Steam recharge grant must name a Steam recharge product and an amount it sells; it takes the product's currency. */
async function checkedGrant(app: FastifyInstance, grant: GrantAsked): Promise<CdkeyGrant> {
  if (grant.Kind !== 'steamRecharge') return grant;
  const [product] = await app.db.select().from(products).where(eq(products.code, grant.Product));
  if (product?.kind !== 'steamRecharge' || !product.currency) throw new CommandRefused({ key: 'refused.noSteamProduct', params: { product: grant.Product } });
  const sold = product.presets.includes(grant.Amount) || (grant.Amount >= (product.minAmount ?? Infinity) && grant.Amount <= (product.maxAmount ?? 0));
  if (!sold) throw new CommandRefused({ key: 'refused.amountNotSold', params: { product: grant.Product, amount: String(grant.Amount) } });
  return { ...grant, Currency: product.currency };
}

/** A batch as the commands answer it: what it grants, how many keys, used and revoked. */
async function batchOf(app: FastifyInstance, batch: BatchRow) {
  return {
    name: batch.name,
    grant: batch.grant,
    count: batch.count,
    ...(await batchCounts(app.db, batch)),
    expiresAt: batch.expiresAt?.toISOString() ?? null,
    createdAt: batch.createdAt.toISOString(),
  };
}

/** What `cdkey batches` sorts by → the column; the id breaks ties. A shop makes few batches: the table needs no index for it. */
const batchSortColumns = { created: cdkeyBatches.id, name: cdkeyBatches.name, count: cdkeyBatches.count, expires: cdkeyBatches.expiresAt } as const;

/** A page of the batches whose name starts with `search`, current or expired, and how many there are; the used and revoked counted for the page's batches only. */
async function batchesPage(app: FastifyInstance, { sort, dir, page, size, search, state }: ParsedArgsOf<typeof activationCommands.batches>) {
  const now = new Date();
  const where = and(
    search ? like(cdkeyBatches.name, startingWith(search)) : undefined,
    state === 'current' ? or(isNull(cdkeyBatches.expiresAt), gt(cdkeyBatches.expiresAt, now)) : undefined,
    state === 'expired' ? lte(cdkeyBatches.expiresAt, now) : undefined,
  );
  const order = dir === 'asc' ? asc : desc;
  const [rows, [{ total }]] = await Promise.all([
    app.db.select().from(cdkeyBatches).where(where).orderBy(order(batchSortColumns[sort]), order(cdkeyBatches.id)).limit(size).offset(offsetOf({ page, size })),
    app.db.select({ total: count() }).from(cdkeyBatches).where(where),
  ]);
  return { rows: await Promise.all(rows.map((row) => batchOf(app, row))), total };
}

/** A batch as the commands answer it (null: no such batch), with the keys they print. */
async function batchResult<N extends 'cdkey create' | 'cdkey export' | 'cdkey show'>(app: FastifyInstance, command: N, batch: BatchRow | null, keys: string[]) {
  if (!batch) return { command, batch: null, keys };
  return { command, batch: await batchOf(app, batch), keys };
}

const grantText = (grant: CdkeyGrant) =>
  grant.Kind === 'wallet'
    ? `${money(grant.Amount, 'CNY')} to the wallet`
    : grant.Kind === 'membership'
      ? `${grant.Days} day(s) of cloud idling`
      : `a ${grant.Product} recharge of ${grant.Amount}`;

type BatchAnswer = Awaited<ReturnType<typeof batchResult>>;

/** How `cdkey create`, `export` and `show` read: the batch, and the keys when there are any. */
function batchText(result: BatchAnswer): string {
  if (!result.batch) return 'No such batch.';
  const { batch } = result;
  const about = `Batch ${batch.name}: ${grantText(batch.grant)}; ${batch.count} keys, ${batch.used} used, ${batch.revoked} revoked; ${batch.expiresAt ? `expires ${time(batch.expiresAt)}` : 'never expires'}.`;
  return result.keys.length ? `${about}\n\n${result.keys.join('\n')}` : about;
}

const batchFound = (result: BatchAnswer) => result.batch !== null;

export default commandsPlugin('activation', [
  handle(activationCommands.batches, {
    async run(app, args) {
      return { command: 'cdkey batches', ...(await batchesPage(app, args)), page: args.page, size: args.size };
    },
    format: (result) =>
      result.rows.length
        ? `${table(
            ['BATCH', 'GRANTS', 'KEYS', 'USED', 'REVOKED', 'EXPIRES', 'CREATED'],
            result.rows.map((batch) => [
              batch.name,
              grantText(batch.grant),
              batch.count,
              batch.used,
              batch.revoked,
              batch.expiresAt ? time(batch.expiresAt) : 'never',
              time(batch.createdAt),
            ]),
          )}\n\n${pageLine(result)}`
        : 'No batches.',
  }),
  handle(activationCommands.create, {
    async run(app, { batch: name, count, grant, expires }, { actor }) {
      try {
        const batch = { name, count, grant: await checkedGrant(app, grant), expiresAt: expires ? new Date(expires) : null };
        await createBatch(app.db, actor, app.keys.secret, batch);
      } catch (error) {
        if (isUniqueViolation(error)) throw new CommandRefused({ key: 'refused.batchTaken', params: { name } });
        throw error;
      }
      const made = await findBatch(app.db, name);
      return batchResult(app, 'cdkey create', made, await unusedKeys(app.db, app.keys.secret, made!, cdkeyBatchMax));
    },
    format: batchText,
  }),
  handle(activationCommands.export, {
    async run(app, { batch: name, limit = cdkeyBatchMax }, { actor }) {
      const batch = await findBatch(app.db, name);
      const keys = batch ? await unusedKeys(app.db, app.keys.secret, batch, limit) : [];
      // Handing keys out is recorded like a change: whoever exported them can be asked where they went.
      if (batch) await recordAudit(app.db, actor, { action: 'cdkey export', target: `batch ${name}`, before: null, after: { keys: keys.length } });
      return batchResult(app, 'cdkey export', batch, keys);
    },
    format: batchText,
    found: batchFound,
  }),
  handle(activationCommands.show, {
    run: async (app, { batch: name }) => batchResult(app, 'cdkey show', await findBatch(app.db, name), []),
    format: batchText,
    found: batchFound,
  }),
  handle(activationCommands.revoke, {
    async run(app, { key, batch: name }, { actor }) {
      if (key !== undefined) return { command: 'cdkey revoke', revoked: await revoke(app.db, actor, { key }) };
      // The arguments name a key or a batch, never both or neither.
      const batch = await findBatch(app.db, name!);
      return { command: 'cdkey revoke', revoked: batch ? await revoke(app.db, actor, { batch }) : 0 };
    },
    format: (result) => `${result.revoked} key(s) revoked.`,
  }),
  handle(activationCommands.redeemed, {
    async run(app, { user: key }) {
      const user = await app.findUser(key);
      return { command: 'cdkey redeemed', key, userId: user?.id ?? null, redemptions: user ? (await redemptionPage(app.db, user.id, 1)).Items : null };
    },
    format: (result) =>
      !result.redemptions
        ? noUser(result.key)
        : result.redemptions.length
          ? table(
              ['AT', 'KEY', 'BATCH', 'GRANT', 'ORDER'],
              result.redemptions.map((r) => [time(r.At), r.Key, r.Batch, grantText(r.Grant), r.Order ?? '-']),
            )
          : 'No redemptions.',
    found: (result) => result.userId !== null,
  }),
  handle(activationCommands.check, {
    async run(app, { key }) {
      const state = await keyState(app.db, key);
      return {
        command: 'cdkey check',
        key,
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
    },
    format({ key, state }) {
      if (!state) return `No key ${key} was ever made (or it is mistyped).`;
      const used = state.usedAt
        ? `used by user ${state.usedBy ?? '(deleted)'} at ${time(state.usedAt)}${state.order ? `, order ${state.order}` : ''}`
        : 'not used';
      return `Batch ${state.batch}: ${grantText(state.grant)}; ${used}${state.revokedAt ? `; revoked at ${time(state.revokedAt)}` : ''}.`;
    },
    found: (result) => result.state !== null,
  }),
]);
