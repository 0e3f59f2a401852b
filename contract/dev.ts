/**
 * Development stand-ins for outside services. They exist only
 * while the server runs with a development provider, never in production.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { text } from './fields.ts';

export const OutboxMessage = z.object({ to: text(), subject: z.optional(text()), text: text(), sentAt: text() });
export type OutboxMessage = z.infer<typeof OutboxMessage>;

export const dev = {
  /** The messages the development SMS and e-mail outboxes hold for one phone number or address. */
  outbox: route({
    method: 'GET',
    path: '/dev/outbox',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    request: z.object({ to: text(z.minLength(1), z.maxLength(254)) }),
    response: z.array(OutboxMessage),
  }),
  /**
   * Makes the unused e-mail confirmation links sent to an address expire now,
   * so the expired-link screen can be tried without waiting a day.
   */
  expireEmailLinks: route({
    method: 'POST',
    path: '/dev/email-links/expire',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    request: z.object({ to: text(z.minLength(1), z.maxLength(254)) }),
    response: z.object({ Expired: z.int() }),
  }),
};

/**
 * The development identity provider: Steam (OpenID 2.0), Microsoft (OpenID
 * Connect) and QQ (OAuth 2.0) as their protocols have them, below
 * `/api/dev/idp/<provider>`, with one registered client.
 */
/** The development store (docs/tour.md "The store"): a stand-in for the external store, which checks store tokens as a real one would. */
export const devStore = { path: '/dev/store' } as const;

/** Site pages only the development stand-ins use (the payment sandbox's phone page, where a scanned code lands): a production start answers them as not found, in every locale. */
export const standInPages = ['wechatpay'] as const;

export const devIdentityProvider = {
  path: '/dev/idp',
  clientId: 'beacon-dev',
  clientSecret: 'beacon-dev-secret',
} as const;

/**
 * The payment sandbox's phone page (`/wechatpay?pr=`): what a scanned code is
 * for — a payment, or an auto-renewal contract to sign — and what the
 * "customer" does with it. For a signed contract, `failCharges` makes its
 * later charges fail (as an empty account would) and `terminate` ends it from
 * the payment app. For a paid transaction, `failRefunds` makes its later
 * refunds end abnormal (as a payer's closed account would).
 */
export const SandboxAction = z.enum(['approve', 'decline', 'expire', 'payTwice', 'failRefunds', 'failCharges', 'terminate']);
export type SandboxAction = z.infer<typeof SandboxAction>;

export const SandboxTransaction = z.object({
  Kind: z.enum(['payment', 'contract']),
  Id: text(),
  OrderKey: text(),
  Description: text(),
  /** In fen. */
  Total: z.int(),
  State: text(),
  ExpiresAt: z.iso.datetime(),
});
export type SandboxTransaction = z.infer<typeof SandboxTransaction>;

const prepayId = z.object({ id: text(z.regex(/^[A-Za-z0-9]{8,64}$/)) });

export const paymentSandbox = {
  transaction: route({
    method: 'GET',
    path: '/dev/wechatpay/sandbox/:id',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    params: prepayId,
    request: z.optional(z.object({})),
    response: SandboxTransaction,
  }),
  /** Acts as the customer's phone would, and sends the provider's signed notifications to the shop. */
  act: route({
    method: 'POST',
    path: '/dev/wechatpay/sandbox/:id',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    params: prepayId,
    request: z.object({ Action: SandboxAction }),
    response: SandboxTransaction,
  }),
};

/**
 * What the Alipay sandbox's customer does with a trade (the scan page and the
 * phone checkout offer the same): `scan` the code (the trade then exists at
 * Alipay, waiting), `approve` (pay), `decline` (back out: the trade still
 * waits), `expire` (let it time out), `close` (as the merchant's Alipay
 * console would); for a paid trade, `slowRefunds` makes its later refunds
 * process a moment before they succeed and `failRefunds` makes Alipay refuse
 * them (as with too little balance).
 */
export const AlipaySandboxAction = z.enum(['scan', 'approve', 'decline', 'expire', 'close', 'slowRefunds', 'failRefunds']);
export type AlipaySandboxAction = z.infer<typeof AlipaySandboxAction>;

/** An Alipay trade by its order number (out_trade_no), Alipay's trade number or its code's id (`bax0…`). */
const alipayTradeId = z.object({ id: text(z.regex(/^[A-Za-z0-9_]{1,64}$/)) });

/**
 * The Alipay sandbox's trades, answered as `SandboxTransaction`: `State` is
 * Alipay's trade_status, or UNSCANNED / EXPIRED for a code no phone scanned
 * (Alipay has no such trade yet: its query answers ACQ.TRADE_NOT_EXIST).
 */
export const alipaySandbox = {
  transaction: route({
    method: 'GET',
    path: '/dev/alipay/sandbox/:id',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    params: alipayTradeId,
    request: z.optional(z.object({})),
    response: SandboxTransaction,
  }),
  /** Acts as the customer's phone would, and sends Alipay's signed notifications to the shop. */
  act: route({
    method: 'POST',
    path: '/dev/alipay/sandbox/:id',
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    params: alipayTradeId,
    request: z.object({ Action: AlipaySandboxAction }),
    response: SandboxTransaction,
  }),
};
