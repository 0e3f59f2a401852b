/**
 * The commerce module (contract/commerce.ts): the catalogue, orders, paying by
 * scanning a code or from the wallet, the provider's notifications, the
 * closing of unpaid orders, and the pushes that let open pages follow an
 * order without polling.
 */
import { count, eq } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { commerceCalls, PayMethod, type Payment } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { hubEvents } from '#contract/realtime.ts';
import { memberships, products } from '../../db/schema.ts';
import { ApiError } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';
import { qrSvg } from '../../services/qr-svg.ts';
import { activeProducts, demoProducts, priceOrder } from './catalogue.ts';
import { seedDemoOrders } from './demo.ts';
import { notificationRoute } from './notify-route.ts';
import { findOrder, insertOrder, orderDetail, orderNotice, orderPage, toOrder, type OrderRow } from './orders.ts';
import { closeAtProvider, closeExpiredOrders, closeOrder, payFromWallet, startScanPay, underMaintenance } from './payments.ts';
import { balanceOf, ledgerPage } from './wallet.ts';
import { ProviderError } from '../../services/wechatpay-adapter.ts';

/** How often unpaid orders past their window are looked for. */
const expirySweepMs = 5_000;

export default fp(
  async (app) => {
    const { db } = app;
    const pay = app.payments;
    const { provider } = pay;

    const announce = (row: OrderRow) => {
      if (row.userId === null) return;
      app.hub.toUser(row.userId, hubEvents.orderStatus, [orderNotice(row)]).catch((error: unknown) => {
        app.log.warn({ err: error }, 'could not push an order change');
      });
    };

    if (app.config.DEMO_DATA) {
      const [{ existing }] = await db.select({ existing: count() }).from(products);
      if (existing === 0) {
        await db.insert(products).values(demoProducts);
        if (await seedDemoOrders(db)) app.log.info('Seeded the demo products and orders');
      }
    }

    const refuseInMaintenance = async () => {
      if (await underMaintenance(db)) throw new ApiError(ErrorCode.Maintenance, 'maintenance');
    };

    registerRoute(app, commerceCalls.products, async () => ({ data: await activeProducts(db) }));

    registerRoute(app, commerceCalls.createOrder, async ({ auth, body }) => {
      await refuseInMaintenance();
      const { item, price } = await priceOrder(db, auth.userId, body);
      return { data: toOrder(await insertOrder(db, auth.userId, body.Product, item, price)) };
    });

    registerRoute(app, commerceCalls.orders, async ({ auth, params }) => ({ data: await orderPage(db, auth.userId, params.page) }));
    registerRoute(app, commerceCalls.order, async ({ auth, params }) => ({ data: await orderDetail(db, params.key, auth.userId) }));

    registerRoute(app, commerceCalls.pay, async ({ auth, params, body, request }) => {
      const method = PayMethod.safeParse(body.Method);
      if (!method.success) throw new ApiError(ErrorCode.PayMethodUnsupported, 'payMethodUnsupported');
      await refuseInMaintenance();

      if (method.data === 'wallet') {
        const row = await payFromWallet(db, auth.userId, params.key);
        announce(row);
        // A code shown before is closed at the provider; if it was paid meanwhile, that money goes to the wallet.
        await closeAtProvider(db, provider, row).then(
          (changed) => changed.forEach(announce),
          (error: unknown) => app.log.warn({ err: error }, 'could not close a scan-to-pay transaction'),
        );
        return { data: { Order: toOrder(row), CodeUrl: null, QrSvg: null } satisfies Payment };
      }

      let row: OrderRow;
      try {
        row = await startScanPay(db, provider, auth.userId, params.key, pay.notifyUrl());
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        app.log.error({ err: error }, 'the payment provider refused a new payment');
        throw new ApiError(ErrorCode.PaymentProviderFailed, 'paymentProviderFailed');
      }
      announce(row);
      const target = pay.scanTarget(row.codeUrl!, request);
      return { data: { Order: toOrder(row), CodeUrl: target, QrSvg: await qrSvg(target) } satisfies Payment };
    });

    registerRoute(app, commerceCalls.cancel, async ({ auth, params }) => {
      let changed: OrderRow[];
      try {
        changed = await closeOrder(db, provider, params.key, { outcome: 'canceled', source: 'customer', note: 'canceled', userId: auth.userId });
      } catch (error) {
        if (error instanceof ApiError) throw error;
        app.log.error({ err: error }, 'the payment provider did not close a payment');
        throw new ApiError(ErrorCode.PaymentProviderFailed, 'paymentProviderFailed');
      }
      changed.forEach(announce);
      return { data: toOrder(await findOrder(db, params.key, auth.userId)) };
    });

    registerRoute(app, commerceCalls.wallet, async ({ auth, params }) => ({
      data: { ...(await ledgerPage(db, auth.userId, params.page)), Balance: await balanceOf(db, auth.userId) },
    }));

    registerRoute(app, commerceCalls.summary, async ({ auth }) => {
      const [membership] = await db.select({ until: memberships.until }).from(memberships).where(eq(memberships.userId, auth.userId));
      const running = membership && membership.until.getTime() > Date.now();
      return { data: { Balance: await balanceOf(db, auth.userId), MembershipUntil: running ? membership.until.toISOString() : null } };
    });

    await notificationRoute(app, announce);

    // Unpaid orders close when their window passes. The orders themselves are the queue, so a restart loses nothing and the row lock makes each close happen once across instances.
    let sweeping: Promise<unknown> | null = null;
    const sweeper = setInterval(() => {
      sweeping ??= closeExpiredOrders(db, provider, announce, (error) => app.log.warn({ err: error }, 'could not close an expired order'))
        .catch((error: unknown) => app.log.error({ err: error }, 'closing expired orders failed'))
        .finally(() => (sweeping = null));
    }, expirySweepMs);
    sweeper.unref();
    app.addHook('onClose', async () => {
      clearInterval(sweeper);
      await sweeping;
    });
  },
  { name: 'commerce', dependencies: ['database', 'hub', 'payments'] },
);
