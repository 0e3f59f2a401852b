/**
 * Sealed bodies (contract/crypto.ts): sealed requests are read as text for
 * `openSealedBody` (http/sealed-body.ts), which keeps the request's AES key in
 * `request.sealKey`; every answer to such a request — errors included — goes
 * back sealed with that key.
 */
import type { KeyObject } from 'node:crypto';
import fp from 'fastify-plugin';
import { encryption } from '#contract/crypto.ts';
import { seal } from '../crypto/sealed.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The AES key of a sealed request; the answer is sealed with it. */
    sealKey?: KeyObject;
  }
}

export default fp(
  async (app) => {
    app.decorateRequest('sealKey', undefined);
    app.addContentTypeParser(encryption.contentType, { parseAs: 'string', bodyLimit: encryption.maxBodyBytes }, (_request, body, done) => done(null, body));
    app.addHook('onSend', async (request, reply, payload) => {
      if (!request.sealKey || typeof payload !== 'string') return payload;
      reply.header('content-type', encryption.contentType);
      return seal(request.sealKey, payload);
    });
  },
  { name: 'sealing' },
);
