/** The user's language on every API request (`request.locale`), from the Accept-Language the site sends. */
import fp from 'fastify-plugin';
import type { LocaleCode } from '#contract/locales.ts';
import { negotiateLocale } from '../i18n/messages.ts';

declare module 'fastify' {
  interface FastifyRequest {
    locale: LocaleCode;
  }
}

export default fp(
  async (app) => {
    app.decorateRequest('locale', 'zh-CN');
    app.addHook('onRequest', async (request) => {
      request.locale = negotiateLocale(request.headers['accept-language']);
    });
  },
  { name: 'locale' },
);
