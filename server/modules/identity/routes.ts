/** The identity calls (contract/identity.ts). */
import { timingSafeEqual } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '#contract/errors.ts';
import { externalLogin } from '#contract/external-login.ts';
import { identity, lifetimes, storeVerifierPath } from '#contract/identity.ts';
import { signToken, verifyToken } from '../../crypto/signed.ts';
import { ApiError, unauthorized } from '../../http/api-error.ts';
import { bearerToken } from '../../http/auth.ts';
import { registerRoute } from '../../http/route.ts';
import { storeBase, storeIntrospectionSecret } from '../../services/store-settings.ts';
import { message } from '../../i18n/messages.ts';
import type { Transaction } from '../../db/database.ts';
import { clientOf } from './client-info.ts';
import { codeSendLimit, consumeCode, sendCode } from './codes.ts';
import { deviceLoginRoutes } from './device-login.ts';
import { redeemTicket } from './external/accounts.ts';
import { externalLoginRoutes } from './external/routes.ts';
import { recordLogin } from './login-history.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { newChallenge } from './proof-of-work.ts';
import type { IssuedTokens, SessionStore } from './sessions.ts';
import { createEmailUser, emailTaken, findByAccount, replacePasswordHash, userForPhone, type UserInfoStore } from './users.ts';

export async function identityRoutes(app: FastifyInstance, sessions: SessionStore, users: UserInfoStore): Promise<void> {
  const { db, keys } = app;
  // Stricter per-address limits on the calls that send messages or check secrets.
  const perMinute = app.config.IDENTITY_RATE_LIMIT_PER_MINUTE;
  const loginLimit = { rateLimit: { max: perMinute, timeWindow: 60_000 } };
  const sendLimit = { rateLimit: { max: Math.floor(perMinute / 4), timeWindow: 60_000 } };

  /** The tokens and the user; `fresh` after a login that may have changed the account (a code login links identities and sets phones). */
  async function loginResult(userId: number, tokens: IssuedTokens, options: { fresh?: boolean } = {}) {
    const User = await users.load(userId, options);
    if (!User) throw unauthorized();
    return { data: { ...tokens, User } };
  }

  /**
   * Checks a code and opens a session for the account it leads to, in one
   * transaction: a wrong code, or an account `accountOf` refuses, changes
   * nothing but the code's failed tries and the account's login history.
   */
  async function loginWithCode(
    channel: 'sms' | 'email',
    target: string,
    code: string,
    deviceId: string,
    request: FastifyRequest,
    accountOf: (tx: Transaction) => Promise<number | ApiError>,
  ) {
    const client = clientOf(request);
    const outcome = await db.transaction(async (tx) => {
      const check = await consumeCode(tx, keys.secret, channel, target, 'login', code);
      if (!check.ok) return check;
      const userId = await accountOf(tx);
      if (userId instanceof ApiError) return { ok: false as const, error: userId };
      await recordLogin(tx, userId, channel, true, client);
      return { ok: true as const, userId, tokens: await sessions.open(tx, userId, deviceId, client) };
    });
    if (!outcome.ok) {
      const user = await findByAccount(db, target);
      if (user) await recordLogin(db, user.id, channel, false, client);
      throw outcome.error;
    }
    return loginResult(outcome.userId, outcome.tokens, { fresh: true });
  }

  registerRoute(
    app,
    identity.sendSmsCode,
    ({ body, request }) => sendCode(app, 'sms', body.Phone, 'login', request, body.ProofOfWork),
    codeSendLimit(perMinute),
  );
  registerRoute(
    app,
    identity.sendEmailCode,
    ({ body, request }) => sendCode(app, 'email', body.Email, 'login', request, body.ProofOfWork),
    codeSendLimit(perMinute),
  );
  // Making a challenge costs the server one key derivation: as often as codes may be asked for.
  registerRoute(
    app,
    identity.codeChallenge,
    async ({ reply }) => {
      reply.header('cache-control', 'no-store');
      return { data: await newChallenge(keys.secret, app.config.CODE_CHALLENGE_WORK) };
    },
    sendLimit,
  );

  registerRoute(
    app,
    identity.loginOrRegister,
    async ({ body, request }) => {
      return loginWithCode('sms', body.Phone, body.Code, body.DeviceId, request, (tx) => userForPhone(tx, body.Phone));
    },
    loginLimit,
  );

  registerRoute(
    app,
    identity.loginByPassword,
    async ({ body, request }) => {
      const client = clientOf(request);
      const user = await findByAccount(db, body.Account);
      if (!(await verifyPassword(body.Password, user?.passwordHash ?? null)) || !user) {
        if (user) await recordLogin(db, user.id, 'password', false, client);
        throw new ApiError(ErrorCode.CredentialsInvalid, 'credentialsInvalid');
      }
      // A hash of an older scheme is replaced now that the password is known to be right (unless it changed meanwhile).
      const old = user.passwordHash!;
      const upgraded = needsRehash(old) ? await hashPassword(body.Password) : null;
      const tokens = await db.transaction(async (tx) => {
        if (upgraded) await replacePasswordHash(tx, user.id, old, upgraded);
        await recordLogin(tx, user.id, 'password', true, client);
        return sessions.open(tx, user.id, body.DeviceId, client);
      });
      return loginResult(user.id, tokens);
    },
    loginLimit,
  );

  // A quick login's new identity proves a phone with its code (contract/external-login.ts).
  registerRoute(
    app,
    externalLogin.bindPhone,
    async ({ body, request }) => loginWithCode('sms', body.Phone, body.Code, body.DeviceId, request, (tx) => redeemTicket(tx, body.Ticket, body.Phone)),
    loginLimit,
  );
  // A quick login's state rides in a cookie between its start and its return: only those routes read cookies.
  await app.register(async (external) => {
    await external.register(fastifyCookie);
    externalLoginRoutes(external, sessions, users, loginLimit);
  });
  deviceLoginRoutes(app, sessions, users, { start: sendLimit, decide: loginLimit });

  // It tells whether an address has an account: a few times an hour per address, so no list of addresses can be tried.
  registerRoute(app, identity.validateRegisterEmail, async ({ body }) => ({ data: { Available: !(await emailTaken(db, body.Email)) } }), {
    rateLimit: { max: app.config.REGISTER_EMAIL_CHECKS_PER_HOUR, timeWindow: 3600_000 },
  });

  registerRoute(
    app,
    identity.registerByEmail,
    async ({ body, request }) => {
      const passwordHash = await hashPassword(body.Password);
      return loginWithCode('email', body.Email, body.Code, body.DeviceId, request, async (tx) => {
        const userId = await createEmailUser(tx, body.Email, passwordHash);
        return userId ?? new ApiError(ErrorCode.EmailTaken, 'emailTaken');
      });
    },
    loginLimit,
  );

  registerRoute(
    app,
    identity.refreshToken,
    async ({ body }) => {
      const { userId, tokens } = await sessions.rotate(body.RefreshToken);
      return loginResult(userId, tokens);
    },
    loginLimit,
  );

  registerRoute(app, identity.refreshUserInfo, async ({ auth, body }) => {
    const user = await users.load(auth.userId, { fresh: body.Refresh === true });
    if (!user) throw unauthorized();
    return { data: user };
  });

  registerRoute(app, identity.unbundleAccount, async ({ auth, params }) => {
    const outcome = await users.unbind(auth.userId, params.id);
    if (outcome === 'notFound') throw new ApiError(ErrorCode.NotFound, 'accountNotFound');
    if (outcome === 'lastWay') throw new ApiError(ErrorCode.LastLoginMethod, 'lastLoginMethod');
    const user = await users.load(auth.userId);
    if (!user) throw unauthorized();
    return { data: user };
  });

  registerRoute(app, identity.logout, async ({ auth }) => {
    await sessions.revoke(auth.sessionId);
    return { data: null, messageKey: 'signedOut' as const };
  });

  registerRoute(app, identity.sessions, async ({ auth }) => ({ data: await sessions.list(auth) }));

  registerRoute(app, identity.signOutOtherSessions, async ({ auth }) => ({ data: { Revoked: await sessions.revokeOthers(auth) } }));

  // The store token names its session too: signing out there signs the user out of the store as well.
  registerRoute(app, identity.storeToken, async ({ auth, request }) => {
    const expiresIn = lifetimes.storeTokenSeconds;
    const token = signToken(keys.secret, 'store', { sub: auth.userId, sid: auth.sessionId, exp: Date.now() + expiresIn * 1000 });
    return { status: true, data: { token, expires_in: expiresIn }, msg: message(request.locale, 'ok') };
  });

  registerRoute(app, identity.openStore, async ({ body }) => {
    const base = storeBase(app.config);
    const target = `${base}${body.to ?? '/'}`;
    if (!body.tk) return target;
    const verifier = new URL(`${base}${storeVerifierPath}`);
    verifier.search = new URLSearchParams({ tk: body.tk, t: body.t ?? String(lifetimes.storeTokenSeconds), to: target }).toString();
    return verifier.href;
  });

  const storeSecret = Buffer.from(storeIntrospectionSecret(app.config, keys.secret));
  registerRoute(
    app,
    identity.introspectStoreToken,
    async ({ body, request }) => {
      const given = Buffer.from(bearerToken(request.headers.authorization) ?? '');
      if (given.length !== storeSecret.length || !timingSafeEqual(given, storeSecret)) throw unauthorized();
      const claims = verifyToken(keys.secret, 'store', body.token);
      if (!claims?.sid || !(await sessions.isActive(claims.sid))) return { active: false as const };
      const user = await users.load(claims.sub);
      if (!user) return { active: false as const };
      return { active: true as const, sub: String(claims.sub), name: user.NickName, exp: Math.floor(claims.exp / 1000) };
    },
    // The store proves itself with the secret; its checks come from a few addresses and are not counted against them.
    { rateLimit: false },
  );

  // The hub token names the session too, so that ending the session ends its live connections.
  registerRoute(app, identity.hubToken, async ({ auth, request }) => {
    const AccessToken = signToken(keys.secret, 'hub', { sub: auth.userId, sid: auth.sessionId, exp: Date.now() + lifetimes.hubTokenMs });
    return { isSuccess: true, data: { AccessToken }, message: message(request.locale, 'ok') };
  });
}
