/**
 * The activation module (contract/activation.ts): redeeming cdkeys and the
 * history of what a user redeemed. The grants themselves are the commerce
 * module's (`app.commerce`), made inside the redemption's transaction.
 */
import { count } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { activationCalls } from '#contract/activation.ts';
import { serverActor } from '../../db/audit.ts';
import { cdkeyBatches } from '../../db/schema/activation.ts';
import { registerRoute } from '../../http/route.ts';
import { createBatch, failureCleanupJob, forgetOldFailures, redeem, redemptionPage, type Granter } from './cdkeys.ts';
import { demoBatch } from './demo.ts';

/** Redeeming is also limited per address by the API's rate limiter, far below what guessing would need. */
const redeemRateLimit = { max: 30, timeWindow: 60_000 };

export default fp(
  async (app) => {
    const { db } = app;

    if (app.config.DEMO_DATA) {
      const [{ batches }] = await db.select({ batches: count() }).from(cdkeyBatches);
      if (batches === 0) {
        await createBatch(db, serverActor('demo data'), app.keys.secret, demoBatch);
        app.log.info(`Seeded the demo cdkey batch "${demoBatch.name}" (npm run admin -- cdkey export ${demoBatch.name})`);
      }
    }

    const grantTo: Granter = async (tx, userId, grant) => {
      if (grant.Kind === 'wallet') await app.commerce.credit(tx, userId, grant.Amount, 'cdkey');
      else if (grant.Kind === 'membership') await app.commerce.extendMembership(tx, userId, grant.Days);
      else return app.commerce.paidRecharge(tx, userId, grant.Product, grant.Amount);
      return null;
    };

    registerRoute(
      app,
      activationCalls.redeem,
      async ({ auth, body, request }) => {
        const redemption = await redeem(db, grantTo, auth.userId, request.ip, body.Key);
        const until = await app.commerce.membershipUntil(db, auth.userId);
        return { data: { Redemption: redemption, Balance: await app.commerce.balance(db, auth.userId), MembershipUntil: until?.toISOString() ?? null } };
      },
      { rateLimit: redeemRateLimit },
    );

    registerRoute(app, activationCalls.redemptions, async ({ auth, params }) => ({ data: await redemptionPage(db, auth.userId, params.page) }));

    await app.jobs.createQueue(failureCleanupJob, { policy: 'singleton' });
    await app.jobs.schedule(failureCleanupJob, '23 * * * *');
    await app.jobs.work(
      failureCleanupJob,
      app.metrics.countingFailures(failureCleanupJob, () => forgetOldFailures(db)),
    );
  },
  { name: 'activation', dependencies: ['database', 'keys', 'commerce', 'metrics'] },
);
