/**
 * A development Microsoft sign-in: an OpenID Connect provider with discovery,
 * the authorization code flow with PKCE (S256 only) and RS256 ID tokens
 * (by `jose`), for the one registered development client.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { devIdentityProvider } from '#contract/dev.ts';
import { TtlCache } from '../../../services/ttl-cache.ts';
import { sendSignInPage } from '../page.ts';

type Params = Record<string, string>;

interface Grant {
  redirectUri: string;
  challenge: string;
  nonce: string | undefined;
  subject: string;
  name: string;
}

const tokenError = (error: string) => ({ error });

/** The client's credentials, sent in the body or as HTTP Basic (`client_secret_post` and `client_secret_basic`). */
function clientOf(request: FastifyRequest<{ Body: Params }>): { id: string; secret: string } {
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (basic) {
    const [id, secret] = Buffer.from(basic[1], 'base64').toString().split(':').map(decodeURIComponent);
    return { id, secret };
  }
  return { id: request.body.client_id ?? '', secret: request.body.client_secret ?? '' };
}

export function devMicrosoft(idp: FastifyInstance, base: string): void {
  // Made on first use: a key pair costs a few hundred milliseconds, which every start (and every test app) would pay.
  let keyPair: ReturnType<typeof generateKeyPair> | undefined;
  const keys = () => (keyPair ??= generateKeyPair('RS256'));
  const keyId = randomBytes(8).toString('hex');
  const grants = new TtlCache<string, Grant>(5 * 60_000, 10_000);
  const issuer = `${base}/microsoft`;

  idp.get('/microsoft/.well-known/openid-configuration', async () => ({
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/keys`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    subject_types_supported: ['pairwise'],
    id_token_signing_alg_values_supported: ['RS256'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    scopes_supported: ['openid', 'profile'],
  }));

  idp.get('/microsoft/keys', async () => ({ keys: [{ ...(await exportJWK((await keys()).publicKey)), kid: keyId, alg: 'RS256', use: 'sig' }] }));

  idp.get<{ Querystring: Params }>('/microsoft/authorize', async (request, reply) => {
    const query = request.query;
    const problem =
      query.client_id !== devIdentityProvider.clientId
        ? 'unknown client_id'
        : query.response_type !== 'code'
          ? 'response_type must be code'
          : query.code_challenge_method !== 'S256' || !query.code_challenge
            ? 'PKCE with S256 is required'
            : !query.redirect_uri || !query.scope?.split(' ').includes('openid')
              ? 'redirect_uri and the openid scope are required'
              : null;
    if (problem) return reply.code(400).type('text/plain').send(problem);
    const subject = randomBytes(12).toString('base64url');
    return sendSignInPage(reply, { provider: 'Microsoft', idLabel: 'Account id', id: subject, name: 'Dev Player', hidden: query });
  });

  idp.post<{ Body: Params }>('/microsoft/authorize', async (request, reply) => {
    const body = request.body ?? {};
    const back = new URL(body.redirect_uri ?? '');
    if (body.state) back.searchParams.set('state', body.state);
    if (body.decision !== 'allow' || !body.id) {
      back.searchParams.set('error', 'access_denied');
      return reply.redirect(back.href, 302);
    }
    const code = randomBytes(24).toString('base64url');
    grants.set(code, {
      redirectUri: body.redirect_uri,
      challenge: body.code_challenge,
      nonce: body.nonce,
      subject: body.id,
      name: body.name?.trim() || body.id,
    });
    back.searchParams.set('code', code);
    return reply.redirect(back.href, 302);
  });

  idp.post<{ Body: Params }>('/microsoft/token', async (request, reply) => {
    const body = request.body ?? {};
    const client = clientOf(request);
    if (client.id !== devIdentityProvider.clientId || client.secret !== devIdentityProvider.clientSecret)
      return reply.code(401).send(tokenError('invalid_client'));
    if (body.grant_type !== 'authorization_code') return reply.code(400).send(tokenError('unsupported_grant_type'));
    const grant = grants.get(body.code ?? '');
    grants.delete(body.code ?? '');
    const verified =
      grant &&
      createHash('sha256')
        .update(body.code_verifier ?? '')
        .digest('base64url') === grant.challenge;
    if (!grant || !verified || grant.redirectUri !== body.redirect_uri) return reply.code(400).send(tokenError('invalid_grant'));
    const idToken = await new SignJWT({ name: grant.name, ...(grant.nonce ? { nonce: grant.nonce } : {}) })
      .setProtectedHeader({ alg: 'RS256', kid: keyId })
      .setIssuer(issuer)
      .setAudience(client.id)
      .setSubject(grant.subject)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign((await keys()).privateKey);
    return { access_token: randomBytes(24).toString('base64url'), token_type: 'Bearer', expires_in: 3600, scope: 'openid profile', id_token: idToken };
  });
}
