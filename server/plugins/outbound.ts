/**
 * `app.outbound`: the fetch every call to an outside service goes through
 * (services/outbound-http.ts), with the OUTBOUND_* settings. Closing the app
 * closes its kept-alive connections.
 */
import fp from 'fastify-plugin';
import { outboundHttp, outboundSettings, type OutboundFetch } from '../services/outbound-http.ts';

declare module 'fastify' {
  interface FastifyInstance {
    outbound: OutboundFetch;
  }
}

export default fp(
  async (app) => {
    const http = outboundHttp(outboundSettings(app.config));
    app.decorate('outbound', http.fetch);
    app.addHook('onClose', () => http.close());
  },
  { name: 'outbound', dependencies: ['config'] },
);
