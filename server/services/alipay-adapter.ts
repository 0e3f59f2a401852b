/**
 * The payment provider Alipay: its open platform's gateway (OpenAPI v2,
 * `gateway.do`) for scan-to-pay (alipay.trade.precreate), paying in the Alipay
 * app or its web checkout from a phone (alipay.trade.wap.pay), queries,
 * closing, refunds and the asynchronous notifications.
 *
 * Ant Group's official alipay-sdk does the protocol: it signs each request
 * (RSA2 over the sorted parameters), builds the wap.pay address, checks each
 * answer's and notification's signature, and in certificate mode (which Alipay
 * requires of new apps) computes the certificates' serial numbers it sends.
 * The HTTP call itself goes through the server's outbound client (`fetch`,
 * with its deadline, size cap, no redirects and public addresses only in
 * production), never through the SDK's own HTTP client, which would bypass
 * those guards. The SDK stamps requests with the server's local time; Alipay
 * reads every time as Beijing time, so the adapter gives it that itself.
 *
 * Only what an answer's signature covers is read from it: a signed part and
 * something added beside it would otherwise pass as one. An answer unsigned,
 * signed wrongly or for another question is a ProviderError, never trusted.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { AlipaySdk } from 'alipay-sdk';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import type { OutboundFetch } from './outbound-http.ts';
import {
  AlreadyPaidError,
  NotificationRefused,
  ProviderError,
  ProviderUnanswered,
  RefundRefused,
  type NewTransaction,
  type PaymentProvider,
  type ProviderEvent,
  type RefundStatus,
  type TradeState,
  type Transaction,
} from './payment-provider.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

export interface AlipayCredentials {
  /** The gateway's address: https://openapi.alipay.com/gateway.do, or a sandbox's. */
  gateway: string;
  appId: string;
  /** The merchant's partner id (2088…), which notifications must name as the seller. */
  sellerId: string;
  /** The app's private key, PEM. */
  appPrivateKey: string;
  /** Public-key mode: Alipay's public key, PEM. */
  alipayPublicKey?: string;
  /** Certificate mode: the app's public-key certificate, Alipay's public-key certificate and Alipay's root certificates, PEM. */
  certificates?: { appCert: string; alipayPublicCert: string; alipayRootCert: string };
}

/** Alipay: what every provider does, and reading its notifications. */
export interface AlipayProvider extends PaymentProvider {
  readonly method: 'alipay';
  /** What a notification reports, and its nonce (notify_id); `body` is the form-encoded POST body exactly as received. Throws NotificationRefused. */
  readNotification(body: string): { nonce: string; event: ProviderEvent };
}

/** The most a notification's body may hold; Alipay's hold about 1.5 KiB. */
export const maxNotificationBytes = 8 * 1024;

const tradeStates = new Map<string, TradeState>([
  ['WAIT_BUYER_PAY', 'NOTPAY'],
  ['TRADE_SUCCESS', 'SUCCESS'],
  ['TRADE_FINISHED', 'SUCCESS'],
  ['TRADE_CLOSED', 'CLOSED'],
]);

/** A time as Alipay reads every time: Beijing time, `YYYY-MM-DD HH:mm:ss`. */
const beijingTime = (at: Date) => dayjs(at).tz('Asia/Shanghai').format('YYYY-MM-DD HH:mm:ss');

/** Fen as Alipay writes an amount: yuan with exactly two decimals. */
function yuanOf(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen <= 0) throw new RangeError(`${fen} is not an amount in fen`);
  return `${(fen - (fen % 100)) / 100}.${String(fen % 100).padStart(2, '0')}`;
}

/** An amount Alipay wrote (yuan, at most two decimals) in fen, exactly; null for anything else. */
function fenOf(amount: unknown): number | null {
  const match = typeof amount === 'string' ? /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount) : null;
  if (!match) return null;
  const fen = BigInt(match[1]) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  return fen <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(fen) : null;
}

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An answer's outcome as Alipay words it, for messages. */
const outcome = (answer: Fields) => [answer.code, answer.msg, answer.sub_code, answer.sub_msg].filter((part) => typeof part === 'string').join(' ');

/** Alipay's sub-codes that say nothing was decided: "system error, call again with the same parameters". */
const undecided = (answer: Fields) => answer.sub_code === 'ACQ.SYSTEM_ERROR' || (typeof answer.sub_code === 'string' && answer.sub_code.startsWith('isp.'));

/** Alipay's gateway with these credentials, called through the outbound client `fetch`, each call given up after `timeoutMs`. */
export function alipay(credentials: AlipayCredentials, fetch: OutboundFetch, timeoutMs: number): AlipayProvider {
  const { appId, sellerId, certificates } = credentials;
  if (!certificates === !credentials.alipayPublicKey) throw new Error("Alipay's public key or its certificates (exactly one of them) are needed");
  // The SDK takes keys as PEM text it reformats by lines: hand it PKCS#8 and SPKI as Node writes them, whatever form they came in.
  const sdk = new AlipaySdk({
    appId,
    privateKey: createPrivateKey(credentials.appPrivateKey).export({ type: 'pkcs8', format: 'pem' }).toString().trim(),
    keyType: 'PKCS8',
    signType: 'RSA2',
    gateway: credentials.gateway,
    ...(certificates
      ? { appCertContent: certificates.appCert, alipayPublicCertContent: certificates.alipayPublicCert, alipayRootCertContent: certificates.alipayRootCert }
      : { alipayPublicKey: createPublicKey(credentials.alipayPublicKey!).export({ type: 'spki', format: 'pem' }).toString().trim() }),
  });
  const alipayCertSn = certificates ? sdk.config.alipayCertSn : null;

  /** The part of `raw` Alipay signed, once its signature holds. */
  function signedAnswer(method: string, raw: string): Fields {
    const responseKey = `${method.replaceAll('.', '_')}_response`;
    let whole: unknown;
    try {
      whole = JSON.parse(raw);
    } catch {
      throw new ProviderError(`Alipay's answer to ${method} is not JSON`);
    }
    if (!isFields(whole)) throw new ProviderError(`Alipay's answer to ${method} is not a JSON object`);
    // A request Alipay could not take as ours (isv.* sub-codes: a bad signature, an unknown app) is answered in an error_response
    // without a signature: it says nothing about any payment, and nothing in it is Alipay's word.
    if (!isFields(whole[responseKey]))
      throw new ProviderError(`Alipay did not take ${method}: ${isFields(whole.error_response) ? outcome(whole.error_response) : raw.slice(0, 200)}`);
    if (typeof whole.sign !== 'string') throw new ProviderError(`Alipay's answer to ${method} is not signed`);
    if (alipayCertSn && whole.alipay_cert_sn !== undefined && whole.alipay_cert_sn !== alipayCertSn)
      throw new ProviderError(
        `Alipay's answer to ${method} is signed under its public-key certificate ${String(whole.alipay_cert_sn)}, not the configured one (${alipayCertSn}): ` +
          'Alipay has rotated its certificate; download the new one from the open platform and update the settings (ALIPAY_PUBLIC_CERT_FILE)',
      );
    try {
      sdk.checkResponseSign(raw, responseKey, whole.sign, '');
    } catch {
      throw new ProviderError(`Alipay's answer to ${method} is not signed by Alipay`);
    }
    let signed: unknown;
    try {
      signed = JSON.parse(sdk.getSignStr(raw, responseKey));
    } catch {
      signed = null;
    }
    if (!isFields(signed)) throw new ProviderError(`What Alipay signed in its answer to ${method} is not a JSON object`);
    return signed;
  }

  /** Calls `method` with its business parameters (and common ones such as notify_url); answers its signed answer. */
  async function call(method: string, bizContent: Fields, common: Record<string, string> = {}): Promise<Fields> {
    const form = sdk.sdkExecute(method, { ...common, bizContent, timestamp: beijingTime(new Date()) }, { bizContentAutoSnakeCase: false });
    let response: Response;
    try {
      response = await fetch(credentials.gateway, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' },
        body: form,
        timeoutMs,
      });
    } catch (error) {
      throw new ProviderUnanswered(`Alipay did not answer ${method}`, { cause: error });
    }
    const raw = await response.text();
    if (response.status !== 200) throw new ProviderError(`Alipay answered ${method} with HTTP ${response.status}`);
    return signedAnswer(method, raw);
  }

  /** What every kind of transaction says about itself. */
  const transactionContent = (order: NewTransaction) => ({
    out_trade_no: order.outTradeNo,
    total_amount: yuanOf(order.total),
    subject: order.description,
    time_expire: beijingTime(order.expiresAt),
  });

  /** A signed answer must be about what was asked: a genuine answer about another payment is not this one's. */
  function about(method: string, answer: Fields, key: string, expected: string): void {
    if (answer[key] !== expected) throw new ProviderError(`Alipay's answer to ${method} names ${key} ${String(answer[key])}, not ${expected}`);
  }

  async function query(outTradeNo: string): Promise<Transaction | null> {
    const method = 'alipay.trade.query';
    const answer = await call(method, { out_trade_no: outTradeNo });
    if (answer.code === '40004' && answer.sub_code === 'ACQ.TRADE_NOT_EXIST') return null;
    if (answer.code !== '10000') throw new ProviderError(`Alipay refused ${method}: ${outcome(answer)}`);
    about(method, answer, 'out_trade_no', outTradeNo);
    const tradeState = tradeStates.get(String(answer.trade_status));
    const total = fenOf(answer.total_amount);
    if (!tradeState || total === null)
      throw new ProviderError(`Alipay reports ${outTradeNo} with an unknown status or amount: ${String(answer.trade_status)}, ${String(answer.total_amount)}`);
    return { method: 'alipay', outTradeNo, transactionId: typeof answer.trade_no === 'string' ? answer.trade_no : null, tradeState, total };
  }

  async function fastpayRefundQuery(transactionId: string, outRefundNo: string): Promise<RefundStatus | null> {
    const method = 'alipay.trade.fastpay.refund.query';
    const answer = await call(method, { trade_no: transactionId, out_request_no: outRefundNo });
    // A refund of a payment Alipay does not know is none it has.
    if (answer.code === '40004' && answer.sub_code === 'ACQ.TRADE_NOT_EXIST') return null;
    if (answer.code !== '10000') throw new ProviderError(`Alipay refused ${method}: ${outcome(answer)}`);
    // The query succeeding says nothing: only an answer that names the refund has one.
    if (answer.out_request_no === undefined && answer.refund_amount === undefined) return null;
    about(method, answer, 'out_request_no', outRefundNo);
    return answer.refund_status === 'REFUND_SUCCESS' ? 'SUCCESS' : 'PROCESSING';
  }

  return {
    method: 'alipay',

    async createNative(order) {
      const method = 'alipay.trade.precreate';
      const answer = await call(method, transactionContent(order), { notify_url: order.notifyUrl });
      if (answer.code !== '10000' || typeof answer.qr_code !== 'string') throw new ProviderError(`Alipay refused ${method}: ${outcome(answer)}`);
      about(method, answer, 'out_trade_no', order.outTradeNo);
      return answer.qr_code;
    },

    async createPhone(order) {
      // No call: the phone's browser opens the signed address, and Alipay's checkout takes it from there.
      return sdk.pageExecute('alipay.trade.wap.pay', 'GET', {
        bizContent: { ...transactionContent(order), product_code: 'QUICK_WAP_WAY', quit_url: order.returnUrl },
        returnUrl: order.returnUrl,
        notifyUrl: order.notifyUrl,
        timestamp: beijingTime(new Date()),
      });
    },

    query,

    async close(outTradeNo) {
      const method = 'alipay.trade.close';
      const answer = await call(method, { out_trade_no: outTradeNo });
      if (answer.code === '10000') return;
      // Nothing to close: no transaction was ever started for the number (a code never scanned is none yet).
      if (answer.code === '40004' && answer.sub_code === 'ACQ.TRADE_NOT_EXIST') return;
      // Closed already, or paid: the query tells which.
      if (answer.code === '40004' && answer.sub_code === 'ACQ.TRADE_STATUS_ERROR') {
        const transaction = await query(outTradeNo);
        if (transaction?.tradeState === 'SUCCESS') throw new AlreadyPaidError(`${outTradeNo} is paid`);
        if (!transaction || transaction.tradeState === 'CLOSED') return;
      }
      throw new ProviderError(`Alipay refused ${method}: ${outcome(answer)}`);
    },

    // Alipay tells a refund's outcome in the notification of the payment it gives back (to the payment's notify_url): the refund takes none.
    async refund(refund) {
      const method = 'alipay.trade.refund';
      const answer = await call(method, { trade_no: refund.transactionId, refund_amount: yuanOf(refund.amount), out_request_no: refund.outRefundNo });
      // A business refusal (not enough balance, a wrong amount…): nothing was refunded. "System error, call again" decides nothing.
      if (answer.code === '40004' && !undecided(answer)) throw new RefundRefused(`Alipay refused ${method}: ${outcome(answer)}`);
      if (answer.code !== '10000') throw new ProviderError(`Alipay did not refund: ${outcome(answer)}`);
      about(method, answer, 'trade_no', refund.transactionId);
      if (answer.fund_change === 'Y') return 'SUCCESS';
      if (answer.fund_change !== 'N') throw new ProviderError(`Alipay's answer to ${method} has no fund_change`);
      // No money moved this time: the same refund asked again, or one still under way. The query tells which.
      try {
        return (await fastpayRefundQuery(refund.transactionId, refund.outRefundNo)) === 'SUCCESS' ? 'SUCCESS' : 'PROCESSING';
      } catch (error) {
        if (error instanceof ProviderError) return 'PROCESSING';
        throw error;
      }
    },

    queryRefund: ({ outRefundNo, transactionId }) => fastpayRefundQuery(transactionId, outRefundNo),

    readNotification(body) {
      if (Buffer.byteLength(body) > maxNotificationBytes) throw new NotificationRefused(`more than ${maxNotificationBytes} bytes`);
      const fields: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [name, value] of new URLSearchParams(body)) {
        if (Object.hasOwn(fields, name)) throw new NotificationRefused(`${name} given twice`);
        fields[name] = value;
      }
      for (const name of ['sign', 'notify_id', 'app_id', 'seller_id', 'out_trade_no', 'trade_status', 'total_amount'])
        if (!fields[name]) throw new NotificationRefused(`no ${name}`);
      // The SDK would check a notification marked RSA (SHA-1) as such: Alipay signs them with RSA2 only.
      if (fields.sign_type !== undefined && fields.sign_type !== 'RSA2') throw new NotificationRefused(`sign_type ${fields.sign_type}`);
      if (!sdk.checkNotifySignV2(fields)) throw new NotificationRefused('bad signature');
      if (fields.app_id !== appId) throw new NotificationRefused(`for another app (${fields.app_id})`);
      if (fields.seller_id !== sellerId) throw new NotificationRefused(`for another seller (${fields.seller_id})`);
      const nonce = fields.notify_id;
      // A refund is told in a notification of the payment it gives back, naming the refund.
      if (fields.out_biz_no) return { nonce, event: { kind: 'refund', refund: { outRefundNo: fields.out_biz_no, status: 'SUCCESS' } } };
      const tradeState = tradeStates.get(fields.trade_status);
      const total = fenOf(fields.total_amount);
      if (!tradeState) throw new NotificationRefused(`unknown trade_status ${fields.trade_status}`);
      if (total === null) throw new NotificationRefused(`total_amount ${fields.total_amount} is not an amount`);
      return {
        nonce,
        event: {
          kind: 'transaction',
          transaction: { method: 'alipay', outTradeNo: fields.out_trade_no, transactionId: fields.trade_no || null, tradeState, total },
        },
      };
    },
  };
}
