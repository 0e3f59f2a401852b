/**
 * The operators' commands about selling: `product list|set`, `order
 * list|show|fulfil|refund`, `wallet show`, `refund attention|resolve` and
 * `maintenance on|off|status`.
 */
import * as z from 'zod/mini';
import { Agreement } from '../agreements.ts';
import { RefundEntry } from '../admin.ts';
import { command, NoArgs, noWords, oneUserWord, UsageError, UserKey } from '../command.ts';
import { LedgerEntry, Order, OrderHistory, OrderMethod, OrderState, Product, ProductKind, ratePpmScale } from '../commerce.ts';
import { text } from '../fields.ts';
import { listArgs, listPage, listSize, listWords } from '../list.ts';

/** A whole number as the database keeps one (fen, cents, months, a sort key). */
const Whole = z.int().check(z.minimum(0), z.maximum(999_999_999));

/** An order's number as customers and operators see it. */
const OrderKey = text(z.regex(/^\d{20}$/, 'an order number is 20 digits'));

/** A refund's number: its order's number, R and how many refunds of the order came before it and it. */
const RefundNo = text(z.regex(/^\d{20}R\d{1,4}$/, 'a refund number is the order number, R and a digit or more'));

/** A day as a date field gives it (YYYY-MM-DD), read as a UTC day. */
const Day = z.iso.date({ error: 'a day is written YYYY-MM-DD' });

const ListedProduct = z.extend(Product, { Active: z.boolean() });
const ListedOrder = z.extend(Order, { UserId: z.nullable(z.int()) });

/** `product set`'s product: its kind's fields, and what else is given; what is not given stays as it was (but the presets, none unless given). */
const ProductArgs = z
  .strictObject({
    code: text(z.regex(/^[a-z0-9-]{1,40}$/, 'a product code is lowercase letters, digits and dashes, e.g. steam-us')),
    kind: z.enum(ProductKind.options, { error: `a product's kind is one of ${ProductKind.options.join(', ')}` }),
    /** membership: the plan's months and price (fen), and the provider's auto-renewal template. */
    months: z.optional(Whole),
    price: z.optional(Whole),
    renewalPlan: z.optional(Whole),
    /** steamRecharge: the currency (USD), region (US), rate (millionths of a fen per smallest unit), amounts in the smallest unit. */
    currency: z.optional(text(z.regex(/^[A-Z]{3}$/, 'a currency is a code like USD'))),
    region: z.optional(text(z.regex(/^[A-Z]{2}$/, 'a region is a code like US'))),
    ratePpm: z.optional(z.int().check(z.positive('the rate must be more than 0'), z.maximum(2_147_483_647))),
    presets: z._default(z.array(Whole).check(z.maxLength(50)), []),
    minAmount: z.optional(Whole),
    maxAmount: z.optional(Whole),
    sort: z.optional(Whole),
    /** False stops selling it; true resumes. */
    active: z.optional(z.boolean()),
  })
  .check(
    z.refine((product) => product.kind !== 'membership' || (!!product.months && product.price !== undefined), 'a membership needs months and a price (in fen)'),
    z.refine(
      (product) =>
        product.kind !== 'steamRecharge' ||
        (!!product.currency && !!product.region && !!product.ratePpm && product.minAmount !== undefined && product.maxAmount !== undefined),
      'a Steam recharge needs a currency, region, rate, min and max (and usually presets)',
    ),
    z.refine((product) => (product.minAmount ?? 0) <= (product.maxAmount ?? Infinity), 'the min must not be more than the max'),
  );
type ProductArgs = z.input<typeof ProductArgs>;

/** A whole number typed after a flag, in the smallest unit (fen, cents). */
function wholeWord(flag: string, value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`${flag} takes a whole number (in the smallest unit: fen, cents) (got "${value}")`);
  return Number(value);
}

/** `7.3` → 7300000: an exchange rate typed as a decimal, kept as a whole number of millionths. */
function rateWord(value: string): number {
  const match = /^(\d{1,4})(?:\.(\d{1,6}))?$/.exec(value);
  if (!match) throw new UsageError(`--rate takes fen per smallest unit of the currency as a decimal with up to 6 places, e.g. 7.3 (got "${value}")`);
  return Number(match[1]) * ratePpmScale + Number((match[2] ?? '').padEnd(6, '0'));
}

/** `product set`'s flags that take a value, and the field each sets (the schema checks the values). */
const productFlags: Record<string, (value: string) => Partial<Record<keyof ProductArgs, unknown>>> = {
  '--kind': (kind) => ({ kind }),
  '--months': (value) => ({ months: wholeWord('--months', value) }),
  '--price': (value) => ({ price: wholeWord('--price', value) }),
  '--currency': (currency) => ({ currency }),
  '--region': (region) => ({ region }),
  '--rate': (value) => ({ ratePpm: rateWord(value) }),
  '--presets': (value) => ({ presets: value.split(',').map((amount) => wholeWord('--presets', amount.trim())) }),
  '--min': (value) => ({ minAmount: wholeWord('--min', value) }),
  '--max': (value) => ({ maxAmount: wholeWord('--max', value) }),
  '--sort': (value) => ({ sort: wholeWord('--sort', value) }),
  '--renewal-plan': (value) => ({ renewalPlan: wholeWord('--renewal-plan', value) }),
};

/** `product set <code> --kind … [flags]` → the product as the flags describe it. */
function productWords([code = '', ...flags]: string[]): Partial<Record<keyof ProductArgs, unknown>> {
  if (!code || code.startsWith('--')) throw new UsageError('product set needs a code of lowercase letters, digits and dashes, e.g. steam-us');
  const product: Partial<Record<keyof ProductArgs, unknown>> = { code };
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i];
    if (flag === '--active' || flag === '--inactive') {
      product.active = flag === '--active';
      continue;
    }
    if (!Object.hasOwn(productFlags, flag)) throw new UsageError(`product set does not know ${flag}`);
    const value = flags[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    Object.assign(product, productFlags[flag](value));
  }
  return product;
}

/** The columns `order list` sorts by: when it was made, its price, state and method. */
export const orderSorts = ['created', 'price', 'state', 'method'] as const;

const OrderFilter = z.strictObject({
  ...listArgs(orderSorts, 'created'),
  state: z.optional(OrderState),
  method: z.optional(OrderMethod),
  /** The customer, by id, phone or e-mail. */
  user: z.optional(UserKey),
  /** An order number, or its first digits (at least 4). */
  key: z.optional(text(z.regex(/^\d{4,20}$/, 'an order number is 20 digits; give at least its first 4'))),
  /** Made on or after this day, and on or before `until` (UTC days). */
  since: z.optional(Day),
  until: z.optional(Day),
});

/** `<name> <order>`: one order's number, and nothing else. */
const oneOrderWord =
  (name: string) =>
  (rest: string[]): { order: string } => {
    if (rest.length !== 1) throw new UsageError(`${name} takes one order number (20 digits)`);
    return { order: rest[0] };
  };

/** `order refund <order> [--amount FEN] [--to wallet|original]`. */
function refundWords([order = '', ...flags]: string[]): { order: string; amount?: number; to?: string } {
  const asked: { order: string; amount?: number; to?: string } = { order };
  const wrong = () => new UsageError('order refund takes an order number, then --amount FEN and --to wallet|original');
  for (let i = 0; i < flags.length; i += 2) {
    const [flag, value = ''] = [flags[i], flags[i + 1]];
    if (flag === '--amount' && /^\d{1,9}$/.test(value)) asked.amount = Number(value);
    else if (flag === '--to' && value) asked.to = value;
    else throw wrong();
  }
  return asked;
}

/**
 * `order fulfil`, `order refund` and `refund resolve`: the order as it is now and whether its owner's open pages were
 * told, or why it was refused; a refund's own line. `key`: the order's number (the refund's for `refund resolve`).
 */
const OrderStep = {
  key: text(),
  order: z.nullable(ListedOrder),
  refund: z.nullable(RefundEntry),
  refused: z.nullable(text()),
  pushed: z.boolean(),
};

/** `maintenance on|off|status`: whether payments are paused after it. */
const Maintenance = { maintenance: z.boolean() };

export const commerceCommands = {
  productList: command({
    name: 'product list',
    role: 'support',
    usage: 'product list                    every product, sold or not',
    args: NoArgs,
    words: noWords('product list'),
    result: { products: z.array(ListedProduct) },
  }),
  productSet: command({
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
    args: ProductArgs,
    words: productWords,
    result: { product: ListedProduct },
  }),
  orderList: command({
    name: 'order list',
    role: 'support',
    usage: `order list [--state <state>] [--method <method>] [--user <user>] [--key <number>] [--since DAY] [--until DAY]
           [--sort ${orderSorts.join('|')}] [--asc|--desc] [--page N] [--size N]
                                  orders, newest first unless sorted, a page at a time (${listSize.default}, at most
                                  ${listSize.max}): made between the days given (YYYY-MM-DD, both included),
                                  whose number starts with --key; state is one of
                                  ${OrderState.options.join(', ')}; method ${OrderMethod.options.join(' or ')}`,
    args: OrderFilter,
    words: listWords('order list', { '--state': 'state', '--method': 'method', '--user': 'user', '--key': 'key', '--since': 'since', '--until': 'until' }),
    result: listPage(ListedOrder),
  }),
  orderShow: command({
    name: 'order show',
    role: 'support',
    usage: 'order show <order>              an order with its timeline',
    args: z.strictObject({ order: OrderKey }),
    words: oneOrderWord('order show'),
    /** The order with its timeline and refunds, or null for a number there is none of. */
    result: { key: text(), order: z.nullable(z.extend(OrderHistory, { UserId: z.nullable(z.int()), Refunds: z.array(RefundEntry) })) },
  }),
  walletShow: command({
    name: 'wallet show',
    role: 'support',
    usage: "wallet show <user>              a user's balance, latest ledger rows, plan and auto-renewal agreements",
    args: z.strictObject({ user: UserKey }),
    words: oneUserWord('wallet show'),
    /** The balance (fen), the newest ledger rows, until when the user's plan runs and their agreements; null for no such user. */
    result: {
      key: text(),
      userId: z.nullable(z.int()),
      wallet: z.nullable(z.object({ balance: z.int(), ledger: z.array(LedgerEntry), planUntil: z.nullable(text()), agreements: z.array(Agreement) })),
    },
  }),
  fulfil: command({
    name: 'order fulfil',
    role: 'operator',
    usage: "order fulfil <order>            a paid Steam recharge was delivered; tells the customer's open pages",
    args: z.strictObject({ order: OrderKey }),
    words: oneOrderWord('order fulfil'),
    result: OrderStep,
  }),
  refund: command({
    name: 'order refund',
    role: 'support',
    usage: `order refund <order> [--amount FEN] [--to wallet|original]
                                  give a paid order's money back, all that is left or
                                  FEN of it, to the payment it came from (default) or
                                  to the customer's wallet; a wallet payment goes back
                                  to the wallet`,
    args: z.strictObject({
      order: OrderKey,
      /** Fen; absent, all that is left to refund. */
      amount: z.optional(z.int().check(z.minimum(1, 'a refund is at least 1 fen'), z.maximum(999_999_999))),
      /** Where the money goes; an order paid from the wallet goes back to it either way. */
      to: z._default(z.enum(['wallet', 'original'], { error: 'a refund goes to the wallet or the original payment' }), 'original'),
    }),
    words: refundWords,
    result: OrderStep,
  }),
  refundAttention: command({
    name: 'refund attention',
    role: 'support',
    usage: `refund attention                refunds that need an operator: WeChat Pay reported them abnormal (the
                                  money could not reach the payer's account); their amounts stay reserved`,
    args: NoArgs,
    words: noWords('refund attention'),
    /** The refunds that need an operator (abnormal), oldest first, each with its order's number. */
    result: { refunds: z.array(z.extend(RefundEntry, { orderKey: text() })) },
  }),
  refundResolve: command({
    name: 'refund resolve',
    role: 'operator',
    usage: `refund resolve <refund> succeeded|failed
                                  say how a refund WeChat Pay reported abnormal ended: succeeded (the
                                  money reached the customer another way: settled as refunded) or failed
                                  (nothing reached them: its amount can be refunded again)`,
    /** `succeeded`: the money reached the customer another way; `failed`: nothing reached them, its amount is free again. */
    args: z.strictObject({ refund: RefundNo, resolution: z.enum(['succeeded', 'failed'], { error: 'a refund resolves as succeeded or failed' }) }),
    words: (rest) => {
      if (rest.length !== 2) throw new UsageError('refund resolve takes a refund number (the order number, R and a digit or more) and succeeded or failed');
      return { refund: rest[0], resolution: rest[1] };
    },
    result: OrderStep,
  }),
  maintenanceOn: command({
    name: 'maintenance on',
    role: 'operator',
    usage: 'maintenance on                  pause payments: new orders and payments answer "system under maintenance"',
    args: NoArgs,
    words: noWords('maintenance on'),
    result: Maintenance,
  }),
  maintenanceOff: command({
    name: 'maintenance off',
    role: 'operator',
    usage: 'maintenance off                 take payments again',
    args: NoArgs,
    words: noWords('maintenance off'),
    result: Maintenance,
  }),
  maintenanceStatus: command({
    name: 'maintenance status',
    role: 'support',
    usage: 'maintenance status              whether payments are paused',
    args: NoArgs,
    words: noWords('maintenance status'),
    result: Maintenance,
  }),
};
