/** The identity calls of spec §7. */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../contract/errors.ts';
import { identity, lifetimes } from '../../../contract/identity.ts';
import type { AppContext } from '../../context.ts';
import { signToken } from '../../crypto/signed.ts';
import { externalAccounts, users } from '../../db/schema.ts';
import { ApiError, unauthorized } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';
import { message } from '../../i18n/messages.ts';
import type { Messenger } from '../../services/messenger.ts';
import { consumeCode, issueCode, withdrawCode } from './codes.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { listSessions, openSession, revokeOtherSessions, revokeSession, rotate, type IssuedTokens } from './sessions.ts';
import { defaultNickname, forgetUserInfo, loadUserInfo, userForPhone } from './users.ts';

const deviceOf = (request: FastifyRequest) => request.headers['user-agent'] ?? 'unknown';

export function identityRoutes(app: FastifyInstance, context: AppContext): void {
  const { db, keys } = context;
  // Stricter per-address limits on the calls that send messages or check secrets.
  const perMinute = context.config.IDENTITY_RATE_LIMIT_PER_MINUTE;
  const loginLimit = { max: perMinute, timeWindow: 60_000 };
  const sendLimit = { max: Math.floor(perMinute / 4), timeWindow: 60_000 };

  async function loginResult(userId: number, tokens: IssuedTokens) {
    const User = await loadUserInfo(db, userId);
    if (!User) throw unauthorized();
    return { data: { ...tokens, User } };
  }

  async function sendCode(channel: 'sms' | 'email', messenger: Messenger, target: string, request: FastifyRequest) {
    const { id, code } = await issueCode(db, keys.secret, channel, target, request.ip);
    const text = message(request.locale, channel === 'sms' ? 'smsText' : 'emailText', { code });
    try {
      await messenger.send({ to: target, text, subject: channel === 'email' ? message(request.locale, 'emailSubject') : undefined });
    } catch (error) {
      await withdrawCode(db, id);
      throw error;
    }
  }

  registerRoute(app, context, identity.sendSmsCode, async ({ body, request }) => {
    await sendCode('sms', context.sms, body.Phone, request);
    return { data: null, messageKey: 'smsSent' as const };
  }, { rateLimit: sendLimit });

  registerRoute(app, context, identity.sendEmailCode, async ({ body, request }) => {
    await sendCode('email', context.email, body.Email, request);
    return { data: null, messageKey: 'emailSent' as const };
  }, { rateLimit: sendLimit });

  registerRoute(app, context, identity.loginOrRegister, async ({ body, request }) => {
    const outcome = await db.transaction(async (tx) => {
      const check = await consumeCode(tx, keys.secret, 'sms', body.Phone, body.Code);
      if (!check.ok) return check;
      const userId = await userForPhone(tx, body.Phone);
      return { ok: true as const, userId, tokens: await openSession(tx, userId, body.DeviceId, deviceOf(request)) };
    });
    if (!outcome.ok) throw outcome.error;
    return loginResult(outcome.userId, outcome.tokens);
  }, { rateLimit: loginLimit });

  registerRoute(app, context, identity.loginByPassword, async ({ body, request }) => {
    const account = body.Account.trim().toLowerCase();
    const [user] = await db.select().from(users).where(account.includes('@') ? eq(users.email, account) : eq(users.phone, account));
    if (!(await verifyPassword(body.Password, user?.passwordHash ?? null)) || !user) throw new ApiError(ErrorCode.CredentialsInvalid, 'credentialsInvalid');
    const tokens = await db.transaction((tx) => openSession(tx, user.id, body.DeviceId, deviceOf(request)));
    return loginResult(user.id, tokens);
  }, { rateLimit: loginLimit });

  registerRoute(app, context, identity.validateRegisterEmail, async ({ body }) => {
    const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, body.Email));
    return { data: { Available: !taken } };
  });

  registerRoute(app, context, identity.registerByEmail, async ({ body, request }) => {
    const passwordHash = await hashPassword(body.Password);
    const outcome = await db.transaction(async (tx) => {
      const check = await consumeCode(tx, keys.secret, 'email', body.Email, body.Code);
      if (!check.ok) return check;
      const [created] = await tx
        .insert(users)
        .values({ email: body.Email, passwordHash, nickname: defaultNickname(body.Email.split('@')[0]) })
        .onConflictDoNothing({ target: users.email })
        .returning({ id: users.id });
      if (!created) return { ok: false as const, error: new ApiError(ErrorCode.EmailTaken, 'emailTaken') };
      return { ok: true as const, userId: created.id, tokens: await openSession(tx, created.id, body.DeviceId, deviceOf(request)) };
    });
    if (!outcome.ok) throw outcome.error;
    return loginResult(outcome.userId, outcome.tokens);
  }, { rateLimit: loginLimit });

  registerRoute(app, context, identity.refreshToken, async ({ body }) => {
    const { userId, tokens } = await rotate(db, body.RefreshToken);
    return loginResult(userId, tokens);
  }, { rateLimit: loginLimit });

  registerRoute(app, context, identity.refreshUserInfo, async ({ auth }) => {
    const user = await loadUserInfo(db, auth.userId);
    if (!user) throw unauthorized();
    return { data: user };
  });

  registerRoute(app, context, identity.unbundleAccount, async ({ auth, params }) => {
    const id = Number(params.id);
    const removed = Number.isSafeInteger(id)
      ? await db.delete(externalAccounts).where(and(eq(externalAccounts.id, id), eq(externalAccounts.userId, auth.userId))).returning({ id: externalAccounts.id })
      : [];
    if (removed.length === 0) throw new ApiError(ErrorCode.NotFound, 'accountNotFound');
    forgetUserInfo(auth.userId);
    const user = await loadUserInfo(db, auth.userId);
    if (!user) throw unauthorized();
    return { data: user };
  });

  registerRoute(app, context, identity.logout, async ({ auth }) => {
    await revokeSession(db, auth.sessionId);
    return { data: null, messageKey: 'signedOut' as const };
  });

  registerRoute(app, context, identity.sessions, async ({ auth }) => ({ data: await listSessions(db, auth) }));

  registerRoute(app, context, identity.signOutOtherSessions, async ({ auth }) => ({ data: { Revoked: await revokeOtherSessions(db, auth) } }));

  registerRoute(app, context, identity.storeToken, async ({ auth, request }) => {
    const expiresIn = lifetimes.storeTokenSeconds;
    const token = signToken(keys.secret, 'store', { sub: auth.userId, exp: Date.now() + expiresIn * 1000 });
    return { status: true, data: { token, expires_in: expiresIn }, msg: message(request.locale, 'ok') };
  });

  registerRoute(app, context, identity.hubToken, async ({ auth, request }) => {
    const AccessToken = signToken(keys.secret, 'hub', { sub: auth.userId, exp: Date.now() + lifetimes.hubTokenMs });
    return { isSuccess: true, data: { AccessToken }, message: message(request.locale, 'ok') };
  });
}
