/**
 * The account's own codes for other modules (`app.accountCodes`): where a
 * code that proves the account's phone goes, and checking one — an `account`
 * code to the phone, or to the e-mail of an account without a phone, as
 * `accountCalls.sendOwnCode` sends it.
 */
import { eq } from 'drizzle-orm';
import { ErrorCode } from '#contract/errors.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { users } from '../../db/schema/identity.ts';
import { ApiError } from '../../http/api-error.ts';
import type { AccountCodes } from '../../http/auth.ts';
import { consumeCode } from './codes.ts';
import { contactOf } from '../../messages/messenger.ts';
import { maskPhone } from './users.ts';

export function accountCodes(db: Database, secret: Buffer): AccountCodes {
  const contact = async (tx: Database | Transaction, userId: number) => {
    const [user] = await tx.select({ phone: users.phone, email: users.email }).from(users).where(eq(users.id, userId));
    return user ? contactOf(user) : null;
  };
  return {
    async destination(userId) {
      const found = await contact(db, userId);
      return found && { channel: found.channel, shown: found.channel === 'sms' ? maskPhone(found.target) : found.target };
    },
    async consume(tx, userId, code) {
      const found = await contact(tx, userId);
      if (!found) return { ok: false, error: new ApiError(ErrorCode.ContactMissing, 'phoneMissing') };
      return consumeCode(tx, secret, found.channel, found.target, 'account', code);
    },
  };
}
