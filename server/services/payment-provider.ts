/**
 * What the shop asks of a payment provider, whichever it is (WeChat Pay,
 * Alipay): a code to scan, a payment on the phone, a transaction's state,
 * closing it, refunds, and reading its notifications. Each adapter maps its
 * provider's protocol onto these words; WeChat Pay's auto-renewal contracts
 * are its own (wechatpay-adapter.ts).
 */

/** The providers that take money from outside (the wallet is the shop's own). */
export const providerMethods = ['wechatpay', 'alipay'] as const;
export type ProviderMethod = (typeof providerMethods)[number];

/**
 * A transaction's state in WeChat Pay's words, which every adapter speaks:
 * SUCCESS paid, NOTPAY waiting, CLOSED closed unpaid, PAYERROR failed,
 * REVOKED withdrawn, USERPAYING being paid, REFUND paid and refunded.
 */
export type TradeState = 'SUCCESS' | 'NOTPAY' | 'CLOSED' | 'PAYERROR' | 'REVOKED' | 'USERPAYING' | 'REFUND';

/** A payment as the provider reports it. */
export interface Transaction {
  /** Which provider reports it. */
  method: ProviderMethod;
  outTradeNo: string;
  /** The provider's own number of the payment (WeChat Pay's transaction_id, Alipay's trade_no), once there is one. */
  transactionId: string | null;
  tradeState: TradeState;
  /** In fen. */
  total: number;
}

/** The provider did not answer as the protocol says (or not at all): nothing can be assumed about the payment. */
export class ProviderError extends Error {}

/** No answer came: the connection failed, or the provider was slower than the deadline (PROVIDER_TIMEOUT_MS). */
export class ProviderUnanswered extends ProviderError {}

/** Closing was refused because the customer has paid. */
export class AlreadyPaidError extends ProviderError {}

/** The provider answered and refused the refund: nothing was refunded. (A ProviderError that is not this one may mean no answer came.) */
export class RefundRefused extends ProviderError {}

/** A notification that is not the provider's own, whole and for this shop: refused, and nothing changes. */
export class NotificationRefused extends Error {}

/** Where a refund stands at the provider: done, still under way, or not done (closed, or abnormal: the payer's account cannot take it). */
export type RefundStatus = 'SUCCESS' | 'PROCESSING' | 'CLOSED' | 'ABNORMAL';

export interface NewRefund {
  /** The provider's number of the payment that paid (an order's payment may have come through either of its trade numbers). */
  transactionId: string;
  outRefundNo: string;
  amount: number;
  /** What the transaction paid. */
  total: number;
  notifyUrl: string;
}

/** A refund asked about: its number, and the provider's number of the payment it gives back (Alipay finds a refund only by both). */
export interface RefundRef {
  outRefundNo: string;
  transactionId: string;
}

export interface NewTransaction {
  outTradeNo: string;
  description: string;
  total: number;
  expiresAt: Date;
  notifyUrl: string;
}

/** A payment on the phone also names the customer's address (WeChat Pay checks it against the phone) and the shop's page to come back to. */
export interface NewPhoneTransaction extends NewTransaction {
  payerClientIp: string;
  /** The pay page, marked as coming back; built by the server, never taken from the caller. */
  returnUrl: string;
}

export type ProviderEvent = { kind: 'transaction'; transaction: Transaction } | { kind: 'refund'; refund: { outRefundNo: string; status: RefundStatus } };

/** A notification as it arrived: its headers and its body exactly as sent (signatures cover the bytes). */
export interface ArrivedNotification {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface PaymentProvider {
  readonly method: ProviderMethod;
  /** Starts a scan-to-pay transaction; answers what the code shows (a URL the payment app opens). */
  createNative(order: NewTransaction): Promise<string>;
  /** Starts a payment on the phone; answers the address the phone's browser opens to pay in the provider's app or web checkout. */
  createPhone(order: NewPhoneTransaction): Promise<string>;
  /** The transaction of an order number, or null when the provider has none. */
  query(outTradeNo: string): Promise<Transaction | null>;
  /** Closes an unpaid transaction (one never started is nothing to close); throws AlreadyPaidError when it was paid. */
  close(outTradeNo: string): Promise<void>;
  /** Asks for a refund (asking again with the same number refunds once); its outcome may come later. Throws RefundRefused. */
  refund(refund: NewRefund): Promise<RefundStatus>;
  /** Where a refund stands, or null when the provider has none of that number. */
  queryRefund(refund: RefundRef): Promise<RefundStatus | null>;
}
