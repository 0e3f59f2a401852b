/**
 * Buying (recharge/steam, /payment, /wechatpay, account order, wallet;
 * the payment outcomes): the catalogue, orders and their timeline, paying by
 * scanning a code or from the wallet, and the wallet's ledger (auto-renewal
 * agreements are agreements.ts's). Every amount is a whole number in the
 * currency's smallest unit (fen for CNY), never a float.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { facts, periodMs } from './facts.ts';
import { ErrorCode } from './errors.ts';
import { Empty, Minor, text } from './fields.ts';
import { paged } from './paging.ts';
import type { HubEvent } from './realtime.ts';

/** What the customer pays in. */
export const payCurrency = 'CNY';

/** An order not paid this long after it was made closes by itself. */
export const orderPayWindowMs: number = periodMs(facts.orders.payWindow);

export const ProductKind = z.enum(['steamRecharge', 'membership']);
export type ProductKind = z.infer<typeof ProductKind>;

/** Fen paid per smallest unit of a recharge's currency, times a million: an exchange rate as a whole number. */
export const ratePpmScale = 1_000_000;

export const Product = z.object({
  Code: text(z.regex(/^[a-z0-9-]{1,40}$/)),
  Kind: ProductKind,
  /** membership: the plan's length and price in fen. */
  Months: z.nullable(z.int().check(z.positive())),
  Price: z.nullable(Minor),
  /** steamRecharge: the Steam wallet's currency and region, the exchange rate, the preset amounts and the bounds of a custom one (in that currency's smallest unit). */
  Currency: z.nullable(text(z.regex(/^[A-Z]{3}$/))),
  Region: z.nullable(text(z.regex(/^[A-Z]{2}$/))),
  RatePpm: z.nullable(z.int().check(z.positive())),
  Presets: z.array(Minor),
  MinAmount: z.nullable(Minor),
  MaxAmount: z.nullable(Minor),
  /** membership: whether it can renew automatically (an auto-renewal agreement with the payment provider). */
  AutoRenew: z.boolean(),
});
export type Product = z.infer<typeof Product>;

/** What a recharge of `amount` (in the recharge currency's smallest unit) costs in fen: rounded up, so the rate is never undercut. */
export function rechargePrice(amount: number, ratePpm: number): number {
  return Number((BigInt(amount) * BigInt(ratePpm) + BigInt(ratePpmScale - 1)) / BigInt(ratePpmScale));
}

/** SteamID64 of individual accounts: this base plus the 32-bit account id (the "friend code"). */
const steamId64Base = 76561197960265728n;

/**
 * The Steam account a recharge goes to, from what a customer types: a friend
 * code (the account id), a SteamID64, or a trade URL
 * (`https://steamcommunity.com/tradeoffer/new/?partner=<account id>&token=…`).
 * Null when it is none of those.
 */
export function steamTargetOf(typed: string): string | null {
  const accountId = steamAccountIdOf(typed.trim());
  if (accountId === null || accountId <= 0n || accountId >= 2n ** 32n) return null;
  return String(steamId64Base + accountId);
}

function steamAccountIdOf(text: string): bigint | null {
  if (/^\d{1,10}$/.test(text)) return BigInt(text);
  if (/^7656\d{13}$/.test(text)) return BigInt(text) - steamId64Base;
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  const partner = url.searchParams.get('partner');
  const token = url.searchParams.get('token');
  if (url.protocol !== 'https:' || url.hostname !== 'steamcommunity.com' || url.pathname.replace(/\/$/, '') !== '/tradeoffer/new') return null;
  if (!partner || !/^\d{1,10}$/.test(partner) || !token || !/^[\w-]{6,16}$/.test(token)) return null;
  return BigInt(partner);
}

export const OrderState = z.enum(['created', 'paying', 'paid', 'fulfilled', 'closed', 'failed', 'refunded']);
export type OrderState = z.infer<typeof OrderState>;

/** The ten payment outcomes, each with its own message (`pay.outcome.<name>`). */
export const PayOutcome = z.enum([
  'canceled',
  'failed',
  'successful',
  'closed',
  'agreementSigned',
  'userSigned',
  'unsupportedType',
  'timeout',
  'paidByOther',
  'maintenance',
]);
export type PayOutcome = z.infer<typeof PayOutcome>;

/** Refusals of a payment that are payment outcomes in their own right, so the pay page shows them as such. */
export const outcomeOfRefusal: Partial<Record<number, PayOutcome>> = {
  [ErrorCode.Maintenance]: 'maintenance',
  [ErrorCode.PayMethodUnsupported]: 'unsupportedType',
  [ErrorCode.OrderClosed]: 'closed',
  [ErrorCode.AgreementSigned]: 'agreementSigned',
  [ErrorCode.UserSigned]: 'userSigned',
};

/** The ways this server takes money; the desktop client may ask for others, which are "unsupported payment type". */
export const PayMethod = z.enum(['wechatpay', 'alipay', 'wallet']);
export type PayMethod = z.infer<typeof PayMethod>;

/** How an order was paid: a pay method, or a redeemed cdkey (contract/activation.ts). */
export const OrderMethod = z.enum([...PayMethod.options, 'cdkey']);
export type OrderMethod = z.infer<typeof OrderMethod>;

/** Who made an order's event happen. */
export const EventSource = z.enum(['customer', 'provider', 'wallet', 'operator', 'system']);

export const OrderItem = z.object({
  Kind: ProductKind,
  Product: text(),
  /** membership */
  Months: z.nullable(z.int()),
  /** steamRecharge: the amount in the recharge currency, the rate used and the Steam account (SteamID64). */
  Amount: z.nullable(Minor),
  Currency: z.nullable(text()),
  RatePpm: z.nullable(z.int()),
  SteamId: z.nullable(text()),
});
export type OrderItem = z.infer<typeof OrderItem>;

export const Order = z.object({
  Key: text(),
  State: OrderState,
  /** Set once the order has an outcome to show on the pay page. */
  Outcome: z.nullable(PayOutcome),
  Item: OrderItem,
  /** What the customer pays, in fen. */
  Price: Minor,
  Method: z.nullable(OrderMethod),
  CreatedAt: z.iso.datetime(),
  /** Unpaid, it closes at this time. */
  ExpiresAt: z.iso.datetime(),
  /** The auto-renewal agreement the order pays a period of (its first, or a renewal); paying it signs the agreement. */
  Agreement: z.nullable(text()),
});
export type Order = z.infer<typeof Order>;

export const OrderEvent = z.object({
  State: OrderState,
  Source: EventSource,
  /** What happened, as a key of `order.event.*`. */
  Note: text(),
  At: z.iso.datetime(),
});

/** An order with its timeline, as the console shows it. */
export const OrderHistory = z.extend(Order, { Timeline: z.array(OrderEvent) });
export type OrderHistory = z.infer<typeof OrderHistory>;

/** An order as its customer sees it: with its timeline, and the ways it can be paid here now, in the order the pay page offers them (none once it is settled). */
export const OrderDetail = z.extend(OrderHistory, { PayWith: z.array(PayMethod) });
export type OrderDetail = z.infer<typeof OrderDetail>;

/** Who sold, as the receipt names them (the SELLER_* settings); what is not set is null. */
export const Seller = z.object({ Name: text(), Address: z.nullable(text()), TaxId: z.nullable(text()), Contact: z.nullable(text()) });
export type Seller = z.infer<typeof Seller>;

/**
 * A paid order's receipt: who sold what, for how much, how and when it was
 * paid, and the payment service's transaction number (null for the wallet,
 * which has none). A refunded order keeps its receipt, with what went back.
 */
export const Receipt = z.object({
  Seller,
  Key: text(),
  State: OrderState,
  Item: OrderItem,
  /** What was paid, in fen. */
  Price: Minor,
  Method: PayMethod,
  PaidAt: z.iso.datetime(),
  Transaction: z.nullable(text()),
  /** What has been refunded so far, in fen (0: nothing). */
  Refunded: Minor,
});
export type Receipt = z.infer<typeof Receipt>;

/** A scan-to-pay payment under way: the code the customer scans, as an SVG and as its URL. */
export const Payment = z.object({
  Order,
  CodeUrl: z.nullable(text()),
  QrSvg: z.nullable(text()),
});
export type Payment = z.infer<typeof Payment>;

export const LedgerReason = z.enum(['payment', 'refund', 'duplicatePayment', 'latePayment', 'credit', 'cdkey', 'donation', 'raffle']);

export const LedgerEntry = z.object({
  Id: z.int(),
  /** Positive in, negative out, in fen. */
  Delta: z.int(),
  BalanceAfter: Minor,
  Reason: LedgerReason,
  Order: z.nullable(text()),
  At: z.iso.datetime(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

/** Which page of a list (the first is 1), from the path. */
const page = z.object({ page: z.pipe(text(z.regex(/^[0-9]{1,6}$/)), z.pipe(z.transform(Number), z.int().check(z.positive()))) });
const orderKey = z.object({ key: text(z.regex(/^[0-9]{20}$/)) });

export const NewOrder = z.object({
  Product: text(z.maxLength(40)),
  /** steamRecharge: a preset or a custom amount in the recharge currency's smallest unit. */
  Amount: z.optional(Minor),
  /** steamRecharge: a friend code, SteamID64 or trade URL; absent for the linked Steam account. */
  Target: z.optional(text(z.maxLength(200))),
});

/**
 * A /bindorder link's query: the order, when the link expires (seconds since
 * the epoch), and the server's signature of both. Loose on purpose: any
 * altered link is refused as forged, in words the user understands.
 */
export const BindLink = z.object({
  order: text(z.maxLength(40)),
  expires: text(z.maxLength(20)),
  sig: text(z.maxLength(100)),
});
export type BindLink = z.infer<typeof BindLink>;

export const commerceCalls = {
  products: route({
    method: 'GET',
    path: '/commerce/v1/products',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    request: Empty,
    response: z.array(Product),
  }),
  createOrder: route({ method: 'POST', path: '/commerce/v1/orders', encrypted: true, auth: 'required', shape: 'envelope', request: NewOrder, response: Order }),
  orders: route({
    method: 'GET',
    path: '/commerce/v1/orders/page/:page',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: page,
    request: Empty,
    response: paged(Order),
  }),
  order: route({
    method: 'GET',
    path: '/commerce/v1/orders/:key',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: orderKey,
    request: Empty,
    response: OrderDetail,
  }),
  /** A paid order's receipt (paid, fulfilled or refunded, paid with money): another's order, an unknown one and an unpaid one are not found. */
  receipt: route({
    method: 'GET',
    path: '/commerce/v1/orders/:key/receipt',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: orderKey,
    request: Empty,
    response: Receipt,
  }),
  /** Starts paying: a code to scan (wechatpay, alipay), or paid at once from the balance (wallet). */
  pay: route({
    method: 'POST',
    path: '/commerce/v1/orders/:key/pay',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: orderKey,
    request: z.object({ Method: text(z.maxLength(20)) }),
    response: Payment,
  }),
  /**
   * Starts paying in the provider's app on the phone whose browser asks
   * (WeChat Pay H5, Alipay's wap.pay): the address to open, which leads back
   * to the pay page marked as coming back (`from=<method>`). The outcome
   * still comes only from the provider's notification or its answer to a query.
   */
  payOnPhone: route({
    method: 'POST',
    path: '/commerce/v1/orders/:key/pay/phone',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: orderKey,
    request: z.object({ Method: text(z.maxLength(20)) }),
    response: z.object({ Order, PayUrl: z.url() }),
  }),
  cancel: route({
    method: 'POST',
    path: '/commerce/v1/orders/:key/cancel',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: orderKey,
    request: Empty,
    response: Order,
  }),
  wallet: route({
    method: 'GET',
    path: '/commerce/v1/wallet/:page',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: page,
    request: Empty,
    response: z.extend(paged(LedgerEntry), { Balance: Minor }),
  }),
  /**
   * WeChat Pay's notification of a transaction or of an auto-renewal contract (APIv3): signed in the
   * `Wechatpay-*` headers over the body as sent, its resource sealed under the
   * APIv3 key. Anything not signed, stale or replayed is refused (4xx), and the
   * provider tries again later.
   */
  notify: route({
    method: 'POST',
    path: '/commerce/v1/notify/wechatpay',
    encrypted: false,
    auth: 'none',
    shape: 'raw',
    request: z.object({
      id: text(z.maxLength(100)),
      event_type: text(z.maxLength(100)),
      resource_type: text(z.maxLength(100)),
      resource: z.object({ algorithm: text(), ciphertext: text(), nonce: text(), associated_data: z.optional(text()), original_type: text() }),
    }),
    response: z.object({ code: text(), message: text() }),
  }),
  /**
   * Alipay's asynchronous notification of a trade (paid, closed, refunded):
   * form-encoded, RSA2-signed over its parameters, for this app and seller.
   * Answered `success` once it is stored; anything else (a refusal) makes
   * Alipay send it again later.
   */
  notifyAlipay: route({
    method: 'POST',
    path: '/commerce/v1/notify/alipay',
    encrypted: false,
    auth: 'none',
    shape: 'raw',
    maxBodyBytes: 16 * 1024,
    request: z.record(text(z.maxLength(64)), text(z.maxLength(4096))),
    response: z.literal('success'),
  }),
  /**
   * An order made in the desktop client before anyone signed in: it has no
   * account yet, and comes with the signed /bindorder link that gives it one.
   */
  createClientOrder: route({
    method: 'POST',
    path: '/commerce/v1/client-orders',
    encrypted: true,
    auth: 'none',
    shape: 'envelope',
    request: NewOrder,
    response: z.object({ Order: Order, BindUrl: z.url() }),
  }),
  /** /bindorder: attaches the order of a signed link to the caller's account, once. */
  bindOrder: route({
    method: 'POST',
    path: '/commerce/v1/orders/bind',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: BindLink,
    response: Order,
  }),
  /** The account centre's glance: the balance and until when the cloud-idling plan runs (null: none). */
  summary: route({
    method: 'GET',
    path: '/commerce/v1/summary',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: Empty,
    response: z.object({ Balance: Minor, MembershipUntil: z.nullable(z.iso.datetime()) }),
  }),
};

/** What the hub pushes to a user's open pages when one of their orders changes. */
export const OrderNotice = z.object({ Key: text(), State: OrderState, Outcome: z.nullable(PayOutcome) });
export type OrderNotice = z.infer<typeof OrderNotice>;

/** Pushed to the user when one of their orders changes: the pay page and the order pages follow it without polling. */
export const orderStatusEvent = { name: 'OrderStatusNoticeMsg', arguments: z.tuple([OrderNotice]) } as const satisfies HubEvent;
