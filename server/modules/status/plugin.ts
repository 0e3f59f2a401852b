/**
 * The status module (contract/status.ts): the acceleration status board, its
 * incident feeds, and `status set`, whose changes reach open accelerate pages
 * through the hub (commands.ts).
 */
import fp from 'fastify-plugin';
import type { LocaleCode } from '#contract/locales.ts';
import { statusBoardIncidents, statusCacheMs, statusCalls, statusFeedPaths, statusFeedSize } from '#contract/status.ts';
import { apiOrigin, sitePageUrl } from '../../config.ts';
import { publicFor } from '../../http/cache-control.ts';
import { registerRoute } from '../../http/route.ts';
import { ensureTargets, incidents, services } from './board.ts';
import { seedDemoStatus } from './demo.ts';
import { atomDocument, incidentFeed } from './feeds.ts';

const shared = publicFor(statusCacheMs);

export default fp(
  async (app) => {
    const { db, config } = app;
    await ensureTargets(db);
    if (config.DEMO_DATA && (await seedDemoStatus(db))) app.log.info('Seeded the demo acceleration status');

    registerRoute(app, statusCalls.board, async ({ reply }) => {
      reply.header('cache-control', shared);
      const [Services, Incidents] = await Promise.all([services(db), incidents(db, statusBoardIncidents)]);
      return { data: { Services, Incidents } };
    });

    const feedOf = async (locale: LocaleCode) => {
      const api = `${apiOrigin(config)}/api`;
      const query = `?lang=${locale}`;
      return incidentFeed(await incidents(db, statusFeedSize), locale, {
        page: sitePageUrl(config, locale, '/accelerate'),
        json: `${api}${statusFeedPaths.json}${query}`,
        atom: `${api}${statusFeedPaths.atom}${query}`,
      });
    };

    registerRoute(app, statusCalls.feedJson, async ({ body, reply }) => {
      reply.header('cache-control', shared).type('application/feed+json; charset=utf-8');
      return (await feedOf(body.lang ?? 'en')).json1();
    });

    registerRoute(app, statusCalls.feedAtom, async ({ body, reply }) => {
      reply.header('cache-control', shared).type('application/atom+xml; charset=utf-8');
      const locale = body.lang ?? 'en';
      return atomDocument(await feedOf(locale), locale);
    });
  },
  { name: 'status', dependencies: ['database', 'hub'] },
);
