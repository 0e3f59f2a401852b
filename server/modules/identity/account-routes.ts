/** The account-centre calls (contract/account.ts): they change what identity knows of a user, so they live beside it. */
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { accountCalls, nicknameProblem } from '#contract/account.ts';
import { ErrorCode } from '#contract/errors.ts';
import { sitePageUrl } from '../../config.ts';
import { committingRefusals, refused } from '../../db/committing-refusals.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Transaction } from '../../db/database.ts';
import { users, verificationCodes } from '../../db/schema/identity.ts';
import { ApiError, unauthorized } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';
import { StorageError, type FileStore } from '../../services/file-store.ts';
import { contactOf } from '../../messages/messenger.ts';
import { renderAvatar } from './avatars.ts';
import { codeSendLimit, consumeCode, sendCode, type CodePurpose } from './codes.ts';
import { createEmailLink, linkOwner, linkRefusal, useLink } from './email-links.ts';
import { loginHistory } from './login-history.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { tellOwner } from './security-notices.ts';
import type { SessionStore } from './sessions.ts';
import type { UserInfoStore } from './users.ts';

type UserRow = typeof users.$inferSelect;
/** A code the request gives, and where and for what it was sent. */
type CodeProof = { channel: 'sms' | 'email'; target: string; purpose: CodePurpose; code: string | undefined };

export function accountRoutes(app: FastifyInstance, sessions: SessionStore, userInfos: UserInfoStore, avatars: FileStore): void {
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

  /**
   * Removes avatar files no user shows any more (names are content hashes, so two users may share one). It tidies up
   * after a change that stands: a storage that cannot remove one now leaves a file no one shows, which is logged.
   */
  async function removeUnusedAvatars(names: string[]): Promise<void> {
    for (const name of names) {
      const [inUse] = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`exists (select 1 from jsonb_each_text(${users.avatarUrl}) where value = ${name})`)
        .limit(1);
      if (!inUse)
        await avatars.remove(name).catch((error: unknown) => app.log.warn({ err: error, file: name }, 'could not remove an avatar file no one shows'));
    }
  }

  /** Stores every file of an avatar, or none: when the storage refuses one, the others it took that no one shows are removed. */
  async function storeAvatar(files: Array<{ name: string; bytes: Buffer }>): Promise<void> {
    const outcomes = await Promise.allSettled(files.map((file) => avatars.put(file.name, file.bytes)));
    const refusal = outcomes.find((outcome) => outcome.status === 'rejected');
    if (!refusal) return;
    if (refusal.reason instanceof StorageError) await removeUnusedAvatars(files.filter((_, i) => outcomes[i].status === 'fulfilled').map((file) => file.name));
    throw refusal.reason;
  }

  /** The user's own phone (sms) or e-mail, or a clear error when the account has none. */
  function ownContact(user: UserRow, channel: 'sms' | 'email'): string {
    const contact = channel === 'sms' ? user.phone : user.email;
    if (!contact) throw new ApiError(ErrorCode.ContactMissing, channel === 'sms' ? 'phoneMissing' : 'emailMissing');
    return contact;
  }

  /**
   * The account code that proves the owner asks for a change a session alone must not make (a first password, the
   * phone, the e-mail, a deletion): the code sent to the phone, or to the e-mail of an account without one. An account
   * with neither has no second channel, so it is asked to bind a phone first.
   */
  function accountProof(user: UserRow, code: string | undefined): CodeProof {
    const contact = contactOf(user);
    if (!contact) throw new ApiError(ErrorCode.ContactMissing, 'phoneFirst');
    return { ...contact, purpose: 'account', code };
  }

  /**
   * Uses up the codes inside `tx`, in order: the first refusal, or null when every one was right. A missing code is
   * refused before any is tried; a wrong one counts its failed try once the caller commits.
   */
  async function useCodes(tx: Transaction, proofs: CodeProof[]): Promise<ApiError | null> {
    if (proofs.some((proof) => proof.code === undefined)) return new ApiError(ErrorCode.CodeInvalid, 'codeInvalid');
    for (const proof of proofs) {
      const result = await consumeCode(tx, keys.secret, proof.channel, proof.target, proof.purpose, proof.code!);
      if (!result.ok) return result.error;
    }
    return null;
  }

  /**
   * Checks codes inside one transaction and then runs `change`; a wrong code
   * commits its failed try and changes nothing else.
   */
  function withCodes<T>(proofs: CodeProof[], change: (tx: Transaction) => Promise<T>): Promise<T> {
    return committingRefusals(db, async (tx) => {
      const refusal = await useCodes(tx, proofs);
      return refusal ? refused(refusal) : { ok: true, value: await change(tx) };
    });
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
      // Stored before the row names them, so no row ever names a file that is not there.
      await storeAvatar(files);
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
    codeSendLimit(perMinute),
  );

  registerRoute(
    app,
    accountCalls.changePhone,
    async ({ auth, body, request }) => {
      const user = await userRow(auth.userId);
      if (user.phone === body.Phone) throw new ApiError(ErrorCode.BadRequest, 'phoneUnchanged');
      // The new number's code is a login code (anyone may ask one for any number); changing a number needs the
      // account's own code too (the old number's, or the e-mail's), so a stolen session alone cannot move the account.
      // An account with neither binds its first phone with the new number's code alone, as quick login's phone step
      // does: it has nothing else to prove with.
      const proofs: CodeProof[] = [{ channel: 'sms', target: body.Phone, purpose: 'login', code: body.Code }];
      if (user.phone || user.email) proofs.unshift(accountProof(user, body.OldCode));
      let revoked: number;
      try {
        ({ revoked } = await sessions.revokeWith(
          auth.userId,
          auth.sessionId,
          (tx) => tx.update(users).set({ phone: body.Phone }).where(eq(users.id, auth.userId)),
          {
            check: (tx) => useCodes(tx, proofs),
          },
        ));
      } catch (error) {
        // The number is another account's, or two accounts raced for it: the unique phone decides, and the codes stay unused.
        if (isUniqueViolation(error)) throw new ApiError(ErrorCode.PhoneTaken, 'phoneTaken');
        throw error;
      }
      await tellOwner(app, user, 'phoneChanged', request.locale);
      const { data: User, messageKey } = await changed(auth.userId);
      return { data: { User, Revoked: revoked }, messageKey };
    },
    checkLimit,
  );

  registerRoute(
    app,
    accountCalls.bindEmail,
    async ({ auth, body, request }) => {
      const user = await userRow(auth.userId);
      const [holder] = await db.select({ id: users.id }).from(users).where(eq(users.email, body.Email));
      if (holder && holder.id !== auth.userId) throw new ApiError(ErrorCode.EmailTaken, 'emailTaken');
      // The account's own code proves the owner asks, and the current address proves itself too: neither a stolen
      // session nor one holding only the phone replaces the address. The codes are used up as the link is made.
      const proofs = [accountProof(user, body.Code)];
      if (user.phone && user.email) proofs.push({ channel: 'email', target: user.email, purpose: 'account', code: body.OldEmailCode });
      // The link is sent before its transaction commits: an e-mail the gateway does not take leaves no link and the
      // codes unused, to ask again with. (The codes bound who may wait here: it cannot be used to hold connections.)
      await withCodes(proofs, async (tx) => {
        const token = await createEmailLink(tx, auth.userId, body.Email);
        const link = sitePageUrl(app.config, request.locale, `/verification/email/confirm?token=${token}`);
        await app.email.send({ to: body.Email, kind: 'emailLink', params: { email: body.Email, link }, locale: request.locale });
      });
      return { data: null, messageKey: 'emailLinkSent' as const, messageParams: { email: body.Email } };
    },
    sendLimit,
  );

  registerRoute(
    app,
    accountCalls.confirmEmail,
    async ({ auth, body, request }) => {
      const userId = await linkOwner(db, body.Token);
      if (userId === null) throw new ApiError(ErrorCode.LinkInvalid, 'linkInvalid');
      // Every other session ends with the change; the browser opening the link keeps its own when it is logged in to
      // this account (the link does not know which session asked for it).
      const keep = auth?.userId === userId ? auth.sessionId : null;
      let opened: Awaited<ReturnType<typeof useLink>>;
      let revoked: number;
      try {
        ({ result: opened, revoked } = await sessions.revokeWith(userId, keep, (tx) => useLink(tx, body.Token), {
          check: (tx) => linkRefusal(tx, body.Token),
        }));
      } catch (error) {
        // The address is another account's: nothing changed, and the link stays unused.
        if (isUniqueViolation(error)) throw new ApiError(ErrorCode.EmailTaken, 'emailTaken');
        throw error;
      }
      await userInfos.reload(userId);
      await tellOwner(app, opened.before, 'emailChanged', request.locale);
      return { data: { Email: opened.email, Revoked: revoked }, messageKey: 'emailConfirmed' as const };
    },
    checkLimit,
  );

  registerRoute(
    app,
    accountCalls.setPassword,
    async ({ auth, body, request }) => {
      const user = await userRow(auth.userId);
      // A password is changed with the current one; a first one needs the account's code, since whoever holds a
      // session could otherwise set one and keep the account with it.
      const proofs = user.passwordHash ? [] : [accountProof(user, body.Code)];
      if (user.passwordHash && !(await verifyPassword(body.Current ?? '', user.passwordHash))) throw new ApiError(ErrorCode.PasswordWrong, 'passwordWrong');
      const passwordHash = await hashPassword(body.Password);
      const { revoked } = await sessions.revokeWith(
        auth.userId,
        auth.sessionId,
        async (tx) => {
          await tx.update(users).set({ passwordHash }).where(eq(users.id, auth.userId));
        },
        { check: (tx) => useCodes(tx, proofs) },
      );
      await userInfos.reload(auth.userId);
      await tellOwner(app, user, user.passwordHash ? 'passwordChanged' : 'passwordSet', request.locale);
      return { data: { Revoked: revoked }, messageKey: 'passwordChanged' as const };
    },
    checkLimit,
  );

  registerRoute(app, accountCalls.revokeSession, async ({ auth, params }) => {
    if (!(await sessions.revokeOwn(auth, params.id))) throw new ApiError(ErrorCode.NotFound, 'sessionNotFound');
    return { data: null, messageKey: 'signedOut' as const };
  });

  registerRoute(app, accountCalls.loginHistory, async ({ auth }) => ({ data: await loginHistory(db, auth.userId) }));

  registerRoute(app, accountCalls.messageChoices, async ({ auth }) => {
    const [row] = await db.select({ RaffleMessages: users.raffleMessages }).from(users).where(eq(users.id, auth.userId));
    if (!row) throw unauthorized();
    return { data: row };
  });

  registerRoute(app, accountCalls.setMessageChoices, async ({ auth, body }) => {
    const [row] = await db
      .update(users)
      .set({ raffleMessages: body.RaffleMessages })
      .where(eq(users.id, auth.userId))
      .returning({ RaffleMessages: users.raffleMessages });
    if (!row) throw unauthorized();
    return { data: row, messageKey: 'saved' as const };
  });

  /** Checks codes without using them up (a right one stays usable); a wrong one still counts its failed try. */
  async function checkCodes(checks: CodeProof[]): Promise<void> {
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
      const codes: CodeProof[] = [];
      if (body.Password !== undefined) {
        if (!(await verifyPassword(body.Password, user.passwordHash))) throw new ApiError(ErrorCode.PasswordWrong, 'passwordWrong');
      } else if (body.Code !== undefined) {
        codes.push(accountProof(user, body.Code));
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
