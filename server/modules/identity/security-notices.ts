/**
 * Security notices: after a change that could hand the account to someone
 * else (a password, the phone, the e-mail), the owner is told at the contact
 * the account had before it — by SMS to the phone, else by e-mail; an e-mail
 * change also tells the old address. A notice never undoes or blocks the
 * change: one that cannot be sent is logged.
 */
import type { FastifyInstance } from 'fastify';
import type { LocaleCode } from '#contract/locales.ts';
import type { Channel } from '../../messages/messenger.ts';
import { timeInMessage } from '../../messages/render.ts';

export type SecurityChange = 'passwordSet' | 'passwordChanged' | 'phoneChanged' | 'emailChanged';

/** The account's contacts before the change. */
export interface Contacts {
  phone: string | null;
  email: string | null;
}

/** Where the notice of `change` goes: the phone (else the e-mail) the account had, and for an e-mail change the old address too. */
function noticeTargets(before: Contacts, change: SecurityChange): Array<{ channel: Channel; to: string }> {
  const targets: Array<{ channel: Channel; to: string }> = [];
  if (before.phone) targets.push({ channel: 'sms', to: before.phone });
  if (before.email && (!before.phone || change === 'emailChanged')) targets.push({ channel: 'email', to: before.email });
  return targets;
}

/** Tells the owner of `change`, in `locale` (the language of the request that made it); returns once every send has been tried. */
export async function tellOwner(app: FastifyInstance, before: Contacts, change: SecurityChange, locale: LocaleCode, at = new Date()): Promise<void> {
  const params = { time: timeInMessage(at, locale) };
  await Promise.all(
    noticeTargets(before, change).map(({ channel, to }) =>
      app[channel].send({ to, kind: change, params, locale }).catch((error: unknown) => {
        app.log.error({ err: error, channel, change }, 'a security notice could not be sent');
      }),
    ),
  );
}
