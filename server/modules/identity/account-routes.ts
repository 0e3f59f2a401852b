/** The account-centre calls (contract/account.ts): they change what identity knows of a user, so they live beside it. */
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { accountCalls, nicknameProblem } from '#contract/account.ts';
import { ErrorCode } from '#contract/errors.ts';
import { sitePageUrl } from '../../config.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Transaction } from '../../db/database.ts';
import { users, verificationCodes } from '../../db/schema/identity.ts';
import { ApiError, unauthorized } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';
import { message } from '../../i18n/messages.ts';
import type { FolderStore } from '../../services/file-store.ts';
import { renderAvatar } from './avatars.ts';
import { consumeCode, sendCode, type CodePurpose } from './codes.ts';
import { confirmEmailLink, createEmailLink } from './email-links.ts';
import { loginHistory } from './login-history.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { SessionStore } from './sessions.ts';
import type { UserInfoStore } from './users.ts';

type UserRow = typeof users.$inferSelect;

export function accountRoutes(app: FastifyInstance, sessions: SessionStore, userInfos: UserInfoStore, avatars: FolderStore): void {
  const { db, keys } = app;
  const perMinute = app.config.IDENTITY_RATE_LIMIT_PER_MINUTE;
  const checkLimit = { rateLimit: { max: perMinute, timeWindow: 60_000 } };
  const sendLimit = { rateLimit: { max: Math.floor(perMinute / 4), timeWindow: 60_000 } };
  const uploadLimit = { rateLimit: { max: 10, timeWindow: 60_000 } };

  async function userRow(userId: number): Promise<UserRow> {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw unauthorized();
    return user;
  }

  /** The changed user, as the answer of the call that changed them. */
  async function changed(userId: number) {
    const user = await userInfos.reload(userId);
    if (!user) throw unauthorized();
    return { data: user, messageKey: 'saved' as const };
  }

  /** Removes avatar files no user shows any more (names are content hashes, so two users may share one). */
  async function removeUnusedAvatars(names: string[]): Promise<void> {
    for (const name of names) {
      const [inUse] = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`exists (select 1 from jsonb_each_text(${users.avatarUrl}) where value = ${name})`)
        .limit(1);
      if (!inUse) await avatars.remove(name);
    }
  }

  /** The user's own phone (sms) or e-mail, or a clear error when the account has none. */
  function ownContact(user: UserRow, channel: 'sms' | 'email'): string {
    const contact = channel === 'sms' ? user.phone : user.email;
    if (!contact) throw new ApiError(ErrorCode.ContactMissing, channel === 'sms' ? 'phoneMissing' : 'emailMissing');
    return contact;
  }

  /**
   * Checks codes inside one transaction and then runs `change`; a wrong code
   * commits its failed try and changes nothing else.
   */
  async function withCodes<T>(
    checks: Array<{ channel: 'sms' | 'email'; target: string; purpose: CodePurpose; code: string }>,
    change: (tx: Transaction) => Promise<T>,
  ): Promise<T> {
    const outcome = await db.transaction(async (tx) => {
      for (const check of checks) {
        const result = await consumeCode(tx, keys.secret, check.channel, check.target, check.purpose, check.code);
        if (!result.ok) return { error: result.error };
      }
      return { value: await change(tx) };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  registerRoute(app, accountCalls.updateNickname, async ({ auth, body }) => {
    const problem = nicknameProblem(body.NickName);
    if (problem) throw new ApiError(ErrorCode.NicknameInvalid, problem);
    await db.update(users).set({ nickname: body.NickName }).where(eq(users.id, auth.userId));
    return changed(auth.userId);
  });

  registerRoute(
    app,
    accountCalls.uploadAvatar,
    async ({ auth, body }) => {
      const rendered = await renderAvatar(Buffer.from(body.Image, 'base64'));
      if ('problem' in rendered) throw new ApiError(ErrorCode.AvatarInvalid, rendered.problem);
      const files = Object.values(rendered.files);
      for (const file of files) await avatars.put(file.name, file.bytes);
      const [previous] = await db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, auth.userId));
      const names = Object.fromEntries(Object.entries(rendered.files).map(([size, file]) => [size, file.name]));
      await db.update(users).set({ avatarUrl: names }).where(eq(users.id, auth.userId));
      await removeUnusedAvatars(Object.values(previous?.avatarUrl ?? {}).filter((name) => !files.some((file) => file.name === name)));
      return changed(auth.userId);
    },
    uploadLimit,
  );

  registerRoute(
    app,
    accountCalls.sendOwnCode,
    async ({ auth, body, request }) => sendCode(app, body.Channel, ownContact(await userRow(auth.userId), body.Channel), 'account', request),
    sendLimit,
  );

  registerRoute(
    app,
    accountCalls.changePhone,
    async ({ auth, body }) => {
      const user = await userRow(auth.userId);
      if (user.phone === body.Phone) throw new ApiError(ErrorCode.BadRequest, 'phoneUnchanged');
      // The new number's code is a login code (anyone may ask one for any number); changing a number needs the
      // old one's own account code too, so a stolen session alone cannot move the account.
      const checks: Parameters<typeof withCodes>[0] = [{ channel: 'sms', target: body.Phone, purpose: 'login', code: body.Code }];
      if (user.phone) checks.unshift({ channel: 'sms', target: user.phone, purpose: 'account', code: body.OldCode ?? '' });
      try {
        await withCodes(checks, (tx) => tx.update(users).set({ phone: body.Phone }).where(eq(users.id, auth.userId)));
      } catch (error) {
        // The number is another account's, or two accounts raced for it: the unique phone decides, and the codes stay unused.
        if (isUniqueViolation(error)) throw new ApiError(ErrorCode.PhoneTaken, 'phoneTaken');
        throw error;
      }
      return changed(auth.userId);
    },
    checkLimit,
  );

  registerRoute(
    app,
    accountCalls.bindEmail,
    async ({ auth, body, request }) => {
      const [holder] = await db.select({ id: users.id }).from(users).where(eq(users.email, body.Email));
      if (holder && holder.id !== auth.userId) throw new ApiError(ErrorCode.EmailTaken, 'emailTaken');
      const token = await createEmailLink(db, auth.userId, body.Email);
      const link = sitePageUrl(app.config, request.locale, `/verification/email/confirm?token=${token}`);
      await app.email.send({
        to: body.Email,
        subject: message(request.locale, 'emailLinkSubject'),
        text: message(request.locale, 'emailLinkText', { email: body.Email, link }),
      });
      return { data: null, messageKey: 'emailLinkSent' as const, messageParams: { email: body.Email } };
    },
    sendLimit,
  );

  registerRoute(
    app,
    accountCalls.confirmEmail,
    async ({ body }) => {
      const outcome = await confirmEmailLink(db, body.Token);
      if (!outcome.ok) throw outcome.error;
      await userInfos.reload(outcome.userId);
      return { data: { Email: outcome.email }, messageKey: 'emailConfirmed' as const };
    },
    checkLimit,
  );

  registerRoute(
    app,
    accountCalls.setPassword,
    async ({ auth, body }) => {
      const user = await userRow(auth.userId);
      if (user.passwordHash && !(await verifyPassword(body.Current ?? '', user.passwordHash))) throw new ApiError(ErrorCode.PasswordWrong, 'passwordWrong');
      const passwordHash = await hashPassword(body.Password);
      const { revoked } = await sessions.revokeWith(auth.userId, auth.sessionId, async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, auth.userId));
      });
      await userInfos.reload(auth.userId);
      return { data: { Revoked: revoked }, messageKey: 'passwordChanged' as const };
    },
    checkLimit,
  );

  registerRoute(app, accountCalls.revokeSession, async ({ auth, params }) => {
    if (!(await sessions.revokeOwn(auth, params.id))) throw new ApiError(ErrorCode.NotFound, 'sessionNotFound');
    return { data: null, messageKey: 'signedOut' as const };
  });

  registerRoute(app, accountCalls.loginHistory, async ({ auth }) => ({ data: await loginHistory(db, auth.userId) }));

  /** Checks codes without using them up (a right one stays usable); a wrong one still counts its failed try. */
  async function checkCodes(checks: Parameters<typeof withCodes>[0]): Promise<void> {
    const keep = new Error('the codes are right: roll back, keeping them unused');
    await withCodes(checks, async () => {
      throw keep;
    }).catch((error: unknown) => {
      if (error !== keep) throw error;
    });
  }

  registerRoute(app, accountCalls.deletionLosses, async ({ auth }) => ({ data: await app.accountEnding.losses(auth.userId) }));

  registerRoute(
    app,
    accountCalls.deleteAccount,
    async ({ auth, body }) => {
      const user = await userRow(auth.userId);
      const codes: Parameters<typeof withCodes>[0] = [];
      if (body.Password !== undefined) {
        if (!(await verifyPassword(body.Password, user.passwordHash))) throw new ApiError(ErrorCode.PasswordWrong, 'passwordWrong');
      } else if (body.Code !== undefined) {
        const channel = user.phone ? 'sms' : 'email';
        codes.push({ channel, target: ownContact(user, channel), purpose: 'account', code: body.Code });
        await checkCodes(codes);
      } else {
        throw new ApiError(ErrorCode.BadRequest, 'proofMissing');
      }
      // What lives at a provider ends first (an auto-renewal contract, which would go on charging); when that
      // cannot be done, nothing is deleted and the code stays usable for another try.
      await app.accountEnding.end(auth.userId);
      if (codes.length > 0) await withCodes(codes, async () => {});
      // Every session ends with the account, in the same transaction; the rows that hang from it (sessions, identities,
      // history) go with it, and so do the codes sent to its phone and address, so the number can register afresh at once.
      await sessions.revokeWith(auth.userId, null, async (tx) => {
        await tx.delete(users).where(eq(users.id, auth.userId));
        const contacts = [user.phone, user.email].filter((contact) => contact !== null);
        if (contacts.length > 0) await tx.delete(verificationCodes).where(inArray(verificationCodes.target, contacts));
      });
      userInfos.forget(auth.userId);
      await removeUnusedAvatars(Object.values(user.avatarUrl));
      return { data: null, messageKey: 'accountDeleted' as const };
    },
    checkLimit,
  );
}
