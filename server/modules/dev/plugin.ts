/**
 * Development stand-ins for outside services, under /api/dev. `buildApp` never
 * registers this module in production, and config.ts refuses the development
 * providers there, so nothing of it can reach a deployment.
 */
import { and, eq, isNull } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { dev } from '#contract/dev.ts';
import { emailConfirmations } from '../../db/schema/identity.ts';
import { registerRoute } from '../../http/route.ts';
import { devAlipaySandbox } from './alipay/sandbox.ts';
import { devIdentityProviders } from './idp/plugin.ts';
import { devStorePages } from './store.ts';
import { devPaymentSandbox } from './wechatpay/sandbox.ts';

export default fp(
  async (app) => {
    const outboxes = [app.sms.outbox, app.email.outbox].filter((outbox) => outbox !== undefined);
    // Lets a developer or a browser test read the codes it was sent.
    if (outboxes.length > 0) {
      registerRoute(app, dev.outbox, async ({ body }) => ({ data: outboxes.flatMap((outbox) => outbox.filter((item) => item.to === body.to)) }));
    }
    registerRoute(app, dev.expireEmailLinks, async ({ body }) => {
      const expired = await app.db
        .update(emailConfirmations)
        .set({ expiresAt: new Date() })
        .where(and(eq(emailConfirmations.email, body.to.toLowerCase()), isNull(emailConfirmations.usedAt)))
        .returning({ id: emailConfirmations.id });
      return { data: { Expired: expired.length } };
    });
    await devIdentityProviders(app);
    if (!app.config.STORE_URL) await devStorePages(app);
    if (app.config.PAYMENT_PROVIDER.includes('sandbox')) {
      await devPaymentSandbox(app);
      await devAlipaySandbox(app);
    }
  },
  { name: 'dev', dependencies: ['messengers'] },
);
