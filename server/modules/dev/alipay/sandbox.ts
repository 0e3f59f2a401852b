/**
 * The Alipay sandbox: Alipay's OpenAPI 2.0 gateway as the SDK speaks to it —
 * requests form-encoded (system parameters in the query, biz_content in the
 * body), checked against the app's RSA2 signature, answered
 * `{"<method>_response":{…},"sign":"…"}` signed with Alipay's key, and
 * notifications signed and posted form-encoded to the `notify_url` a request
 * gave — for face-to-face scan to pay (`alipay.trade.precreate`), the phone's
 * web checkout (`alipay.trade.wap.pay`, a page), query, close, refunds and
 * their query. The customer's side: the page a scanned code opens, the phone
 * checkout, and the calls of contract/dev.ts `alipaySandbox` for tests.
 * Signatures are the sandbox's own (services/alipay-gateway-signing.ts), not
 * the SDK's, so the two check each other. Everything lives in memory: it is a
 * stand-in for trying things out, not a ledger.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { alipaySandbox, type AlipaySandboxAction, type SandboxTransaction } from '#contract/dev.ts';
import { ErrorCode } from '#contract/errors.ts';
import { formatPrice } from '#contract/facts.ts';
import { siteOrigin } from '../../../config.ts';
import { ApiError } from '../../../http/api-error.ts';
import { registerRoute } from '../../../http/route.ts';
import { requestSignatureHolds, signedAnswer, signedNotification, signType } from '../../../services/alipay-gateway-signing.ts';
import {
  alipaySandboxBasePath,
  alipaySandboxCredentials,
  alipaySandboxGatewayPath,
  alipaySandboxQrCode,
  alipaySandboxScanPath,
} from '../../../services/alipay-sandbox.ts';
import { escapeHtml as escape } from '../../../services/html.ts';
import { sendDevPage } from '../page.ts';

type TradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';

interface Trade {
  /** The code's id (`bax0…`), also the sandbox's id of a trade started on the phone. */
  id: string;
  outTradeNo: string;
  subject: string;
  /** In fen. */
  total: number;
  notifyUrl: string | null;
  expiresAt: Date;
  /** Alipay's trade number, once the trade exists at Alipay: a precreated code only once a phone scanned it. */
  tradeNo: string | null;
  status: TradeStatus;
  createdAt: Date | null;
  paidAt: Date | null;
  closedAt: Date | null;
  /** The phone checkout's pages to go back to (wap.pay's return_url and quit_url), as the last request named them. */
  returnUrl: string | null;
  quitUrl: string | null;
  /** Refunds by their out_request_no. */
  refunds: Map<string, Refund>;
  /** How Alipay takes the trade's refunds: at once (the default), a moment later, or not at all. */
  refundOutcome: 'success' | 'slow' | 'fail';
}

interface Refund {
  outRequestNo: string;
  /** In fen. */
  amount: number;
  status: 'PROCESSING' | 'REFUND_SUCCESS';
  refundedAt: Date | null;
}

/** How long a trade stays payable when the request names no time_expire. */
const defaultPayableMs = 2 * 60 * 60 * 1000;
/** How long a refund of a trade marked `slowRefunds` processes before it succeeds. */
const slowRefundMs = 2_000;
/** The waits before each retry of a notification the shop did not answer `success` (Alipay's are minutes to hours). */
const notifyRetryDelaysMs = [1_000, 5_000, 30_000];

const byId = new Map<string, Trade>();
const byOutTradeNo = new Map<string, Trade>();
const byTradeNo = new Map<string, Trade>();

/** The sandbox's buyer: an Alipay user id (2088…) and a masked login. */
const buyer = { id: '2088000000000002', logon: '139******00' };

const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join('');

/** Alipay's times: `yyyy-MM-dd HH:mm:ss` in Beijing time (UTC+8, no daylight saving). */
const beijingMs = 8 * 60 * 60 * 1000;
const alipayTime = (date: Date = new Date()) => new Date(date.getTime() + beijingMs).toISOString().slice(0, 19).replace('T', ' ');

/** A refund's time in notifications: Alipay's format with milliseconds. */
const refundTime = (date: Date) => `${alipayTime(date)}.${String(date.getMilliseconds()).padStart(3, '0')}`;

/** A time in Alipay's format, or null (a date that does not exist, such as 02-30, included). */
function parseAlipayTime(text: unknown): Date | null {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return null;
  const date = new Date(`${text.replace(' ', 'T')}+08:00`);
  return Number.isNaN(date.getTime()) || alipayTime(date) !== text ? null : date;
}

/** Yuan as Alipay writes amounts ("12.34", at most two decimals) in fen, or null; Alipay takes 0.01 to 100000000.00. */
function fenOf(yuan: unknown): number | null {
  if (typeof yuan !== 'string' || !/^(0|[1-9]\d{0,8})(\.\d{1,2})?$/.test(yuan)) return null;
  const [whole, part = ''] = yuan.split('.');
  const fen = Number(whole) * 100 + Number(part.padEnd(2, '0'));
  return fen >= 1 && fen <= 10_000_000_000 ? fen : null;
}

/** Fen as Alipay writes amounts: yuan with two decimals. */
const yuanOf = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;

const refunded = (trade: Trade, only?: Refund['status']) =>
  [...trade.refunds.values()].filter((refund) => !only || refund.status === only).reduce((sum, refund) => sum + refund.amount, 0);

/** Whether the customer can still pay. */
const open = (trade: Trade) => trade.status === 'WAIT_BUYER_PAY' && trade.expiresAt.getTime() > Date.now();

function view(trade: Trade): SandboxTransaction {
  return {
    Kind: 'payment',
    Id: trade.id,
    OrderKey: trade.outTradeNo,
    Description: trade.subject,
    Total: trade.total,
    State: trade.tradeNo ? trade.status : open(trade) ? 'UNSCANNED' : 'EXPIRED',
    ExpiresAt: trade.expiresAt.toISOString(),
  };
}

type Log = FastifyInstance['log'];

/** Posts a notification; true when the shop answered `success`, as Alipay requires of it. */
async function post(url: string, body: string, what: string, log: Log): Promise<boolean> {
  try {
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await answer.text();
    if (answer.status === 200 && text === 'success') return true;
    log.warn(`alipay sandbox: the shop answered HTTP ${answer.status} ${JSON.stringify(text.slice(0, 80))} to a notification for ${what}`);
  } catch (error) {
    log.warn(`alipay sandbox: could not deliver a notification for ${what}: ${(error as Error).message}`);
  }
  return false;
}

/**
 * Sends a trade's notification as it stands now, signed, to its notify_url.
 * The promise settles after the first attempt; retries (the same notify_id)
 * follow in the background while the shop does not answer `success`.
 */
function notify(trade: Trade, log: Log, refund?: Refund, notifyUrl = trade.notifyUrl): Promise<void> {
  if (!notifyUrl || !trade.tradeNo) return Promise.resolve();
  const { appId, sellerId, alipayPrivateKey } = alipaySandboxCredentials();
  const paid = trade.paidAt ? yuanOf(trade.total) : '0.00';
  const params: Record<string, string> = {
    notify_time: alipayTime(),
    notify_type: 'trade_status_sync',
    notify_id: randomBytes(17).toString('hex'),
    app_id: appId,
    auth_app_id: appId,
    charset: 'utf-8',
    version: '1.0',
    trade_no: trade.tradeNo,
    out_trade_no: trade.outTradeNo,
    buyer_id: buyer.id,
    buyer_logon_id: buyer.logon,
    seller_id: sellerId,
    trade_status: trade.status,
    subject: trade.subject,
    total_amount: yuanOf(trade.total),
    receipt_amount: paid,
    invoice_amount: paid,
    buyer_pay_amount: paid,
    point_amount: '0.00',
    gmt_create: alipayTime(trade.createdAt ?? undefined),
    ...(trade.paidAt ? { gmt_payment: alipayTime(trade.paidAt) } : {}),
    ...(trade.closedAt ? { gmt_close: alipayTime(trade.closedAt) } : {}),
    ...(refund ? { out_biz_no: refund.outRequestNo, refund_fee: yuanOf(refunded(trade, 'REFUND_SUCCESS')), gmt_refund: refundTime(refund.refundedAt!) } : {}),
  };
  const body = new URLSearchParams(signedNotification(params, alipayPrivateKey)).toString();
  const what = `${trade.outTradeNo} (${trade.status}${refund ? `, refund ${refund.outRequestNo}` : ''})`;
  const retry = (attempt: number) => {
    if (attempt >= notifyRetryDelaysMs.length) return log.warn(`alipay sandbox: gave up notifying ${what}`);
    setTimeout(() => void post(notifyUrl, body, what, log).then((done) => done || retry(attempt + 1)), notifyRetryDelaysMs[attempt]).unref();
  };
  return post(notifyUrl, body, what, log).then((done) => void (done || retry(0)));
}

/** The trade comes to exist at Alipay: a phone scanned its code, or opened its checkout. Alipay notifies nothing of it. */
function create(trade: Trade): void {
  if (trade.tradeNo || !open(trade)) return;
  trade.tradeNo = `${alipayTime().slice(0, 10).replaceAll('-', '')}22001${digits(15)}`;
  trade.createdAt = new Date();
  byTradeNo.set(trade.tradeNo, trade);
}

/** A trade past its time unpaid is closed (and notified, when it existed at Alipay); an unscanned code merely dies. */
function settle(trade: Trade, log: Log): Trade {
  if (trade.status === 'WAIT_BUYER_PAY' && !open(trade)) void close(trade, log, trade.notifyUrl);
  return trade;
}

/**
 * Closes a trade. Alipay notifies a trade closed unpaid by its timeout (to the
 * trade's notify_url), but one the shop closes through alipay.trade.close only
 * when that call names a notify_url of its own: `notifyUrl` says where, if anywhere.
 */
function close(trade: Trade, log: Log, notifyUrl: string | null): Promise<void> {
  trade.status = 'TRADE_CLOSED';
  trade.closedAt = new Date();
  return notifyUrl ? notify(trade, log, undefined, notifyUrl) : Promise.resolve();
}

function pay(trade: Trade, log: Log): Promise<void> {
  if (!open(trade)) return Promise.resolve();
  create(trade);
  trade.status = 'TRADE_SUCCESS';
  trade.paidAt = new Date();
  return notify(trade, log);
}

/** A refund done: the trade closes once all of it went back, and the shop is told. */
function refundDone(trade: Trade, refund: Refund, log: Log): Promise<void> {
  refund.status = 'REFUND_SUCCESS';
  refund.refundedAt = new Date();
  if (refunded(trade, 'REFUND_SUCCESS') === trade.total) {
    trade.status = 'TRADE_CLOSED';
    trade.closedAt = refund.refundedAt;
  }
  return notify(trade, log, refund);
}

/** What the customer (or a test) does with a trade. */
async function act(trade: Trade, action: AlipaySandboxAction, log: Log): Promise<void> {
  settle(trade, log);
  if (action === 'slowRefunds') trade.refundOutcome = 'slow';
  else if (action === 'failRefunds') trade.refundOutcome = 'fail';
  else if (!open(trade)) return;
  else if (action === 'approve') await pay(trade, log);
  else if (action === 'expire') {
    trade.expiresAt = new Date();
    await close(trade, log, trade.notifyUrl);
  } else if (action === 'close') {
    if (trade.tradeNo) await close(trade, log, trade.notifyUrl);
  } else create(trade); // scan, or decline: the buyer backs out, and the trade stays as it is at Alipay (waiting)
}

/** A trade by code id, order number or Alipay trade number. */
function find(id: string, log: Log): Trade {
  const trade = byId.get(id) ?? byOutTradeNo.get(id) ?? byTradeNo.get(id);
  if (!trade) throw new ApiError(ErrorCode.NotFound, 'notFound');
  return settle(trade, log);
}

// ---- The gateway's answers ----

type Answer = Record<string, string>;
const success = (fields: Answer = {}): Answer => ({ code: '10000', msg: 'Success', ...fields });
const businessFailed = (subCode: string, subMsg: string): Answer => ({ code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });
const missing = (subCode: string, subMsg: string): Answer => ({ code: '40001', msg: 'Missing Required Arguments', sub_code: subCode, sub_msg: subMsg });
const invalid = (subCode: string, subMsg: string): Answer => ({ code: '40002', msg: 'Invalid Arguments', sub_code: subCode, sub_msg: subMsg });
const badParameter = (subMsg: string) => businessFailed('ACQ.INVALID_PARAMETER', subMsg);
const tradeNotExist = () => businessFailed('ACQ.TRADE_NOT_EXIST', 'trade does not exist');

/** The request's parameters, the query's and the form's together as Alipay's gateway takes them; null when one is given twice. */
function parametersOf(request: FastifyRequest): Record<string, string> | null {
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
  const params: Record<string, string> = {};
  for (const [name, value] of [...query, ...form]) {
    if (Object.hasOwn(params, name)) return null;
    params[name] = value;
  }
  return params;
}

/** The system parameters' faults, in the order Alipay's gateway reports them; null when the request is whole and signed by the app. */
function systemFault(params: Record<string, string>): Answer | null {
  const { appId, appPublicKey } = alipaySandboxCredentials();
  if (!params.app_id) return missing('isv.missing-app-id', 'app_id is missing');
  if (params.app_id !== appId) return invalid('isv.invalid-app-id', 'no such app');
  if (!params.sign_type) return missing('isv.missing-signature-type', 'sign_type is missing');
  if (params.sign_type !== signType) return invalid('isv.invalid-signature-type', `the sandbox takes sign_type ${signType} only`);
  if (!params.sign) return missing('isv.missing-signature', 'sign is missing');
  if (params.charset?.toLowerCase() !== 'utf-8') return invalid('isv.invalid-charset', 'the sandbox takes charset utf-8 only');
  if (!params.timestamp) return missing('isv.missing-timestamp', 'timestamp is missing');
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(params.timestamp)) return invalid('isv.invalid-timestamp', 'timestamp is not yyyy-MM-dd HH:mm:ss');
  if (!params.version) return missing('isv.missing-version', 'version is missing');
  if (params.version !== '1.0') return invalid('isv.invalid-parameter', 'version must be 1.0');
  if (params.format && params.format.toUpperCase() !== 'JSON') return invalid('isv.invalid-format', 'format must be JSON');
  if (!requestSignatureHolds(params, appPublicKey))
    return invalid('isv.invalid-signature', 'the signature does not hold for the app public key over the sorted parameters but sign');
  return null;
}

type Biz = Record<string, unknown>;

/** biz_content as an object, or null. */
function bizOf(params: Record<string, string>): Biz | null {
  try {
    const biz: unknown = JSON.parse(params.biz_content ?? '');
    return typeof biz === 'object' && biz !== null && !Array.isArray(biz) ? (biz as Biz) : null;
  } catch {
    return null;
  }
}

const textOf = (value: unknown, pattern: RegExp): string | null => (typeof value === 'string' && pattern.test(value) ? value : null);
const outTradeNoPattern = /^[A-Za-z0-9_]{1,64}$/;

/** A trade by trade_no (first, as Alipay reads it) or out_trade_no, if it exists at Alipay. */
function tradeOf(biz: Biz, log: Log): Trade | null {
  const trade = typeof biz.trade_no === 'string' && biz.trade_no ? byTradeNo.get(biz.trade_no) : byOutTradeNo.get(String(biz.out_trade_no ?? ''));
  return trade?.tradeNo ? settle(trade, log) : null;
}

interface NewTrade {
  outTradeNo: string;
  subject: string;
  total: number;
  expiresAt: Date;
}

/** A request Alipay turns down, with its answer. */
interface Refused {
  refused: Answer;
}

/** An order's trade as biz_content describes it, or the refusal. */
function newTradeOf(biz: Biz): NewTrade | Refused {
  const outTradeNo = textOf(biz.out_trade_no, outTradeNoPattern);
  const total = fenOf(biz.total_amount);
  const subject = textOf(biz.subject, /^[^/=&]{1,256}$/);
  const expiresAt = biz.time_expire === undefined ? new Date(Date.now() + defaultPayableMs) : parseAlipayTime(biz.time_expire);
  if (!outTradeNo) return { refused: badParameter('out_trade_no: letters, digits and underscores, 64 at most') };
  if (total === null) return { refused: badParameter('total_amount: yuan as a string, two decimals at most, 0.01 to 100000000.00') };
  if (!subject) return { refused: badParameter('subject: 1 to 256 characters, no / = &') };
  if (!expiresAt) return { refused: badParameter('time_expire: yyyy-MM-dd HH:mm:ss') };
  return { outTradeNo, subject, total, expiresAt };
}

/** The trade of a precreate or wap.pay request: the order's open trade again, or a new one; an order paid, closed or of another amount is refused. */
function openTrade(order: NewTrade, notifyUrl: string | null, log: Log): Trade | Refused {
  const existing = byOutTradeNo.get(order.outTradeNo);
  if (existing) settle(existing, log);
  // A code nobody scanned left no trade at Alipay: the number is free again.
  if (existing && (existing.tradeNo || open(existing))) {
    if (existing.total !== order.total) return { refused: businessFailed('ACQ.CONTEXT_INCONSISTENT', 'the trade was made with another amount') };
    if (existing.paidAt) return { refused: businessFailed('ACQ.TRADE_HAS_SUCCESS', 'the trade has been paid') };
    if (existing.status === 'TRADE_CLOSED') return { refused: businessFailed('ACQ.TRADE_HAS_CLOSE', 'the trade is closed') };
    return existing;
  }
  const trade: Trade = {
    id: `bax0${randomBytes(11).toString('hex')}`,
    ...order,
    notifyUrl,
    tradeNo: null,
    status: 'WAIT_BUYER_PAY',
    createdAt: null,
    paidAt: null,
    closedAt: null,
    returnUrl: null,
    quitUrl: null,
    refunds: new Map(),
    refundOutcome: 'success',
  };
  if (existing) byId.delete(existing.id);
  byId.set(trade.id, trade);
  byOutTradeNo.set(trade.outTradeNo, trade);
  return trade;
}

function tradeAnswer(trade: Trade): Answer {
  const paid = trade.paidAt ? yuanOf(trade.total) : '0.00';
  return success({
    trade_no: trade.tradeNo!,
    out_trade_no: trade.outTradeNo,
    buyer_logon_id: buyer.logon,
    buyer_user_id: buyer.id,
    trade_status: trade.status,
    total_amount: yuanOf(trade.total),
    buyer_pay_amount: paid,
    receipt_amount: paid,
    invoice_amount: paid,
    point_amount: '0.00',
    ...(trade.paidAt ? { send_pay_date: alipayTime(trade.paidAt) } : {}),
  });
}

function refundAnswer(trade: Trade, fundChange: 'Y' | 'N'): Answer {
  const last = [...trade.refunds.values()].filter((refund) => refund.refundedAt).at(-1);
  return success({
    trade_no: trade.tradeNo!,
    out_trade_no: trade.outTradeNo,
    buyer_logon_id: buyer.logon,
    buyer_user_id: buyer.id,
    fund_change: fundChange,
    refund_fee: yuanOf(refunded(trade, 'REFUND_SUCCESS')),
    ...(last ? { gmt_refund_pay: alipayTime(last.refundedAt!) } : {}),
  });
}

type Method = (biz: Biz, params: Record<string, string>, log: Log) => Answer;

const methods: Record<string, Method> = {
  'alipay.trade.precreate': (biz, params, log) => {
    const order = newTradeOf(biz);
    if ('refused' in order) return order.refused;
    const trade = openTrade(order, params.notify_url || null, log);
    return 'refused' in trade ? trade.refused : success({ out_trade_no: trade.outTradeNo, qr_code: alipaySandboxQrCode(trade.id) });
  },

  'alipay.trade.query': (biz, _params, log) => {
    const trade = tradeOf(biz, log);
    return trade ? tradeAnswer(trade) : tradeNotExist();
  },

  'alipay.trade.close': (biz, params, log) => {
    const trade = tradeOf(biz, log);
    if (!trade) return tradeNotExist();
    if (trade.status !== 'WAIT_BUYER_PAY') return businessFailed('ACQ.TRADE_STATUS_ERROR', `the trade is ${trade.status}`);
    void close(trade, log, params.notify_url || null);
    return success({ trade_no: trade.tradeNo!, out_trade_no: trade.outTradeNo });
  },

  'alipay.trade.refund': (biz, _params, log) => {
    const trade = tradeOf(biz, log);
    if (!trade) return tradeNotExist();
    const amount = fenOf(biz.refund_amount);
    if (amount === null) return badParameter('refund_amount: yuan as a string, two decimals at most');
    const asked = biz.out_request_no === undefined ? null : textOf(biz.out_request_no, /^[A-Za-z0-9_]{1,64}$/);
    if (biz.out_request_no !== undefined && !asked) return badParameter('out_request_no: letters, digits and underscores, 64 at most');
    // Without a request number the refund is the whole trade's, under its order number.
    const outRequestNo = asked ?? trade.outTradeNo;
    const known = trade.refunds.get(outRequestNo);
    if (known) {
      if (known.amount !== amount) return businessFailed('ACQ.DISCORDANT_REPEAT_REQUEST', 'the request number was used with another amount');
      return refundAnswer(trade, 'N');
    }
    if (trade.status !== 'TRADE_SUCCESS') return businessFailed('ACQ.TRADE_STATUS_ERROR', `the trade is ${trade.status}`);
    if ((!asked && amount !== trade.total) || amount > trade.total - refunded(trade))
      return businessFailed('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', 'the refund exceeds what is left of the payment');
    if (trade.refundOutcome === 'fail') return businessFailed('ACQ.SELLER_BALANCE_NOT_ENOUGH', 'the seller balance is not enough');
    const refund: Refund = { outRequestNo, amount, status: 'PROCESSING', refundedAt: null };
    trade.refunds.set(outRequestNo, refund);
    if (trade.refundOutcome === 'slow') {
      setTimeout(() => void refundDone(trade, refund, log), slowRefundMs).unref();
      return refundAnswer(trade, 'N');
    }
    void refundDone(trade, refund, log);
    return refundAnswer(trade, 'Y');
  },

  'alipay.trade.fastpay.refund.query': (biz, _params, log) => {
    const trade = tradeOf(biz, log);
    if (!trade) return tradeNotExist();
    const outRequestNo = textOf(biz.out_request_no, /^[A-Za-z0-9_]{1,64}$/);
    if (!outRequestNo) return badParameter('out_request_no is required');
    const refund = trade.refunds.get(outRequestNo);
    const found = success({ trade_no: trade.tradeNo!, out_trade_no: trade.outTradeNo });
    // Alipay answers an unknown refund as a success with no refund in it, and one still processing without refund_status.
    if (!refund) return found;
    return {
      ...found,
      out_request_no: refund.outRequestNo,
      total_amount: yuanOf(trade.total),
      refund_amount: yuanOf(refund.amount),
      ...(refund.status === 'REFUND_SUCCESS' ? { refund_status: refund.status, gmt_refund_pay: alipayTime(refund.refundedAt!) } : {}),
    };
  },
};

/** The method the phone's browser opens: a page, not an answer. */
const wapPay = 'alipay.trade.wap.pay';

const responseKey = (method: string) => `${method.replaceAll('.', '_')}_response`;

/** An address of the site's own, or null: the sandbox sends browsers nowhere else, as Alipay returns only to the app's registered domain. */
function ownPage(app: FastifyInstance, url: string | null | undefined): string | null {
  if (!url || !URL.canParse(url)) return null;
  const parsed = new URL(url);
  return parsed.origin === siteOrigin(app.config) ? parsed.href : null;
}

const pageTitle = 'Alipay (development)';

function errorPage(reply: FastifyReply, fault: Answer): FastifyReply {
  return sendDevPage(
    reply,
    pageTitle,
    `<h1>Alipay</h1><p data-sandbox-error="${escape(fault.sub_code ?? fault.code)}">Error ${escape(fault.sub_code ?? fault.code)}: ${escape(fault.sub_msg ?? fault.msg)}</p>`,
  );
}

/** The customer's page for a trade: the phone after scanning its code (`from` scan), or the phone checkout (`from` wap). */
function tradePage(reply: FastifyReply, trade: Trade, from: 'scan' | 'wap', note = ''): FastifyReply {
  const shown = view(trade);
  const button = (decision: string, label: string) => `<button name="decision" value="${decision}">${escape(label)}</button>`;
  const form = (buttons: string) =>
    `<form method="post" action="checkout"><input type="hidden" name="id" value="${escape(trade.id)}"><input type="hidden" name="from" value="${from}"><div class="actions" style="flex-wrap:wrap">${buttons}</div></form>`;
  const actions = open(trade)
    ? form(`${button('allow', `Pay ${formatPrice(trade.total, 'zh-CN')}`)}${button('deny', 'Decline')}${button('expire', 'Let it time out')}`)
    : trade.status === 'TRADE_SUCCESS'
      ? `<p>Paid. For the refunds the shop asks for later:</p>${form(`${button('slowRefunds', 'Refunds process slowly')}${button('failRefunds', 'Refunds fail')}`)}`
      : '<p>Nothing is left to pay.</p>';
  return sendDevPage(
    reply,
    pageTitle,
    `<h1>Alipay</h1>
<p>This is the development stand-in for Alipay on a phone. Choose what the customer does; no money moves.</p>
<p><strong>${escape(trade.subject)}</strong><br>Order ${escape(trade.outTradeNo)}</p>
<p data-sandbox-state="${escape(shown.State)}">Status: ${escape(shown.State)}</p>
${note ? `<p>${escape(note)}</p>` : ''}${actions}`,
  );
}

export async function devAlipaySandbox(app: FastifyInstance): Promise<void> {
  registerRoute(app, alipaySandbox.transaction, async ({ params }) => ({ data: view(find(params.id, app.log)) }));
  registerRoute(app, alipaySandbox.act, async ({ params, body }) => {
    const trade = find(params.id, app.log);
    await act(trade, body.Action, app.log);
    return { data: view(trade) };
  });

  await app.register(
    async (gateway) => {
      // Signatures cover the parameters as sent, so the form stays text until the query's and the form's are read together.
      gateway.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      // Alipay's side: the shop calls it as often as it pays, and the phone's pages are Alipay's, not the shop's API.
      const asAlipay = { config: { rateLimit: false } };

      const answer = (reply: FastifyReply, key: string, payload: Answer) =>
        reply.type('application/json; charset=utf-8').send(signedAnswer(key, payload, alipaySandboxCredentials().alipayPrivateKey));

      /** The phone checkout of a signed wap.pay request: opening it makes the trade exist at Alipay, waiting for the buyer. */
      const checkout = (reply: FastifyReply, params: Record<string, string>) => {
        const biz = bizOf(params);
        if (!biz) return errorPage(reply, invalid('isv.invalid-parameter', 'biz_content is not a JSON object'));
        if (biz.product_code !== 'QUICK_WAP_WAY') return errorPage(reply, badParameter('product_code must be QUICK_WAP_WAY'));
        const order = newTradeOf(biz);
        if ('refused' in order) return errorPage(reply, order.refused);
        const trade = openTrade(order, params.notify_url || null, app.log);
        if ('refused' in trade) return errorPage(reply, trade.refused);
        trade.returnUrl = params.return_url || null;
        trade.quitUrl = typeof biz.quit_url === 'string' ? biz.quit_url : null;
        if (params.notify_url) trade.notifyUrl = params.notify_url;
        create(trade);
        return tradePage(reply, trade, 'wap');
      };

      gateway.route({
        method: ['GET', 'POST'],
        url: alipaySandboxGatewayPath.slice(alipaySandboxBasePath.length),
        ...asAlipay,
        handler: async (request, reply) => {
          const params = parametersOf(request);
          if (!params) return answer(reply, 'error_response', invalid('isv.invalid-parameter', 'a parameter is given twice'));
          const method = params.method ?? '';
          const page = method === wapPay;
          if (!page && !Object.hasOwn(methods, method)) {
            return answer(
              reply,
              'error_response',
              method ? invalid('isv.invalid-method', 'no such method') : missing('isv.missing-method', 'method is missing'),
            );
          }
          const fault = systemFault(params);
          if (page) return fault ? errorPage(reply, fault) : checkout(reply, params);
          if (fault) return answer(reply, responseKey(method), fault);
          const biz = bizOf(params);
          if (!biz) return answer(reply, responseKey(method), invalid('isv.invalid-parameter', 'biz_content is not a JSON object'));
          return answer(reply, responseKey(method), methods[method](biz, params, app.log));
        },
      });

      gateway.get(alipaySandboxScanPath.slice(alipaySandboxBasePath.length), asAlipay, async (request, reply) => {
        const trade = byId.get(String((request.query as { code?: unknown }).code ?? ''));
        if (!trade) return sendDevPage(reply.code(404), pageTitle, '<h1>Alipay</h1><p>This code is not known.</p>');
        // Scanning makes the trade at Alipay (no notification: Alipay sends none for a trade created).
        create(settle(trade, app.log));
        return tradePage(reply, trade, 'scan');
      });

      gateway.post('/checkout', asAlipay, async (request, reply) => {
        const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
        const trade = byId.get(form.get('id') ?? '');
        if (!trade) return sendDevPage(reply.code(404), pageTitle, '<h1>Alipay</h1><p>This trade is not known.</p>');
        const decision = form.get('decision');
        const action: AlipaySandboxAction | null =
          decision === 'allow'
            ? 'approve'
            : decision === 'deny'
              ? 'decline'
              : decision === 'expire' || decision === 'slowRefunds' || decision === 'failRefunds'
                ? decision
                : null;
        if (!action) return tradePage(reply.code(400), trade, form.get('from') === 'wap' ? 'wap' : 'scan', 'Choose one of the buttons.');
        await act(trade, action, app.log);
        const note = action === 'decline' ? 'The customer backed out: the trade still waits for payment.' : '';
        if (form.get('from') !== 'wap') return tradePage(reply, trade, 'scan', note);
        const back = action === 'approve' ? ownPage(app, trade.returnUrl) : action === 'decline' ? ownPage(app, trade.quitUrl) : null;
        if (back && action === 'approve' && trade.paidAt) {
          // Alipay's synchronous return: the payment's numbers, signed as a notification is.
          const { appId, sellerId, alipayPrivateKey } = alipaySandboxCredentials();
          const url = new URL(back);
          const returned = signedNotification(
            {
              charset: 'utf-8',
              out_trade_no: trade.outTradeNo,
              method: 'alipay.trade.wap.pay.return',
              total_amount: yuanOf(trade.total),
              trade_no: trade.tradeNo!,
              auth_app_id: appId,
              version: '1.0',
              app_id: appId,
              seller_id: sellerId,
              timestamp: alipayTime(),
            },
            alipayPrivateKey,
          );
          for (const [name, value] of Object.entries(returned)) url.searchParams.set(name, value);
          return reply.redirect(url.href, 303);
        }
        if (back && action === 'decline') return reply.redirect(back, 303);
        return tradePage(reply, trade, 'wap', note);
      });
    },
    { prefix: alipaySandboxBasePath },
  );
}
