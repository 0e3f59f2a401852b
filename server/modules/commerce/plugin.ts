/**
 * The commerce module (contract/commerce.ts, agreements.ts): the catalogue, orders, paying by
 * scanning a code, in WeChat on the phone or from the wallet, auto-renewal agreements, the provider's
 * notifications, the jobs that close unpaid orders and renew agreements, and
 * the pushes that let open pages follow an order without polling.
 */
import { count, eq } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { agreementCalls } from '#contract/agreements.ts';
import { commerceCalls, orderStatusEvent, PayMethod, type Payment } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { sitePageUrl } from '../../config.ts';
import { products } from '../../db/schema/commerce.ts';
import { users } from '../../db/schema/identity.ts';
import { ApiError } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';
import { qrSvg } from '../../services/qr-svg.ts';
import { ProviderError, ProviderUnanswered } from '../../services/payment-provider.ts';
import {
  agreementNoticeJob,
  cancelAgreement,
  cancelAllAgreements,
  chargeDueAgreements,
  contractEndJob,
  listAgreements,
  openAgreementCount,
  noticeMessage,
  remindOfCharges,
  renewalsJob,
  startAgreement,
  toAgreement,
  type AgreementNotice,
} from './agreements.ts';
import { activeProducts, demoProducts, priceOrder } from './catalogue.ts';
import { bindLinkFor, bindOrder } from './bind-links.ts';
import { commerceGrants } from './grants.ts';
import { seedDemoOrders } from './demo.ts';
import { invoiceRoutes } from './invoice-routes.ts';
import { forgetOldNonces, nonceCleanupJob } from './nonces.ts';
import { alipayNotificationRoute, notificationRoute } from './notify-route.ts';
import { expiredOrderKeys, OrderTimers, orderSweepJob } from './expiry.ts';
import { findOrder, insertOrder, orderDetail, orderNotice, orderPage, toOrder, type OrderRow } from './orders.ts';
import { closeAtProvider, closeExpiredOrder, closeOrder, payFromWallet, requireProvider, startPhonePay, startScanPay, underMaintenance } from './payments.ts';
import { payContextOf } from './pay-context.ts';
import { receiptOf, sellerOf } from './receipts.ts';
import { checkPendingRefunds, refundCheckJob } from './refunds.ts';
import { balanceOf, ledgerPage } from './wallet.ts';

export default fp(
  async (app) => {
    const { db, jobs } = app;
    const pay = app.payments;
    const context = payContextOf(app);
    const { contracts } = context;
    const grants = commerceGrants();
    app.decorate('commerce', grants);

    const announce = (row: OrderRow) => {
      if (row.userId === null) return;
      app.hub.toUser(row.userId, orderStatusEvent, [orderNotice(row)]).catch((error: unknown) => {
        app.log.warn({ err: error }, 'could not push an order change');
      });
    };

    // The queues first: a job sent inside a transaction must find its queue known already (on PGlite, looking it up would wait for that very transaction).
    await jobs.createQueue(orderSweepJob, { policy: 'singleton', retryLimit: 0 });
    await jobs.createQueue(renewalsJob, { policy: 'singleton', retryLimit: 0 });
    await jobs.createQueue(agreementNoticeJob, { retryLimit: 10, retryDelay: 60, retryBackoff: true });
    await jobs.createQueue(contractEndJob, { retryLimit: 20, retryDelay: 60, retryBackoff: true, retryDelayMax: 3600 });
    await jobs.createQueue(nonceCleanupJob, { policy: 'singleton' });
    await jobs.createQueue(refundCheckJob, { policy: 'singleton', retryLimit: 0 });

    if (app.config.DEMO_DATA) {
      const [{ existing }] = await db.select({ existing: count() }).from(products);
      if (existing === 0) {
        await db.insert(products).values(demoProducts);
        if (await seedDemoOrders(db)) app.log.info('Seeded the demo products and orders');
      }
    }

    /**
     * Work at the payment provider, given up after PROVIDER_TIMEOUT_MS. No answer is the customer's "not responding",
     * an error or a refusal "answered with an error" (both: nothing was charged), logged as `what`.
     */
    const atProvider = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        app.log.error({ err: error }, what);
        throw new ApiError(ErrorCode.PaymentProviderFailed, error instanceof ProviderUnanswered ? 'paymentProviderFailed' : 'paymentProviderError');
      }
    };

    const refuseInMaintenance = async () => {
      if (await underMaintenance(db)) throw new ApiError(ErrorCode.Maintenance, 'maintenance');
    };

    registerRoute(app, commerceCalls.products, async () => ({ data: await activeProducts(db) }));

    /** Closes an order whose window passed, and the customer's open pages hear of it; false when it could not (the next sweep tries again). */
    const closeExpired = async (key: string): Promise<boolean> => {
      try {
        (await closeExpiredOrder(context, key)).forEach(announce);
        return true;
      } catch (error) {
        app.log.warn({ err: error, order: key }, 'could not close an expired order; the next sweep tries again');
        return false;
      }
    };
    const orderTimers = new OrderTimers(closeExpired);
    app.addHook('preClose', () => orderTimers.stop());

    registerRoute(app, commerceCalls.createOrder, async ({ auth, body }) => {
      await refuseInMaintenance();
      const { item, price } = await priceOrder(db, auth.userId, body);
      const row = await insertOrder(db, { userId: auth.userId, product: body.Product, item, price });
      orderTimers.watch(row);
      return { data: toOrder(row) };
    });

    // Made in the desktop client with nobody signed in: the link lets whoever signs in on the site take it (docs/tour.md "Orders from the desktop client").
    registerRoute(app, commerceCalls.createClientOrder, async ({ body, request }) => {
      await refuseInMaintenance();
      const { item, price } = await priceOrder(db, null, body);
      const row = await insertOrder(db, { userId: null, product: body.Product, item, price, note: 'createdInClient' });
      orderTimers.watch(row);
      const link = new URLSearchParams(bindLinkFor(app.keys.secret, row));
      return { data: { Order: toOrder(row), BindUrl: `${sitePageUrl(app.config, request.locale, '/bindorder')}?${link}` } };
    });

    registerRoute(app, commerceCalls.bindOrder, async ({ auth, body }) => {
      const row = await bindOrder(db, app.keys.secret, auth.userId, body);
      announce(row);
      return { data: toOrder(row) };
    });

    registerRoute(app, commerceCalls.orders, async ({ auth, params }) => ({ data: await orderPage(db, auth.userId, params.page) }));
    registerRoute(app, commerceCalls.order, async ({ auth, params }) => ({ data: await orderDetail(db, params.key, auth.userId, pay.methods) }));
    const seller = sellerOf(app.config);
    registerRoute(app, commerceCalls.receipt, async ({ auth, params }) => ({ data: await receiptOf(db, params.key, auth.userId, seller) }));
    invoiceRoutes(app);

    /** A method the customer asked for, if this server takes it: else "unsupported payment type". */
    const methodOf = (asked: string): PayMethod => {
      const method = PayMethod.safeParse(asked);
      if (!method.success || (method.data !== 'wallet' && !pay.methods.includes(method.data)))
        throw new ApiError(ErrorCode.PayMethodUnsupported, 'payMethodUnsupported');
      return method.data;
    };

    registerRoute(app, commerceCalls.pay, async ({ auth, params, body }) => {
      const method = methodOf(body.Method);
      await refuseInMaintenance();

      if (method === 'wallet') {
        const row = await payFromWallet(db, auth.userId, params.key);
        // Counted here rather than in payFromWallet, which also pays the demo data's order.
        app.metrics.paymentSettled('paid', 'wallet');
        announce(row);
        // A code shown before is closed at its provider; if it was paid meanwhile, that money goes to the wallet.
        await closeAtProvider(context, row).then(
          (changed) => changed.forEach(announce),
          (error: unknown) => app.log.warn({ err: error }, 'could not close a scan-to-pay transaction'),
        );
        return { data: { Order: toOrder(row), CodeUrl: null, QrSvg: null } satisfies Payment };
      }

      const { row, changed } = await atProvider('the payment provider refused a new payment', () =>
        startScanPay(context, auth.userId, params.key, method, pay.channel(method).notifyUrl()),
      );
      // The same code shown again changes nothing the customer's open pages need to hear of.
      if (changed) announce(row);
      const target = pay.channel(method).scanTarget(row.codeUrl!);
      return { data: { Order: toOrder(row), CodeUrl: target, QrSvg: await qrSvg(target) } satisfies Payment };
    });

    registerRoute(app, commerceCalls.payOnPhone, async ({ auth, params, body, request }) => {
      const method = methodOf(body.Method);
      if (method === 'wallet') throw new ApiError(ErrorCode.PayMethodUnsupported, 'payMethodUnsupported');
      await refuseInMaintenance();
      const channel = pay.channel(method);
      // The way back is this site's pay page, marked as coming back: never an address the caller chose.
      const returnUrl = `${sitePageUrl(app.config, request.locale, '/payment')}?${new URLSearchParams({ key: params.key, from: method })}`;
      // WeChat Pay checks the phone that pays against this address: the customer's, as the proxy settings (TRUST_PROXY) give it.
      const { row, changed, payUrl } = await atProvider('the payment provider refused a payment on a phone', () =>
        startPhonePay(context, auth.userId, params.key, method, { notifyUrl: channel.notifyUrl(), payerClientIp: request.ip, returnUrl }),
      );
      if (changed) announce(row);
      return { data: { Order: toOrder(row), PayUrl: channel.phoneTarget(payUrl) } };
    });

    registerRoute(app, commerceCalls.cancel, async ({ auth, params }) => {
      const changed = await atProvider('the payment provider did not close a payment', () =>
        closeOrder(context, params.key, { outcome: 'canceled', source: 'customer', note: 'canceled', userId: auth.userId }),
      );
      changed.forEach(announce);
      return { data: toOrder(await findOrder(db, params.key, auth.userId)) };
    });

    registerRoute(app, commerceCalls.wallet, async ({ auth, params }) => ({
      data: { ...(await ledgerPage(db, auth.userId, params.page)), Balance: await balanceOf(db, auth.userId) },
    }));

    registerRoute(app, commerceCalls.summary, async ({ auth }) => {
      const until = await grants.membershipUntil(db, auth.userId);
      return { data: { Balance: await balanceOf(db, auth.userId), MembershipUntil: until?.toISOString() ?? null } };
    });

    registerRoute(app, agreementCalls.list, async ({ auth }) => ({ data: await listAgreements(db, auth.userId) }));

    registerRoute(app, agreementCalls.create, async ({ auth, body, request }) => {
      // An auto-renewal is a WeChat Pay contract: without WeChat Pay there is none to sign.
      if (!pay.methods.includes('wechatpay')) throw new ApiError(ErrorCode.PayMethodUnsupported, 'payMethodUnsupported');
      await refuseInMaintenance();
      const { agreement, order } = await startAgreement(db, jobs, auth.userId, body.Product, request.locale);
      return { data: { Agreement: toAgreement(agreement), Order: toOrder(order) } };
    });

    registerRoute(app, agreementCalls.cancel, async ({ auth, params }) => ({
      data: toAgreement(await atProvider('the payment provider did not end a contract', () => cancelAgreement(db, contracts, auth.userId, params.key))),
    }));

    // A deleted account loses its wallet, its plan and its agreements; the contracts at the provider end first,
    // and when the provider cannot be reached the account is not deleted.
    app.accountEnding.add({
      losses: async (userId) => {
        const until = await grants.membershipUntil(db, userId);
        return { Wallet: await balanceOf(db, userId), PlanUntil: until?.toISOString() ?? null, Agreements: await openAgreementCount(db, userId) };
      },
      end: async (userId) => {
        try {
          await cancelAllAgreements(db, contracts, userId);
        } catch (error) {
          if (!(error instanceof ProviderError) && !(error instanceof ApiError && error.code === ErrorCode.PaymentProviderFailed)) throw error;
          app.log.error({ err: error }, 'the payment provider did not end a contract of an account being deleted');
          throw new ApiError(ErrorCode.PaymentProviderFailed, 'accountDeletionBlocked');
        }
      },
    });

    if (pay.methods.includes('wechatpay')) await notificationRoute(app, context, announce);
    if (pay.methods.includes('alipay')) await alipayNotificationRoute(app, context, announce);

    // The workers: pg-boss keeps the jobs in the database, so a restart loses none, and hands each to one instance.
    const { countingFailures } = app.metrics;
    // Every minute, the orders past their window that no timer closed (made before a restart, on an instance gone, elsewhere than a customer's call).
    await jobs.schedule(orderSweepJob, '* * * * *');
    await jobs.work(
      orderSweepJob,
      countingFailures(orderSweepJob, async () => {
        let failed = 0;
        for (const key of await expiredOrderKeys(db)) if (!(await closeExpired(key))) failed++;
        if (failed > 0) throw new Error(`${failed} expired orders could not be closed; the next sweep tries again`);
      }),
    );
    // The queue of one expiry job per order that the sweep replaced: those orders are the sweep's now.
    if (await jobs.getQueue('order-expiry')) await jobs.deleteQueue('order-expiry');

    await jobs.schedule(renewalsJob, '* * * * *');
    await jobs.work(
      renewalsJob,
      countingFailures(renewalsJob, async () => {
        await remindOfCharges(db, jobs);
        // Only WeChat Pay has auto-renewal contracts; without it there are none to charge.
        const wechatPay = contracts();
        if (wechatPay) await chargeDueAgreements(context, wechatPay, pay.channel('wechatpay').notifyUrl(), announce);
      }),
    );

    await jobs.work<AgreementNotice>(
      agreementNoticeJob,
      countingFailures(agreementNoticeJob, async ([job]) => {
        const [user] = await db.select({ phone: users.phone, email: users.email }).from(users).where(eq(users.id, job.data.userId));
        if (user?.phone) await app.sms.send(noticeMessage(job.data, user.phone));
        else if (user?.email) await app.email.send(noticeMessage(job.data, user.email));
      }),
    );

    await jobs.work<{ plan: number; key: string }>(
      contractEndJob,
      countingFailures(contractEndJob, async ([job]) => {
        await requireProvider(contracts()).terminateContract(job.data.plan, job.data.key);
      }),
    );

    // Refunds to the original payment the provider has not reported within a minute: asked about every minute.
    await jobs.schedule(refundCheckJob, '* * * * *');
    await jobs.work(
      refundCheckJob,
      countingFailures(refundCheckJob, async () => {
        for (const done of await checkPendingRefunds(context)) announce(done.order);
      }),
    );

    await jobs.schedule(nonceCleanupJob, '17 * * * *');
    await jobs.work(
      nonceCleanupJob,
      countingFailures(nonceCleanupJob, () => forgetOldNonces(db)),
    );
  },
  { name: 'commerce', dependencies: ['database', 'hub', 'payments', 'identity', 'metrics'] },
);
