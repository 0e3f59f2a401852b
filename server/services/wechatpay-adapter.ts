/**
 * The payment provider: WeChat Pay APIv3 Native (scan-to-pay). Every request
 * is signed with the merchant key; every answer and notification must carry
 * the platform's signature, and a notification's resource opens only under
 * the APIv3 key. The development sandbox (modules/dev) speaks the same
 * protocol, so this one adapter serves both.
 */
import type { KeyObject } from 'node:crypto';
import { openResource, requestAuthorization, SignatureError, verifyPlatformSignature, type MerchantKey, type SealedResource } from './wechatpay.ts';

export type TradeState = 'SUCCESS' | 'NOTPAY' | 'CLOSED' | 'PAYERROR' | 'REVOKED' | 'USERPAYING' | 'REFUND';

/** A payment as the provider reports it. */
export interface Transaction {
  outTradeNo: string;
  transactionId: string | null;
  tradeState: TradeState;
  total: number;
}

export interface WechatPayCredentials {
  baseUrl: string;
  appid: string;
  merchant: MerchantKey;
  platform: { serial: string; publicKey: KeyObject };
  apiV3Key: string;
}

/** The provider did not answer as the protocol says (or not at all): nothing can be assumed about the payment. */
export class ProviderError extends Error {}

/** Closing was refused because the customer has paid. */
export class AlreadyPaidError extends ProviderError {}

export interface NewTransaction {
  outTradeNo: string;
  description: string;
  total: number;
  expiresAt: Date;
  notifyUrl: string;
}

export interface PaymentProvider {
  /** Starts a scan-to-pay transaction; answers the code URL to show as a QR code. */
  createNative(order: NewTransaction): Promise<string>;
  /** The transaction of an order number, or null when the provider has none. */
  query(outTradeNo: string): Promise<Transaction | null>;
  /** Closes an unpaid transaction; throws AlreadyPaidError when it was paid. */
  close(outTradeNo: string): Promise<void>;
  refund(outTradeNo: string, outRefundNo: string, amount: number, total: number): Promise<void>;
  /** The transaction a notification reports and its nonce; throws SignatureError for anything not signed and sealed by the platform. */
  readNotification(headers: Record<string, string | string[] | undefined>, body: string): { nonce: string; transaction: Transaction };
}

interface TransactionResource {
  mchid?: string;
  appid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: TradeState;
  amount?: { total?: number };
}

function toTransaction(resource: TransactionResource): Transaction {
  if (typeof resource.out_trade_no !== 'string' || typeof resource.trade_state !== 'string') throw new ProviderError('transaction without number or state');
  return {
    outTradeNo: resource.out_trade_no,
    transactionId: resource.transaction_id ?? null,
    tradeState: resource.trade_state,
    total: Number(resource.amount?.total ?? 0),
  };
}

export function wechatPay(credentials: WechatPayCredentials): PaymentProvider {
  const { merchant, appid } = credentials;
  const base = new URL(credentials.baseUrl);

  async function request(method: 'GET' | 'POST', path: string, payload?: object): Promise<{ status: number; json: Record<string, unknown> | null }> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const url = new URL(`${base.pathname.replace(/\/$/, '')}${path}`, base);
    const pathAndQuery = `${url.pathname}${url.search}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          authorization: requestAuthorization(method, pathAndQuery, body, merchant),
        },
        body: payload === undefined ? undefined : body,
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new ProviderError(`WeChat Pay did not answer ${method} ${path}`, { cause: error });
    }
    const text = await response.text();
    try {
      verifyPlatformSignature(Object.fromEntries(response.headers), text, credentials.platform);
    } catch (error) {
      throw new ProviderError(`WeChat Pay's answer to ${method} ${path} is not signed by the platform (${(error as Error).message})`);
    }
    return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  }

  const failure = (what: string, answer: { status: number; json: Record<string, unknown> | null }) =>
    new ProviderError(`WeChat Pay refused to ${what}: HTTP ${answer.status} ${String(answer.json?.code ?? '')} ${String(answer.json?.message ?? '')}`.trim());

  return {
    async createNative(order) {
      const answer = await request('POST', '/v3/pay/transactions/native', {
        appid,
        mchid: merchant.mchid,
        description: order.description,
        out_trade_no: order.outTradeNo,
        time_expire: order.expiresAt.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
        notify_url: order.notifyUrl,
        amount: { total: order.total, currency: 'CNY' },
      });
      if (answer.status !== 200 || typeof answer.json?.code_url !== 'string') throw failure('start a payment', answer);
      return answer.json.code_url;
    },

    async query(outTradeNo) {
      const answer = await request('GET', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${merchant.mchid}`);
      if (answer.status === 404) return null;
      if (answer.status !== 200 || !answer.json) throw failure('report a payment', answer);
      return toTransaction(answer.json);
    },

    async close(outTradeNo) {
      const answer = await request('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, { mchid: merchant.mchid });
      if (answer.status === 204 || answer.status === 404) return;
      if (answer.json?.code === 'ORDERPAID') throw new AlreadyPaidError(`${outTradeNo} is paid`);
      throw failure('close a payment', answer);
    },

    async refund(outTradeNo, outRefundNo, amount, total) {
      const answer = await request('POST', '/v3/refund/domestic/refunds', {
        out_trade_no: outTradeNo,
        out_refund_no: outRefundNo,
        amount: { refund: amount, total, currency: 'CNY' },
      });
      if (answer.status !== 200 || (answer.json?.status !== 'SUCCESS' && answer.json?.status !== 'PROCESSING')) throw failure('refund', answer);
    },

    readNotification(headers, body) {
      const nonce = verifyPlatformSignature(headers, body, credentials.platform);
      let notification: { resource?: SealedResource };
      try {
        notification = JSON.parse(body) as { resource?: SealedResource };
      } catch {
        throw new SignatureError('not JSON');
      }
      if (!notification.resource) throw new SignatureError('no resource');
      let resource: TransactionResource;
      try {
        resource = JSON.parse(openResource(notification.resource, credentials.apiV3Key)) as TransactionResource;
      } catch (error) {
        throw error instanceof SignatureError ? error : new SignatureError('resource is not JSON');
      }
      if (resource.mchid !== merchant.mchid || resource.appid !== appid) throw new SignatureError('for another merchant');
      return { nonce, transaction: toTransaction(resource) };
    },
  };
}
