/**
 * The development identity provider (contract/dev.ts `devIdentityProvider`):
 * Steam, Microsoft and QQ as their protocols have them, so quick login works
 * end to end on a developer's machine and in the tests, with nothing
 * registered anywhere. It answers on the API's own origin, which is where
 * the identity module looks for it.
 */
import type { FastifyInstance } from 'fastify';
import { devIdentityProvider } from '#contract/dev.ts';
import { apiOrigin } from '../../../config.ts';
import { devMicrosoft } from './microsoft.ts';
import { devQq } from './qq.ts';
import { devSteam } from './steam.ts';

export async function devIdentityProviders(app: FastifyInstance): Promise<void> {
  await app.register(
    async (idp) => {
      // The sign-in forms and the token calls post forms; only this scope reads them.
      idp.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      });
      const base = `${apiOrigin(app.config)}/api${devIdentityProvider.path}`;
      devSteam(idp, base);
      devMicrosoft(idp, base);
      devQq(idp);
    },
    { prefix: devIdentityProvider.path },
  );
}
