/**
 * The payment sandbox: WeChat Pay APIv3 Native as the provider speaks it —
 * requests checked against the merchant's signature, answers signed with the
 * platform key, notifications signed and their resource sealed under the
 * APIv3 key — plus the phone page's calls (contract/dev.ts `paymentSandbox`)
 * to approve, decline, let expire or pay twice. Transactions live in memory:
 * it is a stand-in for trying things out, not a ledger.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { paymentSandbox, type SandboxAction, type SandboxTransaction } from '#contract/dev.ts';
import { ErrorCode } from '#contract/errors.ts';
import { ApiError } from '../../../http/api-error.ts';
import { registerRoute } from '../../../http/route.ts';
import { parseAuthorization, platformHeaders, requestSignatureHolds, sealResource } from '../../../services/wechatpay.ts';
import { sandboxBasePath, sandboxCredentials } from '../../../services/wechatpay-sandbox.ts';

type State = 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'PAYERROR' | 'REFUND';

interface SandboxTx {
  prepayId: string;
  outTradeNo: string;
  description: string;
  total: number;
  notifyUrl: string;
  expiresAt: Date;
  state: State;
  /** Every payment the customer made; "pay twice" makes two. */
  transactionIds: string[];
  refunds: Set<string>;
}

const byOrder = new Map<string, SandboxTx>();
const byPrepay = new Map<string, SandboxTx>();

const newId = (length: number) => randomBytes(length).toString('hex').slice(0, length);

function view(tx: SandboxTx): SandboxTransaction {
  const expired = tx.state === 'NOTPAY' && tx.expiresAt.getTime() <= Date.now();
  return {
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
    trade_type: 'NATIVE',
    trade_state: state,
    trade_state_desc: state,
    bank_type: 'OTHERS',
    payer: { openid: 'o-sandbox-payer' },
    amount: { total: tx.total, payer_total: tx.total, currency: 'CNY', payer_currency: 'CNY' },
  };
}

/** Sends a notification as the provider does, retrying briefly while the shop does not answer 200/204. */
async function notify(tx: SandboxTx, transactionId: string | null, state: State, log: FastifyInstance['log']): Promise<void> {
  const credentials = sandboxCredentials();
  const body = JSON.stringify({
    id: randomUUID(),
    create_time: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    resource_type: 'encrypt-resource',
    event_type: `TRANSACTION.${state}`,
    summary: state === 'SUCCESS' ? '支付成功' : state,
    resource: sealResource(JSON.stringify(resourceOf(tx, transactionId, state)), credentials.apiV3Key, 'transaction'),
  });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const headers = {
        'content-type': 'application/json',
        ...platformHeaders(body, { serial: credentials.platformSerial, privateKey: credentials.platformPrivateKey }),
      };
      const answer = await fetch(tx.notifyUrl, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
      if (answer.status === 200 || answer.status === 204) return;
      log.warn(`payment sandbox: the shop answered HTTP ${answer.status} to a notification for ${tx.outTradeNo}`);
    } catch (error) {
      log.warn(`payment sandbox: could not deliver a notification for ${tx.outTradeNo}: ${(error as Error).message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
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
  if (!open) return;
  if (action === 'approve') return payOnce(tx, log);
  // The real provider notifies only successes and the shop learns the rest by asking; the sandbox says at once, so a try-out need not wait.
  tx.state = action === 'decline' ? 'PAYERROR' : 'CLOSED';
  await notify(tx, null, tx.state, log);
}

/** A transaction by its prepay id, or by its order number (so a tester can open the phone page for an order). */
const find = (id: string) => byPrepay.get(id) ?? byOrder.get(id);

export async function devPaymentSandbox(app: FastifyInstance): Promise<void> {
  registerRoute(app, paymentSandbox.transaction, async ({ params }) => {
    const tx = find(params.id);
    if (!tx) throw new ApiError(ErrorCode.NotFound, 'notFound');
    return { data: view(tx) };
  });
  registerRoute(app, paymentSandbox.act, async ({ params, body }) => {
    const tx = find(params.id);
    if (!tx) throw new ApiError(ErrorCode.NotFound, 'notFound');
    await act(tx, body.Action, app.log);
    return { data: view(tx) };
  });

  await app.register(
    async (api) => {
      // Signatures cover the body exactly as sent, so this scope keeps it as text.
      api.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      // The keys are made on the first payment, not at start: most runs never pay.
      const answer = (reply: FastifyReply, status: number, payload?: object) => {
        const body = payload === undefined ? '' : JSON.stringify(payload);
        const { platformSerial, platformPrivateKey } = sandboxCredentials();
        reply.headers(platformHeaders(body, { serial: platformSerial, privateKey: platformPrivateKey })).code(status);
        return payload === undefined ? reply.send() : reply.type('application/json').send(body);
      };
      const signed = (request: FastifyRequest) => {
        const { merchantPublicKey, mchid } = sandboxCredentials();
        const parsed = parseAuthorization(request.headers.authorization);
        const body = typeof request.body === 'string' ? request.body : '';
        return parsed !== null && parsed.mchid === mchid && requestSignatureHolds(request.method, request.url, body, parsed, merchantPublicKey);
      };
      const json = (request: FastifyRequest) => JSON.parse(request.body as string) as Record<string, unknown>;
      api.addHook('preHandler', async (request, reply) => {
        if (!signed(request)) return answer(reply, 401, { code: 'SIGN_ERROR', message: 'signature does not hold' });
      });

      api.post('/v3/pay/transactions/native', async (request, reply) => {
        const order = json(request) as { out_trade_no: string; description: string; notify_url: string; time_expire: string; amount: { total: number } };
        const existing = byOrder.get(order.out_trade_no);
        if (existing?.state === 'SUCCESS') return answer(reply, 400, { code: 'ORDERPAID', message: 'order paid' });
        if (existing?.state === 'NOTPAY') return answer(reply, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${existing.prepayId}` });
        const tx: SandboxTx = {
          prepayId: newId(16),
          outTradeNo: order.out_trade_no,
          description: order.description,
          total: order.amount.total,
          notifyUrl: order.notify_url,
          expiresAt: new Date(order.time_expire),
          state: 'NOTPAY',
          transactionIds: [],
          refunds: new Set(),
        };
        byOrder.set(tx.outTradeNo, tx);
        byPrepay.set(tx.prepayId, tx);
        return answer(reply, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${tx.prepayId}` });
      });

      api.get('/v3/pay/transactions/out-trade-no/:no', async (request, reply) => {
        const tx = byOrder.get((request.params as { no: string }).no);
        if (!tx) return answer(reply, 404, { code: 'ORDER_NOT_EXIST', message: 'order does not exist' });
        return answer(reply, 200, resourceOf(tx, tx.transactionIds[0] ?? null, view(tx).State as State));
      });

      api.post('/v3/pay/transactions/out-trade-no/:no/close', async (request, reply) => {
        const tx = byOrder.get((request.params as { no: string }).no);
        if (tx?.state === 'SUCCESS' || tx?.state === 'REFUND') return answer(reply, 400, { code: 'ORDERPAID', message: 'order paid' });
        if (tx) tx.state = 'CLOSED';
        return answer(reply, 204);
      });

      api.post('/v3/refund/domestic/refunds', async (request, reply) => {
        const refund = json(request) as { out_trade_no: string; out_refund_no: string; amount: { refund: number } };
        const tx = byOrder.get(refund.out_trade_no);
        if (!tx || (tx.state !== 'SUCCESS' && tx.state !== 'REFUND')) return answer(reply, 404, { code: 'RESOURCE_NOT_EXISTS', message: 'no paid order' });
        tx.refunds.add(refund.out_refund_no);
        tx.state = 'REFUND';
        return answer(reply, 200, { out_refund_no: refund.out_refund_no, status: 'SUCCESS', amount: { refund: refund.amount.refund } });
      });
    },
    { prefix: sandboxBasePath },
  );
}
