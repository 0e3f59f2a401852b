/**
 * The plugins module (contract/plugins.ts): reviews and ratings of the
 * plugins in content/plugins/catalogue.json. Public answers are cached
 * briefly by anyone; a user's own answer only by their browser.
 */
import fp from 'fastify-plugin';
import { pluginCacheMs, pluginCalls, pluginSlugs } from '#contract/plugins.ts';
import { publicFor } from '../../http/cache-control.ts';
import { registerRoute } from '../../http/route.ts';
import { seedDemoEvaluations } from './demo.ts';
import {
  allRatings,
  ensureRatings,
  evaluationPage,
  markHelpful,
  ownEvaluation,
  ratingOf,
  removeEvaluation,
  reportEvaluation,
  saveEvaluation,
} from './evaluations.ts';

export default fp(
  async (app) => {
    const { db } = app;
    await ensureRatings(db, pluginSlugs);
    if (app.config.DEMO_DATA && (await seedDemoEvaluations(db))) app.log.info('Seeded the demo plugin reviews');

    registerRoute(app, pluginCalls.list, async ({ reply }) => {
      reply.header('cache-control', publicFor(pluginCacheMs.list));
      return { data: await allRatings(db, pluginSlugs) };
    });

    registerRoute(app, pluginCalls.rating, async ({ params, reply }) => {
      reply.header('cache-control', publicFor(pluginCacheMs.rating));
      return { data: await ratingOf(db, params.slug) };
    });

    registerRoute(app, pluginCalls.evaluations, async ({ params, reply }) => {
      reply.header('cache-control', publicFor(pluginCacheMs.evaluations));
      return { data: await evaluationPage(db, params.slug, params.sort, params.page) };
    });

    registerRoute(app, pluginCalls.own, async ({ auth, params, reply }) => {
      reply.header('cache-control', 'private, no-cache');
      return { data: await ownEvaluation(db, params.slug, auth.userId) };
    });

    registerRoute(app, pluginCalls.save, async ({ auth, params, body, request }) => ({
      data: await saveEvaluation(db, params.slug, auth.userId, body.Rating, body.Text, request.locale),
      messageKey: 'evaluationSaved' as const,
    }));

    registerRoute(app, pluginCalls.remove, async ({ auth, params }) => ({
      data: await removeEvaluation(db, params.slug, auth.userId),
      messageKey: 'evaluationDeleted' as const,
    }));

    registerRoute(app, pluginCalls.helpful, async ({ auth, params }) => ({ data: await markHelpful(db, params.id, auth.userId) }));

    registerRoute(app, pluginCalls.report, async ({ auth, params, body }) => {
      await reportEvaluation(db, params.id, auth.userId, body.Reason);
      return { data: { Reported: true as const }, messageKey: 'evaluationReported' as const };
    });
  },
  { name: 'plugins', dependencies: ['database'] },
);
