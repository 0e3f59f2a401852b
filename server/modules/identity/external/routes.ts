/**
 * The quick-login calls (contract/external-login.ts) that go through the
 * browser: the providers on offer, the start at a provider, and the return.
 * (Finishing a new identity with a phone is a code login: identity routes.ts.)
 *
 * A started login is a row named by a random `state`, which also rides in an
 * http-only cookie, so only the browser that started a login can finish it.
 * Each wrapped caller key starts one login, and each login comes back once.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { QuickLoginProvider } from '#contract/account.ts';
import { ErrorCode } from '#contract/errors.ts';
import { desktopLanding, externalLogin, externalLoginLifetimeMs, type ExternalLoginError, type ExternalLoginResult } from '#contract/external-login.ts';
import type { LocaleCode } from '#contract/locales.ts';
import { apiOrigin, sitePageUrl } from '../../../config.ts';
import { hashOpaqueToken, newOpaqueToken } from '../../../crypto/opaque-tokens.ts';
import { openHex, SealError, sealHex } from '../../../crypto/sealed.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Database, Transaction } from '../../../db/database.ts';
import { externalLogins, externalTickets, openidNonces } from '../../../db/schema/identity.ts';
import { ApiError, unauthorized } from '../../../http/api-error.ts';
import { registerRoute } from '../../../http/route.ts';
import { clientOf, deviceOf, type ClientInfo } from '../client-info.ts';
import { recordLogin } from '../login-history.ts';
import type { IssuedTokens, SessionStore } from '../sessions.ts';
import type { UserInfoStore } from '../users.ts';
import { issueTicket, linkIdentity, ownerOf, renameIdentity } from './accounts.ts';
import { ExternalLoginFailure } from './failure.ts';
import type { Identity } from './provider.ts';
import { identityProviders } from './registry.ts';

const cookieName = 'beacon_external';

type Flow = typeof externalLogins.$inferSelect;
/** What the return decides, before a new session's user is loaded. */
type Decision = Exclude<ExternalLoginResult, { Status: 'signedIn' }> | { Status: 'opened'; userId: number; tokens: IssuedTokens };

/** Forgets finished and abandoned logins, and OpenID nonces too old to be accepted again (steam.ts refuses any older than a few minutes). */
export async function pruneExternalLogins(db: Database, now = new Date()): Promise<void> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  await db.delete(externalLogins).where(lt(externalLogins.expiresAt, dayAgo));
  await db.delete(externalTickets).where(lt(externalTickets.expiresAt, dayAgo));
  await db.delete(openidNonces).where(lt(openidNonces.seenAt, dayAgo));
}

export function externalLoginRoutes(
  app: FastifyInstance,
  sessions: SessionStore,
  users: UserInfoStore,
  limit: { rateLimit: { max: number; timeWindow: number } },
): void {
  const { db, keys, config } = app;
  const providers = identityProviders(config, db, app.outbound);
  // The API's own origin from the configuration, never from the request's Host (a caller must not choose where providers send browsers).
  const origin = apiOrigin(config);
  const callbackUrl = (provider: string) => `${origin}/api/ExternalLoginDetection/${provider}/callback`;
  const cookieOptions = (request: FastifyRequest) => ({
    path: '/api/ExternalLoginDetection',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
  });

  /** The site's login page in the reader's language, or the desktop client's own address. */
  function landing(flow: Pick<Flow, 'isWeb' | 'locale'>): string {
    return flow.isWeb ? sitePageUrl(config, flow.locale as LocaleCode, '/account/login') : desktopLanding;
  }

  function failedLanding(flow: Pick<Flow, 'isWeb' | 'locale'>, provider: QuickLoginProvider, reason: ExternalLoginError): string {
    return `${landing(flow)}#${new URLSearchParams({ 'external-error': reason, provider })}`;
  }

  registerRoute(app, externalLogin.providers, async () => ({
    data: [...providers].map(([Provider, provider]) => ({ Provider, CheckUrl: provider.checkUrl })),
  }));

  /** The account `access_token` names (sealed under the caller's key, as is its expiry). */
  async function bindingUser(key: KeyObject, token: string | undefined, expires: string | undefined): Promise<number> {
    if (!token || !expires || Number(openHex(key, expires)) <= Date.now()) throw unauthorized();
    const auth = await app.authenticate(openHex(key, token));
    if (!auth) throw unauthorized();
    return auth.userId;
  }

  registerRoute(
    app,
    externalLogin.start,
    async ({ body, params, request, reply }) => {
      const provider = providers.get(params.provider);
      if (!provider) throw new ApiError(ErrorCode.NotFound, 'externalLoginUnavailable');
      let key: KeyObject;
      let bindUserId: number | null = null;
      try {
        key = await keys.keyring.unwrapKey(body.sKeyHex);
        if (body.isBind) bindUserId = await bindingUser(key, body.access_token, body.access_token_expires);
      } catch (error) {
        if (error instanceof SealError) throw new ApiError(ErrorCode.EncryptionInvalid, 'encryptionInvalid');
        throw error;
      }

      const flow = {
        state: newOpaqueToken(),
        provider: params.provider,
        keyHash: hashOpaqueToken(body.sKeyHex.toLowerCase()),
        callerKey: key.export().toString('base64'),
        bindUserId,
        isWeb: body.isWeb,
        deviceId: body.dg,
        // The site is described by its browser; the desktop client names its device, system and version itself.
        device: (!body.isWeb && [body.dn, body.dr, body.ver].filter(Boolean).join(' · ')) || deviceOf(request.headers['user-agent']),
        locale: body.lang ?? request.locale,
        verifier: newOpaqueToken(),
        nonce: newOpaqueToken(),
        expiresAt: new Date(Date.now() + externalLoginLifetimeMs),
      };
      try {
        await db.insert(externalLogins).values(flow);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError(ErrorCode.BadRequest, 'externalLoginReused');
        throw error;
      }
      try {
        const url = await provider.signInUrl({ ...flow, callbackUrl: callbackUrl(params.provider) });
        reply.setCookie(cookieName, flow.state, { ...cookieOptions(request), maxAge: externalLoginLifetimeMs / 1000 });
        return url;
      } catch (error) {
        // The provider cannot be reached: the browser goes back to say so.
        request.log.warn({ err: error, provider: params.provider }, 'could not start a quick login');
        return failedLanding(flow, params.provider, 'failed');
      }
    },
    limit,
  );

  /** Links the identity to the account that asked for it. */
  async function bind(tx: Transaction, userId: number, provider: QuickLoginProvider, identity: Identity): Promise<Decision> {
    const owner = await ownerOf(tx, provider, identity.subject);
    if (owner && owner.userId !== userId) throw new ExternalLoginFailure('taken', `the ${provider} identity is user ${owner.userId}'s`);
    if (owner) await renameIdentity(tx, provider, identity);
    else {
      const linked = await linkIdentity(tx, userId, provider, identity);
      if (linked !== 'linked') throw new ExternalLoginFailure(linked, `user ${userId} could not link a ${provider} identity`);
    }
    return { Status: 'bound', Provider: provider };
  }

  /** Logs in the identity's account; an identity without an account with a phone must prove a phone first. */
  async function signIn(tx: Transaction, flow: Flow, provider: QuickLoginProvider, identity: Identity, client: ClientInfo): Promise<Decision> {
    const owner = await ownerOf(tx, provider, identity.subject);
    if (!owner?.phone) {
      const Ticket = await issueTicket(tx, provider, identity, owner?.userId ?? null);
      return { Status: 'bindPhone', Provider: provider, Ticket, DisplayName: identity.displayName };
    }
    await renameIdentity(tx, provider, identity);
    await recordLogin(tx, owner.userId, provider, true, client);
    return { Status: 'opened', userId: owner.userId, tokens: await sessions.open(tx, owner.userId, flow.deviceId, client) };
  }

  async function finish(request: FastifyRequest, flow: Flow, provider: QuickLoginProvider): Promise<ExternalLoginResult> {
    const idp = providers.get(provider);
    if (!idp) throw new ExternalLoginFailure('failed', `${provider} is no longer offered`);
    const identity = await idp.identify(new URL(request.url, origin), { ...flow, callbackUrl: callbackUrl(provider) });
    const client = { ...clientOf(request), device: flow.device, locale: flow.locale as LocaleCode };
    const decision = await db.transaction((tx) =>
      flow.bindUserId === null ? signIn(tx, flow, provider, identity, client) : bind(tx, flow.bindUserId, provider, identity),
    );
    if (decision.Status !== 'opened') return decision;
    // Fresh: the provider's name for the identity may have changed.
    const User = await users.reload(decision.userId);
    if (!User) throw new ExternalLoginFailure('failed', 'the account was deleted meanwhile');
    return { Status: 'signedIn', Provider: provider, Login: { ...decision.tokens, User } };
  }

  registerRoute(app, externalLogin.callback, async ({ params, request, reply }) => {
    const state = request.cookies[cookieName];
    reply.clearCookie(cookieName, cookieOptions(request));
    const now = new Date();
    const [flow] = state
      ? await db
          .update(externalLogins)
          .set({ usedAt: now })
          .where(and(eq(externalLogins.state, state), eq(externalLogins.provider, params.provider), isNull(externalLogins.usedAt)))
          .returning()
      : [];
    const failed = (target: Pick<Flow, 'isWeb' | 'locale'>, reason: ExternalLoginError) => failedLanding(target, params.provider, reason);
    // Without its cookie the browser cannot be told from another: it is sent to the site, which has nothing to finish.
    if (!flow) return failed({ isWeb: true, locale: request.locale }, 'expired');
    if (flow.expiresAt <= now) return failed(flow, 'expired');
    try {
      const result = await finish(request, flow, params.provider);
      return `${landing(flow)}#${new URLSearchParams({ external: sealHex(createSecretKey(Buffer.from(flow.callerKey, 'base64')), JSON.stringify(result)) })}`;
    } catch (error) {
      if (!(error instanceof ExternalLoginFailure)) {
        request.log.warn({ err: error, provider: params.provider }, 'quick login failed');
        return failed(flow, 'failed');
      }
      request.log.info({ provider: params.provider, reason: error.reason, detail: error.message }, 'quick login did not finish');
      return failed(flow, error.reason);
    }
  });
}
