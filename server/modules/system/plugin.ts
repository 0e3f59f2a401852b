/** The public key that encrypted calls wrap their AES key with. */
import fp from 'fastify-plugin';
import { system } from '#contract/identity.ts';
import { registerRoute } from '../../http/route.ts';

export default fp(
  async (app) => {
    registerRoute(app, system.publicKey, async () => ({ data: { Spki: app.keys.publicSpki } }));
  },
  { name: 'system', dependencies: ['keys'] },
);
