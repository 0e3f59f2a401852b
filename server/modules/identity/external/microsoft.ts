/**
 * Microsoft sign-in (the Xbox network's identity): OpenID Connect with PKCE,
 * by `openid-client`, which checks the state, the code verifier, the ID
 * token's signature, issuer, audience, expiry and nonce. The provider's
 * metadata is discovered once and kept; a failed discovery is tried again
 * on the next login. Its calls go through the outbound client.
 */
import * as client from 'openid-client';
import type { OutboundFetch } from '../../../services/outbound-http.ts';
import { ExternalLoginFailure } from './failure.ts';
import type { IdentityProvider } from './provider.ts';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export function microsoftProvider(settings: OidcSettings, fetch: OutboundFetch): IdentityProvider {
  let discovered: Promise<client.Configuration> | null = null;
  function configuration(): Promise<client.Configuration> {
    // Only the development provider and the tests' are plain http.
    const insecure = settings.issuer.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {};
    // Every call of the client (discovery, keys, tokens) goes through the outbound client, with its deadline and size cap.
    const options = { ...insecure, [client.customFetch]: fetch as client.CustomFetch };
    discovered ??= client.discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, options).catch((error: unknown) => {
      discovered = null;
      throw error;
    });
    return discovered;
  }

  return {
    checkUrl: null,

    async signInUrl(flow) {
      const url = client.buildAuthorizationUrl(await configuration(), {
        redirect_uri: flow.callbackUrl,
        scope: 'openid profile',
        response_mode: 'query',
        code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return url.href;
    },

    async identify(callback, flow) {
      const error = callback.searchParams.get('error');
      if (error) throw new ExternalLoginFailure(error === 'access_denied' ? 'denied' : 'failed', `Microsoft: ${error}`);
      try {
        const tokens = await client.authorizationCodeGrant(await configuration(), callback, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new Error('no ID token');
        const name = [claims.name, claims.preferred_username].find((value) => typeof value === 'string' && value.trim());
        return { subject: claims.sub, displayName: typeof name === 'string' ? name.trim() : claims.sub };
      } catch (cause) {
        throw new ExternalLoginFailure('failed', `Microsoft: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    },
  };
}
