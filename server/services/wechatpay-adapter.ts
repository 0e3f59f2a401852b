/**
 * The payment provider: WeChat Pay APIv3 Native (scan-to-pay), H5 (paying in
 * WeChat from a phone's browser) and entrusted
 * payments (委托代扣: an auto-renewal contract signed by scanning a code, then
 * charged each period without the customer). Every request
 * is signed with the merchant key; every answer and notification must carry
 * the platform's signature, and a notification's resource opens only under
 * the APIv3 key. The development sandbox (modules/dev) speaks the same
 * protocol, so this one adapter serves both.
 */
import type { KeyObject } from 'node:crypto';
import type { OutboundFetch } from './outbound-http.ts';
import {
  AlreadyPaidError,
  ProviderError,
  ProviderUnanswered,
  RefundRefused,
  type PaymentProvider,
  type ProviderEvent,
  type RefundStatus,
  type TradeState,
  type Transaction,
  type NewTransaction,
} from './payment-provider.ts';
import { openResource, requestAuthorization, SignatureError, verifyPlatformSignature, type MerchantKey, type SealedResource } from './wechatpay.ts';

export interface WechatPayCredentials {
  baseUrl: string;
  appid: string;
  merchant: MerchantKey;
  platform: { serial: string; publicKey: KeyObject };
  apiV3Key: string;
}

/** Signing was refused: this contract is signed already, or the customer has another under the same plan. */
export class AlreadySignedError extends ProviderError {
  readonly which: 'agreement' | 'user';
  constructor(which: 'agreement' | 'user') {
    super(which === 'agreement' ? 'the contract is signed already' : 'the user has signed a contract under this plan');
    this.which = which;
  }
}

/** An auto-renewal contract as the provider reports it. */
export interface Contract {
  planId: number;
  contractCode: string;
  contractId: string;
  state: 'SIGNED' | 'TERMINATED';
}

export interface NewContract {
  planId: number;
  /** Our agreement's key. */
  contractCode: string;
  /** How the customer's account is shown in the payment app. */
  displayAccount: string;
  userCode: string;
  notifyUrl: string;
}

export interface ContractCharge {
  outTradeNo: string;
  contractId: string;
  description: string;
  total: number;
  notifyUrl: string;
}

/** The provider answered and refused a contract's charge: nothing was charged. (Any other ProviderError says nothing either way.) */
export class ChargeRefused extends ProviderError {}

/** What a WeChat Pay notification reports: a transaction, a refund, or an auto-renewal contract signed or ended. */
export type WechatPayEvent = ProviderEvent | { kind: 'contract'; contract: Contract };

/** WeChat Pay: what every provider does, and auto-renewal contracts (entrusted payments). */
export interface WechatPayProvider extends PaymentProvider {
  /** Starts signing an auto-renewal contract; answers the code URL the customer scans to sign. Throws AlreadySignedError. */
  signContract(contract: NewContract): Promise<string>;
  /** Asks for a period's payment under a signed contract; its outcome comes as a transaction notification. */
  chargeContract(charge: ContractCharge): Promise<void>;
  terminateContract(planId: number, contractCode: string): Promise<void>;
  /** What a notification reports, and its nonce; throws SignatureError for anything not signed and sealed by the platform. */
  readNotification(headers: Record<string, string | string[] | undefined>, body: string): { nonce: string; event: WechatPayEvent };
}

interface TransactionResource {
  mchid?: string;
  appid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: TradeState;
  amount?: { total?: number };
}

interface RefundResource {
  mchid?: string;
  out_refund_no?: string;
  refund_status?: string;
}

const refundStatuses: readonly RefundStatus[] = ['SUCCESS', 'PROCESSING', 'CLOSED', 'ABNORMAL'];

function toRefundStatus(status: unknown): RefundStatus {
  if (!refundStatuses.includes(status as RefundStatus)) throw new ProviderError(`refund with an unknown status ${String(status)}`);
  return status as RefundStatus;
}

interface ContractResource {
  mchid?: string;
  appid?: string;
  plan_id?: number;
  out_contract_code?: string;
  contract_id?: string;
  contract_state?: string;
}

function toContract(resource: ContractResource): Contract {
  const { plan_id: planId, out_contract_code: contractCode, contract_id: contractId, contract_state: state } = resource;
  if (typeof planId !== 'number' || typeof contractCode !== 'string' || typeof contractId !== 'string' || (state !== 'SIGNED' && state !== 'TERMINATED'))
    throw new ProviderError('contract without plan, code, id or state');
  return { planId, contractCode, contractId, state };
}

function toTransaction(resource: TransactionResource): Transaction {
  if (typeof resource.out_trade_no !== 'string' || typeof resource.trade_state !== 'string') throw new ProviderError('transaction without number or state');
  return {
    outTradeNo: resource.out_trade_no,
    method: 'wechatpay',
    transactionId: resource.transaction_id ?? null,
    tradeState: resource.trade_state,
    total: Number(resource.amount?.total ?? 0),
  };
}

/** WeChat Pay's APIv3 with these credentials, called through the outbound client `fetch`, each call given up after `timeoutMs`. */
export function wechatPay(credentials: WechatPayCredentials, fetch: OutboundFetch, timeoutMs: number): WechatPayProvider {
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
          authorization: await requestAuthorization(method, pathAndQuery, body, merchant),
        },
        body: payload === undefined ? undefined : body,
        timeoutMs,
      });
    } catch (error) {
      throw new ProviderUnanswered(`WeChat Pay did not answer ${method} ${path}`, { cause: error });
    }
    const text = await response.text();
    try {
      verifyPlatformSignature(Object.fromEntries(response.headers), text, credentials.platform);
    } catch (error) {
      throw new ProviderError(`WeChat Pay's answer to ${method} ${path} (HTTP ${response.status}) is not signed by the platform (${(error as Error).message})`);
    }
    try {
      return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
    } catch {
      throw new ProviderError(`WeChat Pay's answer to ${method} ${path} (HTTP ${response.status}) is not JSON`);
    }
  }

  const failure = (what: string, answer: { status: number; json: Record<string, unknown> | null }) =>
    new ProviderError(`WeChat Pay refused to ${what}: HTTP ${answer.status} ${String(answer.json?.code ?? '')} ${String(answer.json?.message ?? '')}`.trim());

  /** What every kind of transaction says about itself. */
  const transactionBody = (order: NewTransaction) => ({
    appid,
    mchid: merchant.mchid,
    description: order.description,
    out_trade_no: order.outTradeNo,
    time_expire: order.expiresAt.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    notify_url: order.notifyUrl,
    amount: { total: order.total, currency: 'CNY' },
  });

  return {
    method: 'wechatpay',

    async createNative(order) {
      const answer = await request('POST', '/v3/pay/transactions/native', transactionBody(order));
      if (answer.status !== 200 || typeof answer.json?.code_url !== 'string') throw failure('start a payment', answer);
      return answer.json.code_url;
    },

    async createPhone(order) {
      const answer = await request('POST', '/v3/pay/transactions/h5', {
        ...transactionBody(order),
        // A mobile website (not an app): WeChat Pay's scene type for it is "Wap".
        scene_info: { payer_client_ip: order.payerClientIp, h5_info: { type: 'Wap' } },
      });
      if (answer.status !== 200 || typeof answer.json?.h5_url !== 'string') throw failure('start a payment on a phone', answer);
      // WeChat Pay's documented way back: redirect_url, URL-encoded, added to its h5_url.
      return `${answer.json.h5_url}&redirect_url=${encodeURIComponent(order.returnUrl)}`;
    },

    async query(outTradeNo) {
      const answer = await request('GET', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${merchant.mchid}`);
      if (answer.status === 404) return null;
      if (answer.status !== 200 || !answer.json) throw failure('report a payment', answer);
      return toTransaction(answer.json);
    },

    async close(outTradeNo) {
      const answer = await request('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, { mchid: merchant.mchid });
      // Nothing to close: no transaction was ever started for the number (an auto-renewal not signed yet).
      if (answer.status === 204 || answer.status === 404 || answer.json?.code === 'ORDER_NOT_EXIST') return;
      if (answer.json?.code === 'ORDERPAID') throw new AlreadyPaidError(`${outTradeNo} is paid`);
      throw failure('close a payment', answer);
    },

    async refund(refund) {
      const answer = await request('POST', '/v3/refund/domestic/refunds', {
        transaction_id: refund.transactionId,
        out_refund_no: refund.outRefundNo,
        notify_url: refund.notifyUrl,
        amount: { refund: refund.amount, total: refund.total, currency: 'CNY' },
      });
      // A 4xx is the provider's refusal (not enough funds, a wrong amount…): nothing was refunded. A 5xx says nothing either way.
      if (answer.status >= 400 && answer.status < 500) throw new RefundRefused(failure('refund', answer).message);
      if (answer.status !== 200) throw failure('refund', answer);
      return toRefundStatus(answer.json?.status);
    },

    async queryRefund({ outRefundNo }) {
      const answer = await request('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(outRefundNo)}`);
      if (answer.status === 404) return null;
      if (answer.status !== 200) throw failure('report a refund', answer);
      return toRefundStatus(answer.json?.status);
    },

    async signContract(contract) {
      const answer = await request('POST', '/v3/papay/sign/contracts/pre-entrust-sign', {
        sign_scene: 'SIGN_SCENE_QRCODE',
        appid,
        plan_id: contract.planId,
        out_contract_code: contract.contractCode,
        contract_display_account: contract.displayAccount,
        contract_notify_url: contract.notifyUrl,
        out_user_code: contract.userCode,
      });
      if (answer.json?.code === 'CONTRACT_ALREADY_SIGNED') throw new AlreadySignedError('agreement');
      if (answer.json?.code === 'USER_ALREADY_SIGNED') throw new AlreadySignedError('user');
      if (answer.status !== 200 || typeof answer.json?.redirect_url !== 'string') throw failure('start signing a contract', answer);
      return answer.json.redirect_url;
    },

    async chargeContract(charge) {
      const answer = await request('POST', '/v3/papay/pay/transactions/apply', {
        appid,
        out_trade_no: charge.outTradeNo,
        description: charge.description,
        transaction_notify_url: charge.notifyUrl,
        contract_id: charge.contractId,
        amount: { total: charge.total, currency: 'CNY' },
      });
      // A 4xx is the provider's refusal (no signed contract, a paid number…): nothing was charged. A 5xx says nothing either way.
      if (answer.status >= 400 && answer.status < 500) throw new ChargeRefused(failure('charge a contract', answer).message);
      if (answer.status !== 200) throw failure('charge a contract', answer);
    },

    async terminateContract(planId, contractCode) {
      const path = `/v3/papay/sign/contracts/plan-id/${planId}/out-contract-code/${encodeURIComponent(contractCode)}/terminate`;
      const answer = await request('POST', path, { contract_termination_remark: 'cancelled by the customer' });
      if (answer.status !== 204 && answer.status !== 200 && answer.status !== 404) throw failure('terminate a contract', answer);
    },

    readNotification(headers, body) {
      const nonce = verifyPlatformSignature(headers, body, credentials.platform);
      let notification: { event_type?: string; resource?: SealedResource };
      try {
        notification = JSON.parse(body) as typeof notification;
      } catch {
        throw new SignatureError('not JSON');
      }
      if (!notification.resource) throw new SignatureError('no resource');
      let resource: TransactionResource & ContractResource & RefundResource;
      try {
        resource = JSON.parse(openResource(notification.resource, credentials.apiV3Key)) as typeof resource;
      } catch (error) {
        throw error instanceof SignatureError ? error : new SignatureError('resource is not JSON');
      }
      // A refund's resource names the merchant only; the others name the app too.
      if (notification.event_type?.startsWith('REFUND.')) {
        if (resource.mchid !== merchant.mchid) throw new SignatureError('for another merchant');
        if (typeof resource.out_refund_no !== 'string') throw new ProviderError('refund without number');
        return { nonce, event: { kind: 'refund', refund: { outRefundNo: resource.out_refund_no, status: toRefundStatus(resource.refund_status) } } };
      }
      if (resource.mchid !== merchant.mchid || resource.appid !== appid) throw new SignatureError('for another merchant');
      const event: WechatPayEvent = notification.event_type?.startsWith('PAPAY.')
        ? { kind: 'contract', contract: toContract(resource) }
        : { kind: 'transaction', transaction: toTransaction(resource) };
      return { nonce, event };
    },
  };
}
