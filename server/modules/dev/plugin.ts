/**
 * Development stand-ins (DESIGN.md §9), under /api/dev. `buildApp` never
 * registers this module in production, and config.ts refuses the development
 * providers there, so nothing of it can reach a deployment.
 */
import fp from 'fastify-plugin';
import { dev } from '#contract/dev.ts';
import { registerRoute } from '../../http/route.ts';

export default fp(
  async (app) => {
    const outboxes = [app.sms.outbox, app.email.outbox].filter((outbox) => outbox !== undefined);
    // Lets a developer or a browser test read the codes it was sent.
    if (outboxes.length > 0) {
      registerRoute(app, dev.outbox, async ({ body }) => ({ data: outboxes.flatMap((outbox) => outbox.filter((item) => item.to === body.to)) }));
    }
  },
  { name: 'dev', dependencies: ['messengers'] },
);
