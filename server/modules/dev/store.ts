/**
 * The development store (contract/dev.ts `devStore`): what the external store
 * does with a store token. Its verifier page asks the API's introspection call
 * who the token belongs to, with the shared secret as a real store would, and
 * shows the signed-in user; its home page is the store opened plainly.
 */
import type { FastifyInstance } from 'fastify';
import { devStore } from '#contract/dev.ts';
import { identity, storeVerifierPath } from '#contract/identity.ts';
import { storeIntrospectionSecret } from '../../services/store-settings.ts';
import { escapeHtml as escape } from '../../services/html.ts';
import { sendDevPage } from './page.ts';

const title = 'Beacon Store (development)';
const intro = '<p>This is the development stand-in for the external store. It only shows who it would sign in.</p>';

export async function devStorePages(app: FastifyInstance): Promise<void> {
  const secret = storeIntrospectionSecret(app.config, app.keys.secret);
  const base = `/api${devStore.path}`;

  await app.register(
    async (store) => {
      store.get('/', async (_request, reply) => sendDevPage(reply, title, `<h1>${title}</h1>${intro}<p data-store-user>Nobody is signed in.</p>`));

      store.get<{ Querystring: { tk?: string; t?: string; to?: string } }>(storeVerifierPath, async (request, reply) => {
        const { tk = '', t = '', to = '' } = request.query;
        const answer = await app.inject({
          method: 'POST',
          url: `/api${identity.introspectStoreToken.path}`,
          headers: { authorization: `Bearer ${secret}` },
          payload: { token: tk },
        });
        const checked = answer.statusCode === 200 ? identity.introspectStoreToken.response.safeParse(answer.json()) : null;
        // Only a page of this store: the verifier must not send anyone elsewhere.
        const target = URL.canParse(to) ? new URL(to).pathname : '';
        const onward = target.startsWith(`${base}/`) ? target : `${base}/`;
        const who =
          checked?.success && checked.data.active
            ? `<p data-store-user>Signed in as <strong>${escape(checked.data.name)}</strong> (user ${escape(checked.data.sub)}), until ${new Date(checked.data.exp * 1000).toISOString()}.</p>`
            : `<p data-store-user>The store token was refused: nobody is signed in.</p>`;
        const lifetime = /^[0-9]+$/.test(t) ? `<p>The site said the token lasts ${escape(t)} seconds.</p>` : '';
        return sendDevPage(reply, title, `<h1>${title}</h1>${intro}${who}${lifetime}<p><a href="${escape(onward)}">Continue to the store</a></p>`);
      });
    },
    { prefix: devStore.path },
  );
}
