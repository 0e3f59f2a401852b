/**
 * QQ sign-in: OAuth 2.0 authorization code, as QQ Connect speaks it — the
 * token endpoint answers JSON when asked (`fmt=json`) but without a token
 * type, which general OAuth clients refuse, so its three calls are made here:
 * the token, the user's `openid` for this app, and the nickname.
 */
import * as z from 'zod/mini';
import type { OutboundFetch } from '../../../services/outbound-http.ts';
import { ExternalLoginFailure } from './failure.ts';
import { fetchJson, type IdentityProvider } from './provider.ts';

export interface QqSettings {
  /** `https://graph.qq.com`. */
  base: string;
  appId: string;
  appKey: string;
}

const Token = z.object({ access_token: z.string() });
const Me = z.object({ client_id: z.string(), openid: z.string().check(z.minLength(1)) });
const UserInfo = z.object({ ret: z.number(), nickname: z.optional(z.string()) });

export function qqProvider(settings: QqSettings, fetch: OutboundFetch): IdentityProvider {
  const get = (path: string, query: Record<string, string>) => fetchJson(fetch, `${settings.base}${path}?${new URLSearchParams(query)}`);

  return {
    checkUrl: null,

    async signInUrl(flow) {
      const query = { response_type: 'code', client_id: settings.appId, redirect_uri: flow.callbackUrl, state: flow.state, scope: 'get_user_info' };
      return `${settings.base}/oauth2.0/authorize?${new URLSearchParams(query)}`;
    },

    async identify(callback, flow) {
      const params = callback.searchParams;
      const code = params.get('code');
      if (params.get('state') !== flow.state) throw new ExternalLoginFailure('failed', 'QQ: the state does not match');
      if (!code) throw new ExternalLoginFailure('denied', 'QQ: no code');
      try {
        const token = Token.parse(
          await get('/oauth2.0/token', {
            grant_type: 'authorization_code',
            client_id: settings.appId,
            client_secret: settings.appKey,
            code,
            redirect_uri: flow.callbackUrl,
            fmt: 'json',
          }),
        ).access_token;
        const me = Me.parse(await get('/oauth2.0/me', { access_token: token, fmt: 'json' }));
        if (me.client_id !== settings.appId) throw new Error('the token was issued to another app');
        const info = UserInfo.parse(await get('/user/get_user_info', { access_token: token, oauth_consumer_key: settings.appId, openid: me.openid }));
        return { subject: me.openid, displayName: (info.ret === 0 && info.nickname?.trim()) || me.openid };
      } catch (cause) {
        throw new ExternalLoginFailure('failed', `QQ: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    },
  };
}
