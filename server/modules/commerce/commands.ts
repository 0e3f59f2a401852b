/**
 * The operators' commands about selling: `product list|set`, `order
 * list|show|fulfil|refund`, `refund attention|resolve`, `wallet show` and
 * `maintenance on|off|status`.
 */
import { and, asc, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { formatPrice } from '#contract/facts.ts';
import { orderStatusEvent, OrderMethod, OrderState, ProductKind, ratePpmScale, type Order, type Product } from '#contract/commerce.ts';
import type { RefundEntry } from '#contract/admin.ts';
import { commandsPlugin, oneUser, UsageError, type AdminCommand, type CommandContext, type ResultOf } from '../../admin-command.ts';
import { money, noUser, orDash, table, time } from '../../admin-text.ts';
import type { Database } from '../../db/database.ts';
import { memberships, orders, products } from '../../db/schema/commerce.ts';
import { recordAudit } from '../../db/audit.ts';
import { ApiError } from '../../http/api-error.ts';
import { message } from '../../i18n/messages.ts';
import type { PaymentOutcome } from '../../plugins/metrics.ts';
import { toProduct } from './catalogue.ts';
import { historyOf, findOrder, orderNotice, toOrder, type OrderRow } from './orders.ts';
import { listAgreements } from './agreements.ts';
import { balanceOf, ledgerPage } from './wallet.ts';
import { fulfilOrder, setMaintenance, underMaintenance } from './payments.ts';
import { refund, refundEntry, refundsNeedingAttention, refundsOf, resolveRefund, type RefundRequest, type Resolution } from './refunds.ts';

const withActive = (row: typeof products.$inferSelect): Product & { Active: boolean } => ({ ...toProduct(row), Active: row.active });
const withUser = (row: OrderRow) => ({ ...toOrder(row), UserId: row.userId });

/** `7.3` → 7300000: an exchange rate typed as a decimal, kept as a whole number of millionths. */
function parseRate(value: string): number {
  const match = /^(\d{1,4})(?:\.(\d{1,6}))?$/.exec(value);
  if (!match) throw new UsageError(`--rate takes fen per smallest unit of the currency as a decimal with up to 6 places, e.g. 7.3 (got "${value}")`);
  const rate = Number(match[1]) * ratePpmScale + Number((match[2] ?? '').padEnd(6, '0'));
  if (rate <= 0) throw new UsageError('--rate must be more than 0');
  return rate;
}

function wholeNumber(flag: string, value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`${flag} takes a whole number (in the smallest unit: fen, cents) (got "${value}")`);
  return Number(value);
}

/** `product set <code> --kind … [flags]`: the product as the flags describe it. */
function parseProduct(rest: string[]): typeof products.$inferInsert {
  const [code, ...flags] = rest;
  if (!code || !/^[a-z0-9-]{1,40}$/.test(code)) throw new UsageError('product set needs a code of lowercase letters, digits and dashes, e.g. steam-us');
  const product: typeof products.$inferInsert = { code, kind: 'membership', presets: [] };
  let kind: string | undefined;
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i];
    if (flag === '--active' || flag === '--inactive') {
      product.active = flag === '--active';
      continue;
    }
    const value = flags[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--kind') kind = value;
    else if (flag === '--months') product.months = wholeNumber(flag, value);
    else if (flag === '--price') product.price = wholeNumber(flag, value);
    else if (flag === '--currency') product.currency = /^[A-Z]{3}$/.test(value) ? value : usage(`--currency takes a code like USD (got "${value}")`);
    else if (flag === '--region') product.region = /^[A-Z]{2}$/.test(value) ? value : usage(`--region takes a code like US (got "${value}")`);
    else if (flag === '--rate') product.ratePpm = parseRate(value);
    else if (flag === '--presets') product.presets = value.split(',').map((amount) => wholeNumber(flag, amount.trim()));
    else if (flag === '--min') product.minAmount = wholeNumber(flag, value);
    else if (flag === '--max') product.maxAmount = wholeNumber(flag, value);
    else if (flag === '--sort') product.sort = wholeNumber(flag, value);
    else if (flag === '--renewal-plan') product.renewalPlan = wholeNumber(flag, value);
    else throw new UsageError(`product set does not know ${flag}`);
  }
  const parsedKind = ProductKind.safeParse(kind);
  if (!parsedKind.success) throw new UsageError(`product set needs --kind, one of ${ProductKind.options.join(', ')}`);
  product.kind = parsedKind.data;
  if (product.kind === 'membership' && (!product.months || product.price === undefined))
    throw new UsageError('a membership needs --months and --price (in fen)');
  if (product.kind === 'steamRecharge') {
    if (!product.currency || !product.region || !product.ratePpm || product.minAmount === undefined || product.maxAmount === undefined)
      throw new UsageError('a Steam recharge needs --currency, --region, --rate, --min and --max (and usually --presets)');
    if ((product.minAmount ?? 0) > (product.maxAmount ?? 0)) throw new UsageError('--min must not be more than --max');
  }
  return product;
}

function usage(text: string): never {
  throw new UsageError(text);
}

/** Tells the order's owner's open pages, when something can reach them. */
async function push(context: CommandContext, row: OrderRow): Promise<boolean> {
  if (!context.pusher || row.userId === null) return false;
  await context.pusher.toUser(row.userId, orderStatusEvent, [orderNotice(row)]);
  return true;
}

/** A refusal in the operator's language; an amount in fen (a parameter named `…Fen`) reads as money in it, under the name without `Fen`. */
function refusal(context: CommandContext, error: ApiError): string {
  const params = Object.fromEntries(
    Object.entries(error.messageParams).map(([name, value]) =>
      name.endsWith('Fen') ? [name.slice(0, -'Fen'.length), formatPrice(Number(value), context.locale)] : [name, value],
    ),
  );
  return message(context.locale, error.messageKey, params);
}

/** What refunding needs of the command's context. */
const refundContextOf = (context: CommandContext) => ({
  db: context.db,
  provider: context.paymentProvider,
  settled: (outcome: PaymentOutcome, method: string | null) => context.metrics?.paymentSettled(outcome, method),
});

/** An order command's outcome: the order as it is now (and a refund's own line), or why it was refused (in the operator's words). */
async function orderStep(
  context: CommandContext,
  command: 'order fulfil' | 'order refund' | 'refund resolve',
  key: string,
  step: () => Promise<{ order: OrderRow; refund: RefundEntry | null }>,
) {
  try {
    const done = await step();
    return { command, key, order: withUser(done.order), refund: done.refund, refused: null, pushed: await push(context, done.order) };
  } catch (error) {
    if (error instanceof ApiError) return { command, key, order: null, refund: null, refused: refusal(context, error), pushed: false };
    throw error;
  }
}

/** `order refund`'s words after the order: --amount FEN (all that is left when absent) and --to wallet|original (the original payment when absent). */
function parseRefund(rest: string[]): Omit<RefundRequest, 'key'> {
  const request: Omit<RefundRequest, 'key'> = { amount: null, to: 'original' };
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value = ''] = [rest[i], rest[i + 1]];
    if (flag === '--amount' && /^[1-9]\d{0,8}$/.test(value)) request.amount = Number(value);
    else if (flag === '--to' && (value === 'wallet' || value === 'original')) request.to = value;
    else throw new UsageError('order refund takes an order number, then --amount FEN and --to wallet|original');
  }
  return request;
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

/** `refund resolve`'s words: the refund's number and how it ended. */
function parseResolve(rest: string[]): { refundNo: string; resolution: Resolution } {
  const [refundNo = '', resolution = ''] = rest;
  if (rest.length !== 2 || !/^\d{20}R\d{1,4}$/.test(refundNo) || (resolution !== 'succeeded' && resolution !== 'failed'))
    throw new UsageError('refund resolve takes a refund number (the order number, R and a digit or more) and succeeded or failed');
  return { refundNo, resolution };
}

interface OrderFilter {
  state?: OrderState;
  method?: OrderMethod;
  /** The user as the operator named them (id, phone or e-mail). */
  user?: string;
  /** Made on or after this day, and before the day after `until` (UTC days, YYYY-MM-DD). */
  since?: Date;
  until?: Date;
}

const day = (value: string): Date | null => (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? new Date(`${value}T00:00:00Z`) : null);

function parseOrderFilter(rest: string[]): OrderFilter {
  const filter: OrderFilter = {};
  const wrong = () =>
    new UsageError(
      `order list takes --state <${OrderState.options.join('|')}>, --method <${OrderMethod.options.join('|')}>, --user <user>, --since YYYY-MM-DD and --until YYYY-MM-DD`,
    );
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value = ''] = [rest[i], rest[i + 1]];
    if (flag === '--state' && OrderState.safeParse(value).success) filter.state = value as OrderState;
    else if (flag === '--method' && OrderMethod.safeParse(value).success) filter.method = value as OrderMethod;
    else if (flag === '--user' && value.trim() && !value.startsWith('--')) filter.user = value;
    else if (flag === '--since' && day(value)) filter.since = day(value)!;
    else if (flag === '--until' && day(value)) filter.until = new Date(day(value)!.getTime() + 86_400_000);
    else throw wrong();
  }
  return filter;
}

/** The latest 100 orders that pass the filter, newest first (by the primary key's index: no sort of the whole table). */
async function listOrders(db: Database, filter: Omit<OrderFilter, 'user'> & { userId?: number }): Promise<OrderRow[]> {
  const conditions: SQL[] = [];
  if (filter.since) conditions.push(gte(orders.createdAt, filter.since));
  if (filter.until) conditions.push(lt(orders.createdAt, filter.until));
  if (filter.state) conditions.push(eq(orders.state, filter.state));
  if (filter.method) conditions.push(eq(orders.method, filter.method));
  if (filter.userId !== undefined) conditions.push(eq(orders.userId, filter.userId));
  return db
    .select()
    .from(orders)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(orders.id))
    .limit(100);
}

const oneOrder = (name: string, rest: string[]) => {
  if (rest.length !== 1 || !/^\d{20}$/.test(rest[0])) throw new UsageError(`${name} takes one order number (20 digits)`);
  return rest[0];
};

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

/** How `order fulfil` and `order refund` read (and `refund resolve` after its own line), and whether the order was there. */
const orderStepText = {
  format(result: ResultOf<'order fulfil' | 'order refund' | 'refund resolve'>) {
    if (!result.order) return `Order ${result.key}: ${result.refused ?? 'not found'}`;
    return `${table(orderHeaders, [orderRow(result.order)])}\n\n${result.pushed ? "Pushed to the customer's open pages." : 'No server was running to push it: open pages show it when they next load.'}`;
  },
  found: (result: ResultOf<'order fulfil' | 'order refund'>) => result.order !== null,
};

export const commerceCommands: AdminCommand[] = [
  {
    name: 'product list',
    role: 'support',
    usage: 'product list                    every product, sold or not',
    parse(rest) {
      if (rest.length > 0) throw new UsageError('product list takes no arguments');
      return async ({ db }) => ({
        command: 'product list',
        products: (await db.select().from(products).orderBy(asc(products.sort), asc(products.code))).map(withActive),
      });
    },
    format: (result: ResultOf<'product list'>) => (result.products.length ? table(productHeaders, result.products.map(productRow)) : 'No products yet.'),
  },
  {
    name: 'product set',
    role: 'operator',
    usage: `product set <code> --kind <kind> [flags]
                                  add or change a product; kind is membership
                                  (--months N --price FEN [--renewal-plan ID],
                                  the provider's auto-renewal template) or steamRecharge
                                  (--currency USD --region US --rate FEN_PER_UNIT
                                  --presets 500,1000 --min N --max N, amounts in
                                  the currency's smallest unit); --sort N;
                                  --inactive stops selling it, --active resumes`,
    parse(rest) {
      const product = parseProduct(rest);
      return async ({ db, actor }) => {
        const row = await db.transaction(async (tx) => {
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
      };
    },
    format: (result: ResultOf<'product set'>) => table(productHeaders, [productRow(result.product)]),
  },
  {
    name: 'order list',
    role: 'support',
    usage: `order list [--state <state>] [--method <method>] [--user <user>] [--since DAY] [--until DAY]
                                  the latest 100 orders, newest first, made between the days given
                                  (YYYY-MM-DD, both included); state is one of
                                  ${OrderState.options.join(', ')}; method ${OrderMethod.options.join(' or ')}`,
    parse(rest) {
      const filter = parseOrderFilter(rest);
      return async ({ db, findUser }) => {
        const user = filter.user === undefined ? undefined : await findUser(filter.user);
        // A user who does not exist has no orders.
        const { user: _named, ...rest } = filter;
        const found = user === null ? [] : await listOrders(db, { ...rest, userId: user?.id });
        return { command: 'order list', orders: found.map(withUser) };
      };
    },
    format: (result: ResultOf<'order list'>) => (result.orders.length ? table(orderHeaders, result.orders.map(orderRow)) : 'No orders.'),
  },
  {
    name: 'order show',
    role: 'support',
    usage: 'order show <order>              an order with its timeline',
    parse(rest) {
      const key = oneOrder('order show', rest);
      return async ({ db }) => {
        try {
          const row = await findOrder(db, key);
          return { command: 'order show', key, order: { ...(await historyOf(db, row)), UserId: row.userId, Refunds: await refundsOf(db, row.id) } };
        } catch (error) {
          if (error instanceof ApiError) return { command: 'order show', key, order: null };
          throw error;
        }
      };
    },
    format({ key, order }: ResultOf<'order show'>) {
      if (!order) return `Order ${key}: not found`;
      const timeline = table(
        ['AT', 'STATE', 'BY', 'NOTE'],
        order.Timeline.map((event) => [time(event.At), event.State, event.Source, event.Note]),
      );
      const refunded = order.Refunds.length ? `\n\nRefunds\n${table(refundHeaders, order.Refunds.map(refundRow))}` : '';
      return `${table(orderHeaders, [orderRow(order)])}\n\nTimeline\n${timeline}${refunded}`;
    },
    found: (result: ResultOf<'order show'>) => result.order !== null,
  },
  {
    name: 'wallet show',
    role: 'support',
    usage: "wallet show <user>              a user's balance, latest ledger rows, plan and auto-renewal agreements",
    parse(rest) {
      const key = oneUser('wallet show', rest);
      return async ({ db, findUser }) => {
        const user = await findUser(key);
        if (!user) return { command: 'wallet show', key, userId: null, wallet: null };
        const [plan] = await db.select({ until: memberships.until }).from(memberships).where(eq(memberships.userId, user.id));
        return {
          command: 'wallet show',
          key,
          userId: user.id,
          wallet: {
            balance: await balanceOf(db, user.id),
            ledger: (await ledgerPage(db, user.id, 1)).Items,
            planUntil: plan?.until.toISOString() ?? null,
            agreements: await listAgreements(db, user.id),
          },
        };
      };
    },
    format({ key, wallet }: ResultOf<'wallet show'>) {
      if (!wallet) return noUser(key);
      const ledger = wallet.ledger.length
        ? table(
            ['AT', 'CHANGE', 'BALANCE', 'REASON', 'ORDER'],
            wallet.ledger.map((entry) => [time(entry.At), money(entry.Delta, 'CNY'), money(entry.BalanceAfter, 'CNY'), entry.Reason, orDash(entry.Order)]),
          )
        : 'No ledger rows.';
      return `Balance ${money(wallet.balance, 'CNY')}; plan ${wallet.planUntil ? `until ${time(wallet.planUntil)}` : 'none'}\n\n${ledger}`;
    },
    found: (result: ResultOf<'wallet show'>) => result.wallet !== null,
  },
  {
    name: 'order fulfil',
    role: 'operator',
    usage: "order fulfil <order>            a paid Steam recharge was delivered; tells the customer's open pages",
    parse(rest) {
      const key = oneOrder('order fulfil', rest);
      return (context) => orderStep(context, 'order fulfil', key, async () => ({ order: await fulfilOrder(context.db, context.actor, key), refund: null }));
    },
    ...orderStepText,
  },
  {
    name: 'order refund',
    role: 'support',
    usage: `order refund <order> [--amount FEN] [--to wallet|original]
                                  give a paid order's money back, all that is left or
                                  FEN of it, to the payment it came from (default) or
                                  to the customer's wallet; a wallet payment goes back
                                  to the wallet`,
    parse(rest) {
      const key = oneOrder('order refund', rest.slice(0, 1));
      const request = { key, ...parseRefund(rest.slice(1)) };
      return (context) =>
        orderStep(context, 'order refund', key, async () => {
          const done = await refund(refundContextOf(context), context.paymentNotifyUrl, context.actor, context.refundLimits, request);
          return { order: done.order, refund: refundEntry(done.refund) };
        });
    },
    ...orderStepText,
  },
  {
    name: 'refund attention',
    role: 'support',
    usage: `refund attention                refunds that need an operator: WeChat Pay reported them abnormal (the
                                  money could not reach the payer's account); their amounts stay reserved`,
    parse(rest) {
      if (rest.length > 0) throw new UsageError('refund attention takes no arguments');
      return async ({ db }) => ({ command: 'refund attention', refunds: await refundsNeedingAttention(db) });
    },
    format: (result: ResultOf<'refund attention'>) =>
      result.refunds.length
        ? table(
            ['ORDER', ...refundHeaders],
            result.refunds.map((r) => [r.orderKey, ...refundRow(r)]),
          )
        : 'No refund needs attention.',
  },
  {
    name: 'refund resolve',
    role: 'operator',
    usage: `refund resolve <refund> succeeded|failed
                                  say how a refund WeChat Pay reported abnormal ended: succeeded (the
                                  money reached the customer another way: settled as refunded) or failed
                                  (nothing reached them: its amount can be refunded again)`,
    parse(rest) {
      const { refundNo, resolution } = parseResolve(rest);
      return (context) =>
        orderStep(context, 'refund resolve', refundNo, async () => {
          const done = await resolveRefund(refundContextOf(context), context.actor, refundNo, resolution);
          return { order: done.order, refund: refundEntry(done.refund) };
        });
    },
    format(result: ResultOf<'refund resolve'>) {
      if (!result.order || !result.refund) return `Refund ${result.key}: ${result.refused ?? 'not found'}`;
      return `Refund ${result.key} ${result.refund.state}.\n\n${orderStepText.format(result)}`;
    },
    found: (result: ResultOf<'refund resolve'>) => result.order !== null,
  },
  ...(['on', 'off', 'status'] as const).map((action): AdminCommand => ({
    name: `maintenance ${action}`,
    role: action === 'status' ? 'support' : 'operator',
    usage:
      action === 'status'
        ? 'maintenance status              whether payments are paused'
        : action === 'on'
          ? 'maintenance on                  pause payments: new orders and payments answer "system under maintenance"'
          : 'maintenance off                 take payments again',
    parse(rest) {
      if (rest.length > 0) throw new UsageError(`maintenance ${action} takes no arguments`);
      return async ({ db, actor }) => {
        if (action !== 'status') await setMaintenance(db, actor, action === 'on');
        return { command: `maintenance ${action}`, maintenance: await underMaintenance(db) };
      };
    },
    format: (result: ResultOf<'maintenance on' | 'maintenance off' | 'maintenance status'>) =>
      result.maintenance ? 'Payments are paused for maintenance.' : 'Payments are open.',
  })),
];

export default commandsPlugin('commerce', commerceCommands);
