/**
 * The operators' commands about selling (contract/commands/commerce.ts):
 * `product list|set`, `order list|show|fulfil|refund`, `refund
 * attention|resolve`, `wallet show` and `maintenance on|off|status`.
 */
import { and, asc, between, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { offsetOf } from '#contract/list.ts';
import type { FastifyInstance } from 'fastify';
import type { RefundEntry } from '#contract/admin.ts';
import type { ParsedArgsOf, ResultOf } from '#contract/command.ts';
import { commerceCommands } from '#contract/commands/commerce.ts';
import { formatPrice } from '#contract/facts.ts';
import { orderStatusEvent, type Order, type Product } from '#contract/commerce.ts';
import { commandsPlugin, handle, type Caller } from '../../admin-command.ts';
import { money, noUser, orDash, pageLine, table, time } from '../../admin-text.ts';
import type { Database } from '../../db/database.ts';
import { memberships, orders, products } from '../../db/schema/commerce.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import { ApiError } from '../../http/api-error.ts';
import { message } from '../../i18n/messages.ts';
import type { ProviderMethod } from '../../services/payment-provider.ts';
import { toProduct } from './catalogue.ts';
import { historyOf, findOrder, orderNotice, toOrder, type OrderRow } from './orders.ts';
import { listAgreements } from './agreements.ts';
import { balanceOf, ledgerPage } from './wallet.ts';
import { invoiceHandlers } from './invoice-commands.ts';
import { fulfilOrder, readMaintenance, setMaintenance } from './payments.ts';
import { refund, refundEntry, refundsNeedingAttention, refundsOf, resolveRefund, type RefundLimits } from './refunds.ts';

const withActive = (row: typeof products.$inferSelect): Product & { Active: boolean } => ({ ...toProduct(row), Active: row.active });
const withUser = (row: OrderRow) => ({ ...toOrder(row), UserId: row.userId });

/** Tells the order's owner's open pages, when something can reach them. */
async function push(app: FastifyInstance, row: OrderRow): Promise<boolean> {
  if (!app.pusher || row.userId === null) return false;
  await app.pusher.toUser(row.userId, orderStatusEvent, [orderNotice(row)]);
  return true;
}

/** A refusal in the operator's language; an amount in fen (a parameter named `…Fen`) reads as money in it, under the name without `Fen`. */
function refusal({ locale }: Caller, error: ApiError): string {
  const params = Object.fromEntries(
    Object.entries(error.messageParams).map(([name, value]) =>
      name.endsWith('Fen') ? [name.slice(0, -'Fen'.length), formatPrice(Number(value), locale)] : [name, value],
    ),
  );
  return message(locale, error.messageKey, params);
}

/** What refunding needs of the app: its database, its providers, and its metrics, which only a server has (not the CLI). */
const refundContextOf = (app: FastifyInstance) => ({
  db: app.db,
  provider: app.payments.provider,
  settled: app.hasDecorator('metrics') ? app.metrics.paymentSettled : () => {},
});

/** What the actor may refund: a support user's limits (settings), none for everyone else. */
const refundLimitsOf = (app: FastifyInstance, actor: Actor): RefundLimits | null =>
  actor.role === 'support' ? { perOrder: app.config.SUPPORT_REFUND_LIMIT_FEN, perDay: app.config.SUPPORT_REFUND_DAILY_LIMIT_FEN } : null;

/** An order command's outcome: the order as it is now (and a refund's own line), or why it was refused (in the operator's words). */
async function orderStep<N extends 'order fulfil' | 'order refund' | 'refund resolve'>(
  app: FastifyInstance,
  caller: Caller,
  command: N,
  key: string,
  step: () => Promise<{ order: OrderRow; refund: RefundEntry | null }>,
) {
  try {
    const done = await step();
    return { command, key, order: withUser(done.order), refund: done.refund, refused: null, pushed: await push(app, done.order) };
  } catch (error) {
    if (error instanceof ApiError) return { command, key, order: null, refund: null, refused: refusal(caller, error), pushed: false };
    throw error;
  }
}

const refundHeaders = ['REFUND', 'AMOUNT', 'TO', 'STATE', 'BY', 'AT'];
const refundRow = (r: RefundEntry) => [
  r.refundNo,
  money(r.amount, 'CNY'),
  r.to,
  r.state === 'abnormal' ? 'abnormal: needs attention' : r.state,
  r.actor,
  time(r.at),
];

/** What `order list` sorts by → the column; the id breaks ties, so a page never repeats or skips a row. */
const orderSortColumns = { created: orders.id, price: orders.price, state: orders.state, method: orders.method } as const;

/**
 * A page of the orders that pass the filter, and how many pass it: made on or after `since` and before the day after
 * `until` (days alone, which read as UTC), numbered from `key`'s digits on. Each sort walks an index (orders_*, schema):
 * serial ids follow creation, so "created" is the primary key's order.
 */
async function listOrders(
  db: Database,
  { sort, dir, page, size, ...filter }: Omit<ParsedArgsOf<typeof commerceCommands.orderList>, 'user'>,
  userId?: number,
): Promise<{ rows: OrderRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.since) conditions.push(gte(orders.createdAt, new Date(filter.since)));
  if (filter.until) conditions.push(lt(orders.createdAt, new Date(Date.parse(filter.until) + 86_400_000)));
  if (filter.state) conditions.push(eq(orders.state, filter.state));
  if (filter.method) conditions.push(eq(orders.method, filter.method));
  if (userId !== undefined) conditions.push(eq(orders.userId, userId));
  // Numbers are 20 digits: those starting with the given ones lie between it padded with 0s and with 9s, on the unique index.
  if (filter.key) conditions.push(between(orders.key, filter.key.padEnd(20, '0'), filter.key.padEnd(20, '9')));
  const where = conditions.length ? and(...conditions) : undefined;
  const order = dir === 'asc' ? asc : desc;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(orders).where(where).orderBy(order(orderSortColumns[sort]), order(orders.id)).limit(size).offset(offsetOf({ page, size })),
    db.select({ total: count() }).from(orders).where(where),
  ]);
  return { rows, total };
}

const productHeaders = ['CODE', 'KIND', 'ON SALE', 'WHAT'];
function productRow(p: Product & { Active: boolean }): Array<string | number> {
  const what =
    p.Kind === 'membership'
      ? `${p.Months} month(s) for ${money(p.Price, 'CNY')}`
      : `${p.Currency} (${p.Region}) at ${(p.RatePpm ?? 0) / 1e6} fen/unit; presets ${p.Presets.map((a) => money(a)).join(', ')}; custom ${money(p.MinAmount)}–${money(p.MaxAmount)}`;
  return [p.Code, p.Kind, p.Active ? 'yes' : 'no', what];
}

const orderHeaders = ['ORDER', 'USER', 'STATE', 'PRODUCT', 'ITEM', 'PRICE', 'PAID BY', 'CREATED'];
function orderRow(o: Order & { UserId: number | null }): Array<string | number> {
  const item = o.Item.Kind === 'membership' ? `${o.Item.Months} month(s)` : `${money(o.Item.Amount, o.Item.Currency ?? '')} to ${o.Item.SteamId}`;
  return [o.Key, o.UserId ?? '-', o.State, o.Item.Product, item, money(o.Price, 'CNY'), orDash(o.Method), time(o.CreatedAt)];
}

type OrderStepResult = ResultOf<typeof commerceCommands.fulfil | typeof commerceCommands.refund | typeof commerceCommands.refundResolve>;

/** How `order fulfil` and `order refund` read (and `refund resolve` after its own line), and whether the order was there. */
const orderStepText = {
  format(result: OrderStepResult) {
    if (!result.order) return `Order ${result.key}: ${result.refused ?? 'not found'}`;
    return `${table(orderHeaders, [orderRow(result.order)])}\n\n${result.pushed ? "Pushed to the customer's open pages." : 'No server was running to push it: open pages show it when they next load.'}`;
  },
  found: (result: OrderStepResult) => result.order !== null,
};

/** `maintenance on|off|status`: sets it (but `status`), then says whether payments are paused. */
const maintenance = (declared: typeof commerceCommands.maintenanceOn | typeof commerceCommands.maintenanceOff | typeof commerceCommands.maintenanceStatus) =>
  handle(declared, {
    async run(app, _args, { actor }) {
      if (declared.name !== 'maintenance status') await setMaintenance(app.db, actor, declared.name === 'maintenance on');
      return { command: declared.name, maintenance: await readMaintenance(app.db) };
    },
    format: (result) => (result.maintenance ? 'Payments are paused for maintenance.' : 'Payments are open.'),
  });

export default commandsPlugin('commerce', [
  handle(commerceCommands.productList, {
    run: async (app) => ({
      command: 'product list',
      products: (await app.db.select().from(products).orderBy(asc(products.sort), asc(products.code))).map(withActive),
    }),
    format: (result) => (result.products.length ? table(productHeaders, result.products.map(productRow)) : 'No products yet.'),
  }),
  handle(commerceCommands.productSet, {
    async run(app, product, { actor }) {
      const row = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(products).where(eq(products.code, product.code)).for('update');
        const [after] = await tx
          .insert(products)
          .values(product)
          .onConflictDoUpdate({ target: products.code, set: { ...product, updatedAt: new Date() } })
          .returning();
        await recordAudit(tx, actor, {
          action: 'product set',
          target: `product ${product.code}`,
          before: before ? toProduct(before) : null,
          after: toProduct(after),
        });
        return after;
      });
      return { command: 'product set', product: withActive(row) };
    },
    format: (result) => table(productHeaders, [productRow(result.product)]),
  }),
  handle(commerceCommands.orderList, {
    async run(app, { user: named, ...filter }) {
      const user = named === undefined ? undefined : await app.findUser(named);
      // A user who does not exist has no orders.
      const found = user === null ? { rows: [], total: 0 } : await listOrders(app.db, filter, user?.id);
      return { command: 'order list', rows: found.rows.map(withUser), total: found.total, page: filter.page, size: filter.size };
    },
    format: (result) => (result.rows.length ? `${table(orderHeaders, result.rows.map(orderRow))}\n\n${pageLine(result)}` : 'No orders.'),
  }),
  handle(commerceCommands.orderShow, {
    async run(app, { order: key }) {
      try {
        const row = await findOrder(app.db, key);
        return { command: 'order show', key, order: { ...(await historyOf(app.db, row)), UserId: row.userId, Refunds: await refundsOf(app.db, row.id) } };
      } catch (error) {
        if (error instanceof ApiError) return { command: 'order show', key, order: null };
        throw error;
      }
    },
    format({ key, order }) {
      if (!order) return `Order ${key}: not found`;
      const timeline = table(
        ['AT', 'STATE', 'BY', 'NOTE'],
        order.Timeline.map((event) => [time(event.At), event.State, event.Source, event.Note]),
      );
      const refunded = order.Refunds.length ? `\n\nRefunds\n${table(refundHeaders, order.Refunds.map(refundRow))}` : '';
      return `${table(orderHeaders, [orderRow(order)])}\n\nTimeline\n${timeline}${refunded}`;
    },
    found: (result) => result.order !== null,
  }),
  handle(commerceCommands.walletShow, {
    async run(app, { user: key }) {
      const user = await app.findUser(key);
      if (!user) return { command: 'wallet show', key, userId: null, wallet: null };
      const [plan] = await app.db.select({ until: memberships.until }).from(memberships).where(eq(memberships.userId, user.id));
      return {
        command: 'wallet show',
        key,
        userId: user.id,
        wallet: {
          balance: await balanceOf(app.db, user.id),
          ledger: (await ledgerPage(app.db, user.id, 1)).Items,
          planUntil: plan?.until.toISOString() ?? null,
          agreements: await listAgreements(app.db, user.id),
        },
      };
    },
    format({ key, wallet }) {
      if (!wallet) return noUser(key);
      const ledger = wallet.ledger.length
        ? table(
            ['AT', 'CHANGE', 'BALANCE', 'REASON', 'ORDER'],
            wallet.ledger.map((entry) => [time(entry.At), money(entry.Delta, 'CNY'), money(entry.BalanceAfter, 'CNY'), entry.Reason, orDash(entry.Order)]),
          )
        : 'No ledger rows.';
      return `Balance ${money(wallet.balance, 'CNY')}; plan ${wallet.planUntil ? `until ${time(wallet.planUntil)}` : 'none'}\n\n${ledger}`;
    },
    found: (result) => result.wallet !== null,
  }),
  handle(commerceCommands.fulfil, {
    run: (app, { order: key }, caller) =>
      orderStep(app, caller, 'order fulfil', key, async () => ({ order: await fulfilOrder(app.db, caller.actor, key), refund: null })),
    ...orderStepText,
  }),
  handle(commerceCommands.refund, {
    run: (app, { order: key, amount, to }, caller) =>
      orderStep(app, caller, 'order refund', key, async () => {
        const notifyUrl = (method: ProviderMethod) => app.payments.channel(method).notifyUrl();
        const request = { key, amount: amount ?? null, to };
        const done = await refund(refundContextOf(app), notifyUrl, caller.actor, refundLimitsOf(app, caller.actor), request);
        return { order: done.order, refund: refundEntry(done.refund) };
      }),
    ...orderStepText,
  }),
  handle(commerceCommands.refundAttention, {
    run: async (app) => ({ command: 'refund attention', refunds: await refundsNeedingAttention(app.db) }),
    format: (result) =>
      result.refunds.length
        ? table(
            ['ORDER', ...refundHeaders],
            result.refunds.map((r) => [r.orderKey, ...refundRow(r)]),
          )
        : 'No refund needs attention.',
  }),
  handle(commerceCommands.refundResolve, {
    run: (app, { refund: refundNo, resolution }, caller) =>
      orderStep(app, caller, 'refund resolve', refundNo, async () => {
        const done = await resolveRefund(refundContextOf(app), caller.actor, refundNo, resolution);
        return { order: done.order, refund: refundEntry(done.refund) };
      }),
    format(result) {
      if (!result.order || !result.refund) return `Refund ${result.key}: ${result.refused ?? 'not found'}`;
      return `Refund ${result.key} ${result.refund.state}.\n\n${orderStepText.format(result)}`;
    },
    found: (result) => result.order !== null,
  }),
  maintenance(commerceCommands.maintenanceOn),
  maintenance(commerceCommands.maintenanceOff),
  maintenance(commerceCommands.maintenanceStatus),
  ...invoiceHandlers,
]);
