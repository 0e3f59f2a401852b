/**
 * The account's own code, which confirms what a session alone must not do
 * (set a first password, change the phone or the e-mail, delete the
 * account): sent to the user's phone, or to their e-mail without one; an
 * e-mail change also asks one of the current address. Every form of the
 * account centre sends it this way and says where it went.
 */
import { accountCalls } from '#contract/account.ts';
import type { UserInfo } from '#contract/identity.ts';
import type { Action } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';

export type OwnChannel = 'sms' | 'email';
export type OwnCodeKey = 'account.code.sent';

/** Where the account's code goes: the phone, else the e-mail; null for an account with neither (the server then asks for a phone first). */
export const ownChannel = (user: UserInfo | null): OwnChannel | null => (user?.Phone ? 'sms' : user?.Email ? 'email' : null);

/** The user's contact on `channel`, as the page shows it (the phone masked). */
export const contactOn = (user: UserInfo, channel: OwnChannel): string => (channel === 'sms' ? user.Phone : user.Email) ?? '';

/** Sends the account's code to the user's `channel` as one of the store's actions, which then says where it went; true once it is on its way. */
export async function sendOwnCode(
  env: Pick<CenterEnvironment, 'call' | '$user'>,
  action: Pick<Action<OwnCodeKey>, 'run'>,
  channel: OwnChannel | null,
): Promise<boolean> {
  const user = env.$user.get();
  if (!user || !channel) return false;
  const body = { Channel: channel };
  const sent = await action.run(() => env.call(accountCalls.sendOwnCode, { body }), 'account.code.sent', { contact: contactOn(user, channel) });
  return sent !== undefined;
}
