/**
 * The providers' notifications. WeChat Pay's (contract `commerceCalls.notify`)
 * of transactions, refunds and auto-renewal contracts: a notification that is
 * not signed by the platform, is stale, replays a nonce or does not open under
 * the APIv3 key is refused and changes nothing. Alipay's
 * (`commerceCalls.notifyAlipay`) of trades paid, closed and refunded: one not
 * signed by Alipay, for another app or seller, for an order this shop does not
 * have or of another amount is refused and changes nothing; one seen already
 * is answered `success` again, as Alipay retries until it hears that. Both
 * signatures cover the body exactly as sent, so each route's scope keeps it
 * as text beside the parsed form. An accepted notification is applied once.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { commerceCalls } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { ApiError } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';
import { NotificationRefused, ProviderError, type Transaction } from '../../services/payment-provider.ts';
import { SignatureError } from '../../services/wechatpay.ts';
import type { Database } from '../../db/database.ts';
import { applyContract, chargePeriod } from './agreements.ts';
import { ReplayedNotification } from './nonces.ts';
import type { OrderRow } from './orders.ts';
import type { PayContext } from './pay-context.ts';
import { findOrderOfTrade, applyTransaction } from './payments.ts';
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
        const provider = context.contracts();
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
          const failed = await chargePeriod(context, provider, signed.agreement, signed.charge, app.payments.channel('wechatpay').notifyUrl()).catch(
            (error: unknown) => {
              if (!(error instanceof ProviderError)) throw error;
              app.log.error({ err: error }, 'the payment provider did not answer a first period’s charge');
              return null;
            },
          );
          if (failed) announce(failed);
        }
        return { code: 'SUCCESS', message: 'OK' };
      },
      // The provider sends every shop's notifications from a few addresses; each is proven by its signature, not counted per address.
      { rateLimit: false },
    );
  });
}

/** Alipay names an order's trade and its amount: both must be this shop's, or the notification is not one to apply. */
async function refuseStranger(db: Database, transaction: Transaction): Promise<void> {
  const order = await findOrderOfTrade(db, transaction.outTradeNo);
  if (!order) throw new NotificationRefused(`for a trade this shop does not have (${transaction.outTradeNo})`);
  if (transaction.total !== order.price) throw new NotificationRefused(`of ${transaction.total} fen for order ${order.key} of ${order.price}`);
}

export async function alipayNotificationRoute(app: FastifyInstance, context: PayContext, announce: (row: OrderRow) => void): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
      rawBodies.set(request, body as string);
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    registerRoute(
      scope,
      commerceCalls.notifyAlipay,
      async ({ request }) => {
        const provider = app.payments.channel('alipay').provider();
        if (!provider) throw new ApiError(ErrorCode.ServerError, 'serverError');
        let changed: OrderRow | null;
        try {
          const { nonce, event } = provider.readNotification(rawBodies.get(request) ?? '');
          if (event.kind === 'transaction') {
            await refuseStranger(context.db, event.transaction);
            changed = await applyTransaction(context, event.transaction, nonce);
          } else changed = (await applyRefund(context, event.refund, nonce))?.order ?? null;
        } catch (error) {
          // Stored already: Alipay did not hear the first answer, and asks until it hears this one.
          if (error instanceof ReplayedNotification) return 'success' as const;
          if (error instanceof NotificationRefused || error instanceof ProviderError) {
            app.log.warn(`refused an Alipay notification: ${error.message}`);
            throw new ApiError(ErrorCode.BadRequest, 'badRequest');
          }
          throw error;
        }
        if (changed) announce(changed);
        return 'success' as const;
      },
      // Alipay sends every shop's notifications from a few addresses; each is proven by its signature, not counted per address.
      { rateLimit: false },
    );
  });
}
