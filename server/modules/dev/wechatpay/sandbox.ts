/**
 * The payment sandbox: WeChat Pay APIv3 Native, H5 and entrusted payments as
 * the provider speaks them — requests checked against the merchant's signature,
 * answers signed with the platform key, notifications signed and their
 * resource sealed under the APIv3 key — plus the phone page's calls
 * (contract/dev.ts `paymentSandbox`) to approve, decline, let expire or pay
 * twice, and to sign, fail the charges of or end an auto-renewal contract —
 * and the stand-in for WeChat Pay's H5 page, where a phone's browser pays or
 * declines and is sent back to the shop. Everything lives in memory: it is a stand-in for trying things out, not a
 * ledger.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { paymentSandbox, type SandboxAction, type SandboxTransaction } from '#contract/dev.ts';
import { ErrorCode } from '#contract/errors.ts';
import { formatPrice } from '#contract/facts.ts';
import { siteOrigin } from '../../../config.ts';
import { ApiError } from '../../../http/api-error.ts';
import { registerRoute } from '../../../http/route.ts';
import { escapeHtml as escape } from '../../../services/html.ts';
import { parseAuthorization, platformHeaders, requestSignatureHolds, sealResource } from '../../../services/wechatpay.ts';
import { sandboxBasePath, sandboxCredentials, sandboxPhonePagePath } from '../../../services/wechatpay-sandbox.ts';
import { sendDevPage } from '../page.ts';

type State = 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'PAYERROR' | 'REFUND';

interface SandboxTx {
  prepayId: string;
  /** NATIVE: scanned; MWEB: paid on the phone (H5); PAP: charged under a contract. */
  tradeType: 'NATIVE' | 'MWEB' | 'PAP';
  outTradeNo: string;
  description: string;
  total: number;
  notifyUrl: string;
  expiresAt: Date;
  state: State;
  /** Every payment the customer made; "pay twice" makes two. */
  transactionIds: string[];
  /** Refunds by their out_refund_no: processing a moment, then done (or abnormal once `failRefunds`), and notified. */
  refunds: Map<string, SandboxRefund>;
  /** Refunds of it end ABNORMAL, as when the payer's account can no longer take money. */
  failRefunds: boolean;
}

interface SandboxRefund {
  refundId: string;
  outRefundNo: string;
  transactionId: string;
  amount: number;
  status: 'PROCESSING' | 'SUCCESS' | 'ABNORMAL';
}

type ContractState = 'NOTSIGNED' | 'SIGNED' | 'DECLINED' | 'TERMINATED';

interface SandboxContract {
  preEntrustId: string;
  planId: number;
  contractCode: string;
  contractId: string;
  display: string;
  userCode: string;
  notifyUrl: string;
  /** The signing session's end. */
  expiresAt: Date;
  state: ContractState;
  /** Charges under it fail, as with an empty account. */
  failCharges: boolean;
}

/** How long a code to sign stays valid, as the provider's pre-signing session. */
const signingSessionMs = 2 * 60 * 60 * 1000;

const byOrder = new Map<string, SandboxTx>();
const byPrepay = new Map<string, SandboxTx>();
const contractsByCode = new Map<string, SandboxContract>();
const contractsBySession = new Map<string, SandboxContract>();
const contractsById = new Map<string, SandboxContract>();

const newId = (length: number) => randomBytes(length).toString('hex').slice(0, length);

function view(tx: SandboxTx): SandboxTransaction {
  const expired = tx.state === 'NOTPAY' && tx.expiresAt.getTime() <= Date.now();
  return {
    Kind: 'payment',
    Id: tx.prepayId,
    OrderKey: tx.outTradeNo,
    Description: tx.description,
    Total: tx.total,
    State: expired ? 'CLOSED' : tx.state,
    ExpiresAt: tx.expiresAt.toISOString(),
  };
}

function resourceOf(tx: SandboxTx, transactionId: string | null, state: State) {
  const { mchid, appid } = sandboxCredentials();
  return {
    mchid,
    appid,
    out_trade_no: tx.outTradeNo,
    ...(transactionId ? { transaction_id: transactionId, success_time: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00') } : {}),
    trade_type: tx.tradeType,
    trade_state: state,
    trade_state_desc: state,
    bank_type: 'OTHERS',
    payer: { openid: 'o-sandbox-payer' },
    amount: { total: tx.total, payer_total: tx.total, currency: 'CNY', payer_currency: 'CNY' },
  };
}

function contractView(contract: SandboxContract): SandboxTransaction {
  const expired = contract.state === 'NOTSIGNED' && contract.expiresAt.getTime() <= Date.now();
  return {
    Kind: 'contract',
    Id: contract.preEntrustId,
    OrderKey: contract.contractCode,
    Description: contract.display,
    Total: 0,
    State: expired ? 'DECLINED' : contract.state,
    ExpiresAt: contract.expiresAt.toISOString(),
  };
}

const providerTime = () => new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** Sends a notification as the provider does, retrying briefly while the shop does not answer 200/204. */
async function deliver(url: string, event: string, what: string, resource: object, log: FastifyInstance['log']): Promise<void> {
  const credentials = sandboxCredentials();
  const body = JSON.stringify({
    id: randomUUID(),
    create_time: providerTime(),
    resource_type: 'encrypt-resource',
    event_type: event,
    summary: event,
    resource: sealResource(
      JSON.stringify(resource),
      credentials.apiV3Key,
      event.startsWith('PAPAY.') ? 'papay' : event.startsWith('REFUND.') ? 'refund' : 'transaction',
    ),
  });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const headers = {
        'content-type': 'application/json',
        ...(await platformHeaders(body, { serial: credentials.platformSerial, privateKey: credentials.platformPrivateKey })),
      };
      const answer = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
      if (answer.status === 200 || answer.status === 204) return;
      log.warn(`payment sandbox: the shop answered HTTP ${answer.status} to a notification for ${what}`);
    } catch (error) {
      log.warn(`payment sandbox: could not deliver a notification for ${what}: ${(error as Error).message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const notify = (tx: SandboxTx, transactionId: string | null, state: State, log: FastifyInstance['log']) =>
  deliver(tx.notifyUrl, `TRANSACTION.${state}`, tx.outTradeNo, resourceOf(tx, transactionId, state), log);

function notifyContract(contract: SandboxContract, log: FastifyInstance['log']): Promise<void> {
  const { mchid, appid } = sandboxCredentials();
  const resource = {
    mchid,
    appid,
    plan_id: contract.planId,
    out_contract_code: contract.contractCode,
    contract_id: contract.contractId,
    contract_state: contract.state,
    openid: 'o-sandbox-payer',
    operate_time: providerTime(),
  };
  return deliver(contract.notifyUrl, contract.state === 'SIGNED' ? 'PAPAY.SIGN' : 'PAPAY.TERMINATE', contract.contractCode, resource, log);
}

async function actOnContract(contract: SandboxContract, action: SandboxAction, log: FastifyInstance['log']): Promise<void> {
  if (contract.state === 'SIGNED') {
    if (action === 'failCharges') contract.failCharges = true;
    if (action === 'terminate') {
      contract.state = 'TERMINATED';
      await notifyContract(contract, log);
    }
    return;
  }
  if (contractView(contract).State !== 'NOTSIGNED') return;
  if (action === 'approve') {
    contract.state = 'SIGNED';
    contractsById.set(contract.contractId, contract);
    await notifyContract(contract, log);
  } else if (action === 'decline' || action === 'expire') {
    // The provider tells the shop nothing of a signing that did not happen.
    contract.state = 'DECLINED';
  }
}

/** A charge under a contract: accepted now, paid (or failed) a moment later, and notified like any payment. */
function charge(tx: SandboxTx, contract: SandboxContract, log: FastifyInstance['log']): void {
  setTimeout(() => {
    if (!contract.failCharges) return void payOnce(tx, log);
    tx.state = 'PAYERROR';
    void notify(tx, null, 'PAYERROR', log);
  }, 50);
}

/** The customer pays once more: a new provider transaction, notified. */
async function payOnce(tx: SandboxTx, log: FastifyInstance['log']): Promise<void> {
  const transactionId = `42000${newId(23)}`;
  tx.state = 'SUCCESS';
  tx.transactionIds.push(transactionId);
  await notify(tx, transactionId, 'SUCCESS', log);
}

async function act(tx: SandboxTx, action: SandboxAction, log: FastifyInstance['log']): Promise<void> {
  const open = tx.state === 'NOTPAY' && tx.expiresAt.getTime() > Date.now();
  if (action === 'payTwice' && (open || tx.state === 'SUCCESS')) {
    if (open) await payOnce(tx, log);
    await payOnce(tx, log);
    return;
  }
  if (action === 'failRefunds') {
    tx.failRefunds = true;
    return;
  }
  if (!open) return;
  if (action === 'approve') return payOnce(tx, log);
  // The real provider notifies only successes and the shop learns the rest by asking; the sandbox says at once, so a try-out need not wait.
  tx.state = action === 'decline' ? 'PAYERROR' : 'CLOSED';
  await notify(tx, null, tx.state, log);
}

function refundResource(tx: SandboxTx, refund: SandboxRefund) {
  const { mchid } = sandboxCredentials();
  return {
    mchid,
    out_trade_no: tx.outTradeNo,
    transaction_id: refund.transactionId,
    out_refund_no: refund.outRefundNo,
    refund_id: refund.refundId,
    refund_status: refund.status,
    ...(refund.status === 'SUCCESS' ? { success_time: providerTime() } : {}),
    user_received_account: 'the payer’s WeChat balance',
    amount: { total: tx.total, refund: refund.amount, payer_total: tx.total, payer_refund: refund.amount },
  };
}

/** A refund as the refund API answers it (its notification says `refund_status`, the API `status`). */
function refundAnswer(tx: SandboxTx, refund: SandboxRefund) {
  const { refund_status: status, ...rest } = refundResource(tx, refund);
  return { ...rest, status, channel: 'ORIGINAL', create_time: providerTime() };
}

/** A refund taken: done a moment later (or abnormal), and notified to the URL the shop gave, as the provider does. */
function settleLater(tx: SandboxTx, refund: SandboxRefund, notifyUrl: string, log: FastifyInstance['log']): void {
  setTimeout(() => {
    refund.status = tx.failRefunds ? 'ABNORMAL' : 'SUCCESS';
    void deliver(notifyUrl, `REFUND.${refund.status}`, refund.outRefundNo, refundResource(tx, refund), log);
  }, 50);
}

/** A transaction or contract by the id in its code, or by its order number or contract code (so a tester can open the phone page for an order). */
function find(id: string): { tx: SandboxTx } | { contract: SandboxContract } {
  const tx = byPrepay.get(id) ?? byOrder.get(id);
  if (tx) return { tx };
  const contract = contractsBySession.get(id) ?? contractsByCode.get(id);
  if (contract) return { contract };
  throw new ApiError(ErrorCode.NotFound, 'notFound');
}

export async function devPaymentSandbox(app: FastifyInstance): Promise<void> {
  registerRoute(app, paymentSandbox.transaction, async ({ params }) => {
    const found = find(params.id);
    return { data: 'tx' in found ? view(found.tx) : contractView(found.contract) };
  });
  registerRoute(app, paymentSandbox.act, async ({ params, body }) => {
    const found = find(params.id);
    if ('tx' in found) {
      await act(found.tx, body.Action, app.log);
      return { data: view(found.tx) };
    }
    await actOnContract(found.contract, body.Action, app.log);
    return { data: contractView(found.contract) };
  });

  await app.register(
    async (api) => {
      // Signatures cover the body exactly as sent, so this scope keeps it as text.
      api.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      // The keys are made on the first payment, not at start: most runs never pay.
      const answer = async (reply: FastifyReply, status: number, payload?: object) => {
        const body = payload === undefined ? '' : JSON.stringify(payload);
        const { platformSerial, platformPrivateKey } = sandboxCredentials();
        reply.headers(await platformHeaders(body, { serial: platformSerial, privateKey: platformPrivateKey })).code(status);
        return payload === undefined ? reply.send() : reply.type('application/json').send(body);
      };
      const signed = (request: FastifyRequest) => {
        const { merchantPublicKey, mchid } = sandboxCredentials();
        const parsed = parseAuthorization(request.headers.authorization);
        const body = typeof request.body === 'string' ? request.body : '';
        return parsed !== null && parsed.mchid === mchid && requestSignatureHolds(request.method, request.url, body, parsed, merchantPublicKey);
      };
      const json = (request: FastifyRequest) => JSON.parse(request.body as string) as Record<string, unknown>;
      // The provider's side: the shop calls it from its own address, as often as it pays, like the real provider's API.
      const asProvider = { config: { rateLimit: false } };
      api.addHook('preHandler', async (request, reply) => {
        if (!signed(request)) return answer(reply, 401, { code: 'SIGN_ERROR', message: 'signature does not hold' });
      });

      type NewOrder = { out_trade_no: string; description: string; notify_url: string; time_expire: string; amount: { total: number } };
      /** A trade number's open transaction, made on first asking; a paid number, or one started as another kind, is refused as the provider does. */
      const openTransaction = async (reply: FastifyReply, order: NewOrder, tradeType: SandboxTx['tradeType']): Promise<SandboxTx | FastifyReply> => {
        const existing = byOrder.get(order.out_trade_no);
        if (existing?.state === 'SUCCESS') return answer(reply, 400, { code: 'ORDERPAID', message: 'order paid' });
        if (existing && existing.tradeType !== tradeType)
          return answer(reply, 400, { code: 'INVALID_REQUEST', message: 'out_trade_no used by another trade type' });
        if (existing?.state === 'NOTPAY') return existing;
        const tx: SandboxTx = {
          prepayId: newId(16),
          tradeType,
          outTradeNo: order.out_trade_no,
          description: order.description,
          total: order.amount.total,
          notifyUrl: order.notify_url,
          expiresAt: new Date(order.time_expire),
          state: 'NOTPAY',
          transactionIds: [],
          refunds: new Map(),
          failRefunds: false,
        };
        byOrder.set(tx.outTradeNo, tx);
        byPrepay.set(tx.prepayId, tx);
        return tx;
      };

      api.post('/v3/pay/transactions/native', asProvider, async (request, reply) => {
        const tx = await openTransaction(reply, json(request) as NewOrder, 'NATIVE');
        return 'prepayId' in tx ? answer(reply, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${tx.prepayId}` }) : tx;
      });

      api.post('/v3/pay/transactions/h5', asProvider, async (request, reply) => {
        const order = json(request) as NewOrder & { scene_info?: { payer_client_ip?: unknown; h5_info?: { type?: unknown } } };
        const scene = order.scene_info;
        if (typeof scene?.payer_client_ip !== 'string' || !['iOS', 'Android', 'Wap'].includes(String(scene.h5_info?.type)))
          return answer(reply, 400, { code: 'PARAM_ERROR', message: 'scene_info needs payer_client_ip and h5_info.type' });
        const tx = await openTransaction(reply, order, 'MWEB');
        if (!('prepayId' in tx)) return tx;
        // Each asking gives a fresh link to the same transaction, as the provider's do.
        return answer(reply, 200, { h5_url: `https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=${tx.prepayId}&package=${randomInt(1e9, 1e10)}` });
      });

      api.post('/v3/papay/sign/contracts/pre-entrust-sign', asProvider, async (request, reply) => {
        const sign = json(request) as {
          plan_id: number;
          out_contract_code: string;
          contract_display_account: string;
          contract_notify_url: string;
          out_user_code: string;
        };
        const existing = contractsByCode.get(sign.out_contract_code);
        if (existing?.state === 'SIGNED') return answer(reply, 400, { code: 'CONTRACT_ALREADY_SIGNED', message: 'contract signed already' });
        const signedByUser = [...contractsById.values()].some(
          (contract) => contract.state === 'SIGNED' && contract.planId === sign.plan_id && contract.userCode === sign.out_user_code,
        );
        if (signedByUser) return answer(reply, 400, { code: 'USER_ALREADY_SIGNED', message: 'the user has signed under this plan' });
        const contract: SandboxContract = {
          preEntrustId: newId(16),
          planId: sign.plan_id,
          contractCode: sign.out_contract_code,
          contractId: `2026${newId(16)}`,
          display: sign.contract_display_account,
          userCode: sign.out_user_code,
          notifyUrl: sign.contract_notify_url,
          expiresAt: new Date(Date.now() + signingSessionMs),
          state: 'NOTSIGNED',
          failCharges: false,
        };
        contractsByCode.set(contract.contractCode, contract);
        contractsBySession.set(contract.preEntrustId, contract);
        return answer(reply, 200, { pre_entrustweb_id: contract.preEntrustId, redirect_url: `weixin://papay/sign?pr=${contract.preEntrustId}` });
      });

      api.post('/v3/papay/pay/transactions/apply', asProvider, async (request, reply) => {
        const apply = json(request) as {
          out_trade_no: string;
          description: string;
          transaction_notify_url: string;
          contract_id: string;
          amount: { total: number };
        };
        const contract = contractsById.get(apply.contract_id);
        if (contract?.state !== 'SIGNED') return answer(reply, 400, { code: 'CONTRACT_NOT_EXIST', message: 'no signed contract' });
        if (byOrder.get(apply.out_trade_no)?.state === 'SUCCESS') return answer(reply, 400, { code: 'ORDERPAID', message: 'order paid' });
        const tx: SandboxTx = {
          prepayId: newId(16),
          tradeType: 'PAP',
          outTradeNo: apply.out_trade_no,
          description: apply.description,
          total: apply.amount.total,
          notifyUrl: apply.transaction_notify_url,
          expiresAt: new Date(Date.now() + signingSessionMs),
          state: 'NOTPAY',
          transactionIds: [],
          refunds: new Map(),
          failRefunds: false,
        };
        byOrder.set(tx.outTradeNo, tx);
        charge(tx, contract, app.log);
        return answer(reply, 200, { out_trade_no: tx.outTradeNo, amount: { total: tx.total, currency: 'CNY' } });
      });

      api.post('/v3/papay/sign/contracts/plan-id/:plan/out-contract-code/:code/terminate', asProvider, async (request, reply) => {
        const contract = contractsByCode.get((request.params as { code: string }).code);
        if (contract?.state !== 'SIGNED') return answer(reply, 404, { code: 'CONTRACT_NOT_EXIST', message: 'no signed contract' });
        contract.state = 'TERMINATED';
        return answer(reply, 204);
      });

      api.get('/v3/pay/transactions/out-trade-no/:no', asProvider, async (request, reply) => {
        const tx = byOrder.get((request.params as { no: string }).no);
        if (!tx) return answer(reply, 404, { code: 'ORDER_NOT_EXIST', message: 'order does not exist' });
        return answer(reply, 200, resourceOf(tx, tx.transactionIds[0] ?? null, view(tx).State as State));
      });

      api.post('/v3/pay/transactions/out-trade-no/:no/close', asProvider, async (request, reply) => {
        const tx = byOrder.get((request.params as { no: string }).no);
        if (tx?.state === 'SUCCESS' || tx?.state === 'REFUND') return answer(reply, 400, { code: 'ORDERPAID', message: 'order paid' });
        if (tx) tx.state = 'CLOSED';
        return answer(reply, 204);
      });

      api.post('/v3/refund/domestic/refunds', asProvider, async (request, reply) => {
        const asked = json(request) as {
          transaction_id?: string;
          out_trade_no?: string;
          out_refund_no: string;
          notify_url?: string;
          amount: { refund: number; total: number };
        };
        // Either number names the payment, as the provider takes either.
        const tx = asked.transaction_id
          ? [...byOrder.values()].find((candidate) => candidate.transactionIds.includes(asked.transaction_id!))
          : byOrder.get(asked.out_trade_no ?? '');
        if (!tx || (tx.state !== 'SUCCESS' && tx.state !== 'REFUND')) return answer(reply, 404, { code: 'RESOURCE_NOT_EXISTS', message: 'no paid order' });
        // The same refund number again is the same refund: it is answered as it stands, never made twice.
        const known = tx.refunds.get(asked.out_refund_no);
        if (known) return answer(reply, 200, refundAnswer(tx, known));
        // An abnormal refund still holds its amount (the money left the merchant; it is handled in the merchant platform), as the provider's does.
        const refunded = [...tx.refunds.values()].reduce((total, r) => total + r.amount, 0);
        if (asked.amount.total !== tx.total || asked.amount.refund < 1 || asked.amount.refund > tx.total - refunded)
          return answer(reply, 400, { code: 'INVALID_REQUEST', message: 'the refund exceeds what is left of the payment' });
        const refund: SandboxRefund = {
          refundId: `50000${newId(24)}`,
          outRefundNo: asked.out_refund_no,
          transactionId: asked.transaction_id ?? tx.transactionIds[0],
          amount: asked.amount.refund,
          status: 'PROCESSING',
        };
        tx.refunds.set(refund.outRefundNo, refund);
        tx.state = 'REFUND';
        if (asked.notify_url) settleLater(tx, refund, asked.notify_url, app.log);
        return answer(reply, 200, refundAnswer(tx, refund));
      });

      api.get('/v3/refund/domestic/refunds/:no', asProvider, async (request, reply) => {
        const no = (request.params as { no: string }).no;
        for (const tx of byOrder.values()) {
          const refund = tx.refunds.get(no);
          if (refund) return answer(reply, 200, refundAnswer(tx, refund));
        }
        return answer(reply, 404, { code: 'RESOURCE_NOT_EXISTS', message: 'no such refund' });
      });
    },
    { prefix: sandboxBasePath },
  );

  await app.register(sandboxPhonePage);
}

/**
 * The stand-in for WeChat Pay's H5 page (what h5_url opens on the phone): the
 * payment, and "pay" or "decline", which the sandbox notifies the shop of as
 * for a scanned code before it sends the browser back to `redirect_url` — only
 * to the site's own pages, as WeChat Pay only returns to the shop's registered
 * domain. A third party's page, so in English only.
 */
async function sandboxPhonePage(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  type PageQuery = { prepay_id?: string; redirect_url?: string };
  /** The shop's page to return to, if it is one of the site's. */
  const backTo = (query: PageQuery): string | null => {
    if (!query.redirect_url || !URL.canParse(query.redirect_url)) return null;
    const url = new URL(query.redirect_url);
    return url.origin === siteOrigin(app.config) ? url.href : null;
  };

  app.get(sandboxPhonePagePath, async (request, reply) => {
    const query = request.query as PageQuery;
    const tx = byPrepay.get(query.prepay_id ?? '');
    const back = backTo(query);
    const backLink = back ? `<p style="margin-top:1.25rem"><a href="${escape(back)}">Back to the shop without paying</a></p>` : '';
    if (!tx || tx.tradeType !== 'MWEB')
      return sendDevPage(reply.code(404), 'WeChat Pay (development)', '<h1>WeChat Pay</h1><p>This payment link is not known.</p>');
    const shown = view(tx);
    const hidden = Object.entries(query)
      .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(String(value))}">`)
      .join('');
    const actions =
      shown.State === 'NOTPAY'
        ? `<form method="post">${hidden}<div class="actions"><button name="decision" value="allow">Pay ${escape(formatPrice(tx.total, 'zh-CN'))}</button><button name="decision" value="deny">Decline</button></div></form>${backLink}`
        : `<p>Nothing is left to pay.</p>${back ? `<p><a href="${escape(back)}">Back to the shop</a></p>` : ''}`;
    return sendDevPage(
      reply,
      'WeChat Pay (development)',
      `<h1>WeChat Pay</h1>
<p>This is the development stand-in for WeChat Pay on a phone. Choose what the customer does; no money moves.</p>
<p><strong>${escape(tx.description)}</strong><br>Order ${escape(tx.outTradeNo)}</p>
<p data-sandbox-state="${escape(shown.State)}">Status: ${escape(shown.State)}</p>
${actions}`,
    );
  });

  app.post(sandboxPhonePagePath, async (request, reply) => {
    const form = request.body as PageQuery & { decision?: string };
    const tx = byPrepay.get(form.prepay_id ?? '');
    if (!tx || tx.tradeType !== 'MWEB')
      return sendDevPage(reply.code(404), 'WeChat Pay (development)', '<h1>WeChat Pay</h1><p>This payment link is not known.</p>');
    await act(tx, form.decision === 'allow' ? 'approve' : 'decline', app.log);
    const back = backTo(form);
    if (back) return reply.redirect(back, 303);
    return sendDevPage(
      reply,
      'WeChat Pay (development)',
      `<h1>WeChat Pay</h1><p data-sandbox-state="${escape(view(tx).State)}">Done. Go back to the shop's page.</p>`,
    );
  });
}
