/**
 * A development QQ Connect: the OAuth 2.0 authorization code flow, with the
 * token, `me` and `get_user_info` calls answering JSON as QQ's do with
 * `fmt=json`, for the one registered development app.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { devIdentityProvider } from '#contract/dev.ts';
import { TtlCache } from '../../../services/ttl-cache.ts';
import { sendSignInPage } from '../page.ts';

type Params = Record<string, string>;

interface QqUser {
  openid: string;
  nickname: string;
}

export function devQq(idp: FastifyInstance): void {
  const codes = new TtlCache<string, QqUser & { redirectUri: string }>(10 * 60_000, 10_000);
  const tokens = new TtlCache<string, QqUser>(3_600_000, 10_000);
  const newSecret = () => randomBytes(24).toString('hex');

  idp.get<{ Querystring: Params }>('/qq/oauth2.0/authorize', async (request, reply) => {
    const query = request.query;
    if (query.client_id !== devIdentityProvider.clientId || query.response_type !== 'code' || !query.redirect_uri)
      return reply.code(400).type('text/plain').send('Unknown client_id, or no response_type=code and redirect_uri');
    const openid = randomBytes(16).toString('hex').toUpperCase();
    return sendSignInPage(reply, { provider: 'QQ', idLabel: 'OpenID', id: openid, name: 'Dev 玩家', hidden: query });
  });

  idp.post<{ Body: Params }>('/qq/oauth2.0/authorize', async (request, reply) => {
    const body = request.body ?? {};
    const back = new URL(body.redirect_uri ?? '');
    back.searchParams.set('state', body.state ?? '');
    // QQ sends a cancelled sign-in back without a code.
    if (body.decision === 'allow' && body.id) {
      const code = newSecret();
      codes.set(code, { openid: body.id, nickname: body.name?.trim() || body.id, redirectUri: body.redirect_uri });
      back.searchParams.set('code', code);
    }
    return reply.redirect(back.href, 302);
  });

  idp.get<{ Querystring: Params }>('/qq/oauth2.0/token', async (request) => {
    const query = request.query;
    const grant = codes.get(query.code ?? '');
    codes.delete(query.code ?? '');
    const client = query.client_id === devIdentityProvider.clientId && query.client_secret === devIdentityProvider.clientSecret;
    if (!grant || !client || query.grant_type !== 'authorization_code' || grant.redirectUri !== query.redirect_uri)
      return { error: 100019, error_description: 'code to access token error' };
    const accessToken = newSecret();
    tokens.set(accessToken, grant);
    return { access_token: accessToken, expires_in: '3600', refresh_token: newSecret() };
  });

  idp.get<{ Querystring: Params }>('/qq/oauth2.0/me', async (request) => {
    const user = tokens.get(request.query.access_token ?? '');
    return user ? { client_id: devIdentityProvider.clientId, openid: user.openid } : { error: 100016, error_description: 'access token check failed' };
  });

  idp.get<{ Querystring: Params }>('/qq/user/get_user_info', async (request) => {
    const user = tokens.get(request.query.access_token ?? '');
    if (!user || user.openid !== request.query.openid || request.query.oauth_consumer_key !== devIdentityProvider.clientId)
      return { ret: 100016, msg: 'access token check failed' };
    return { ret: 0, msg: '', nickname: user.nickname };
  });
}
