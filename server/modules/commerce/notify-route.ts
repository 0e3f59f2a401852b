/**
 * WeChat Pay's notifications (contract `commerceCalls.notify`) of transactions,
 * refunds and auto-renewal contracts. The signature
 * covers the body exactly as sent, so this route's scope keeps it as text
 * beside the parsed JSON. A notification that is not signed by the platform,
 * is stale, replays a nonce or does not open under the APIv3 key is refused
 * and changes nothing; an accepted one is applied once.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { commerceCalls } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { ApiError } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';
import { ProviderError } from '../../services/wechatpay-adapter.ts';
import { SignatureError } from '../../services/wechatpay.ts';
import { applyContract, chargePeriod } from './agreements.ts';
import { ReplayedNotification } from './nonces.ts';
import type { OrderRow } from './orders.ts';
import type { PayContext } from './pay-context.ts';
import { applyTransaction } from './payments.ts';
import { applyRefund } from './refunds.ts';

const rawBodies = new WeakMap<FastifyRequest, string>();

export async function notificationRoute(app: FastifyInstance, context: PayContext, announce: (row: OrderRow) => void): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      rawBodies.set(request, body as string);
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new ApiError(ErrorCode.BadRequest, 'badRequest'), undefined);
      }
    });

    registerRoute(
      scope,
      commerceCalls.notify,
      async ({ request }) => {
        const provider = context.provider();
        if (!provider) throw new ApiError(ErrorCode.ServerError, 'serverError');
        let changed: OrderRow | null = null;
        let signed: Awaited<ReturnType<typeof applyContract>> = null;
        try {
          const { nonce, event } = provider.readNotification(request.headers, rawBodies.get(request) ?? '');
          if (event.kind === 'transaction') changed = await applyTransaction(context, event.transaction, nonce);
          else if (event.kind === 'refund') changed = (await applyRefund(context, event.refund, nonce))?.order ?? null;
          else signed = await applyContract(context.db, context.jobs, event.contract, nonce);
        } catch (error) {
          if (error instanceof SignatureError || error instanceof ProviderError || error instanceof ReplayedNotification) {
            app.log.warn(`refused a payment notification: ${error.message}`);
            throw new ApiError(ErrorCode.BadRequest, 'badRequest');
          }
          throw error;
        }
        if (changed) announce(changed);
        if (signed) {
          // Signed: the first period is charged under the contract now; the charge's outcome comes as its own notification.
          announce(signed.charge);
          // A charge the provider did not answer stays paying until its notification or its expiry: the contract's notification was applied all the same.
          const failed = await chargePeriod(context, provider, signed.agreement, signed.charge, app.payments.notifyUrl()).catch((error: unknown) => {
            if (!(error instanceof ProviderError)) throw error;
            app.log.error({ err: error }, 'the payment provider did not answer a first period’s charge');
            return null;
          });
          if (failed) announce(failed);
        }
        return { code: 'SUCCESS', message: 'OK' };
      },
      // The provider sends every shop's notifications from a few addresses; each is proven by its signature, not counted per address.
      { rateLimit: false },
    );
  });
}
