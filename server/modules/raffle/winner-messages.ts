/**
 * Telling a registration raffle's winners: a message of the win after the draw, and a reminder
 * `raffle.claimReminderBefore` before the claim window closes while the prize is unclaimed. Each goes by SMS to the
 * account's phone, or by e-mail to an account without one, in the account's language, and only while the account
 * keeps raffle messages on (account centre). Instant raffles send none: their winner is on the page.
 *
 * Every minute one instance looks for what is due (`queueDue`) and queues one job per message, marking the entry
 * in the same transaction; rows another instance is marking are skipped, so each message is queued once however
 * many instances look, and whether the draw was made by a server, the schedule or the CLI. A job that cannot send
 * is tried again with back-off (pg-boss); an entry marks when its message went out, so a retried job does not send twice.
 */
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { LocaleCode } from '#contract/locales.ts';
import { raffleRules } from '#contract/raffle.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import { rowsOf, type Database } from '../../db/database.ts';
import { inTransaction, type Jobs } from '../../db/jobs.ts';
import { users } from '../../db/schema/identity.ts';
import { raffleEntries, raffles } from '../../db/schema/raffle.ts';
import { sitePageUrl } from '../../config.ts';
import type { OutgoingMessage } from '../../messages/kinds.ts';
import { contactOf, MessengerError, type Channel } from '../../messages/messenger.ts';
import { timeInMessage } from '../../messages/render.ts';

/** Every minute: queues the winners' messages that are due. */
export const queueJob = 'raffle-winner-messages';
/** One message to one winner (`WinnerMessage`). */
export const messageJob = 'raffle-winner-message';

export type WinnerMessageKind = 'won' | 'reminder';
export interface WinnerMessage {
  raffleId: number;
  number: number;
  kind: WinnerMessageKind;
}

/** What sending needs: the database, the providers, where the site is, and the log. */
export type Messaging = Pick<FastifyInstance, 'db' | 'sms' | 'email' | 'config' | 'log'>;

const claimWindow = sql.raw(`make_interval(secs => ${raffleRules.claimWindowMs / 1000})`);
const reminderBefore = sql.raw(`make_interval(secs => ${raffleRules.claimReminderBeforeMs / 1000})`);

/**
 * Queues the messages that are due: the win of each prize not yet told, and the reminder of each unclaimed prize
 * whose window closes within `claimReminderBefore`, for raffles drawn within the claim window. A win told that late
 * already names the deadline, so it stands for the reminder too. Returns how many were queued.
 */
export async function queueDue(db: Database, jobs: Jobs): Promise<number> {
  return db.transaction(async (tx) => {
    const due = rowsOf<{ raffle_id: number; number: number; kind: WinnerMessageKind }>(
      await tx.execute(sql`
        with due as (
          select e.raffle_id, e.number,
            case when e.won_queued_at is null then 'won' else 'reminder' end as kind,
            r.drawn_at + ${claimWindow} - ${reminderBefore} <= now() as reminder_time
          from raffle_entries e join raffles r on r.id = e.raffle_id
          where e.prize is not null and e.claimed_at is null and e.reminder_queued_at is null and e.user_id is not null
            and r.kind = 'registration' and r.drawn_at + ${claimWindow} > now()
            and (e.won_queued_at is null or r.drawn_at + ${claimWindow} - ${reminderBefore} <= now())
          for update of e skip locked
        )
        update raffle_entries e
        set won_queued_at = coalesce(e.won_queued_at, now()),
            reminder_queued_at = case when due.reminder_time then now() end
        from due
        where e.raffle_id = due.raffle_id and e.number = due.number
        returning e.raffle_id, e.number, due.kind`),
    );
    if (due.length > 0) {
      const data = due.map(({ raffle_id, number, kind }): WinnerMessage => ({ raffleId: raffle_id, number, kind }));
      await jobs.insert(
        messageJob,
        data.map((message) => ({ data: message })),
        inTransaction(tx),
      );
    }
    return due.length;
  });
}

/** A winner as a message needs them: the prize and raffle, and the account's contacts, language and choice. */
async function winnerOf(db: Database, raffleId: number, number: number) {
  const [row] = await db
    .select({
      title: raffles.title,
      prizes: raffles.prizes,
      drawnAt: raffles.drawnAt,
      prize: raffleEntries.prize,
      claimedAt: raffleEntries.claimedAt,
      toldAt: raffleEntries.toldAt,
      remindedAt: raffleEntries.remindedAt,
      phone: users.phone,
      email: users.email,
      locale: users.locale,
      raffleMessages: users.raffleMessages,
    })
    .from(raffleEntries)
    .innerJoin(raffles, eq(raffles.id, raffleEntries.raffleId))
    .innerJoin(users, eq(users.id, raffleEntries.userId))
    .where(and(eq(raffleEntries.raffleId, raffleId), eq(raffleEntries.number, number), isNotNull(raffleEntries.prize), isNotNull(raffles.drawnAt)));
  return row ?? null;
}
type Winner = NonNullable<Awaited<ReturnType<typeof winnerOf>>>;

/** The message of `kind` to `winner`, in the account's language: the raffle, the prize, the deadline and the page to claim on. */
function messageTo(app: Messaging, winner: Winner, raffleId: number, kind: WinnerMessageKind, to: string): OutgoingMessage {
  const locale: LocaleCode = winner.locale;
  const params = {
    raffle: winner.title[locale],
    prize: winner.prizes[winner.prize!]?.Name[locale] ?? '',
    deadline: timeInMessage(new Date(winner.drawnAt!.getTime() + raffleRules.claimWindowMs), locale),
    link: sitePageUrl(app.config, locale, `/raffle?id=${raffleId}`),
  };
  return { to, locale, params, kind: kind === 'won' ? 'raffleWon' : 'raffleReminder' };
}

/**
 * Sends one queued message, unless it is no longer wanted: already sent, the prize claimed (a reminder), the
 * account deleted, without a contact, or with raffle messages turned off. Throws when the provider did not take
 * it, for the job to be tried again; a number or address the provider says can take no message is not tried again.
 */
export async function sendQueued(app: Messaging, { raffleId, number, kind }: WinnerMessage): Promise<'sent' | 'not wanted'> {
  const winner = await winnerOf(app.db, raffleId, number);
  if (!winner || !winner.raffleMessages) return 'not wanted';
  if (kind === 'won' ? winner.toldAt !== null : winner.remindedAt !== null || winner.claimedAt !== null) return 'not wanted';
  const contact = contactOf(winner);
  if (!contact) return 'not wanted';
  try {
    await app[contact.channel].send(messageTo(app, winner, raffleId, kind, contact.target));
  } catch (error) {
    if (error instanceof MessengerError && error.refusal === 'recipientInvalid') {
      app.log.warn({ err: error, raffle: raffleId, number }, 'a raffle winner’s contact cannot take a message');
      return 'not wanted';
    }
    throw error;
  }
  await app.db
    .update(raffleEntries)
    .set(kind === 'won' ? { toldAt: sql`now()` } : { remindedAt: sql`now()` })
    .where(and(eq(raffleEntries.raffleId, raffleId), eq(raffleEntries.number, number)));
  return 'sent';
}

/** Why an operator's resend sent nothing. */
export type ResendRefusal = 'not a winner' | 'claimed' | 'turned off' | 'no contact' | 'not sent';

/**
 * An operator sends a winner the message of their win again, now, unless the prize is claimed or the account turned
 * the messages off; the send and the operator are audited together once the provider took it.
 */
export async function resend(
  app: Messaging,
  actor: Actor,
  raffleId: number,
  number: number,
): Promise<{ sent: Channel } | { refused: ResendRefusal; why?: string }> {
  const winner = await winnerOf(app.db, raffleId, number);
  if (!winner) return { refused: 'not a winner' };
  if (winner.claimedAt) return { refused: 'claimed' };
  if (!winner.raffleMessages) return { refused: 'turned off' };
  const contact = contactOf(winner);
  if (!contact) return { refused: 'no contact' };
  try {
    await app[contact.channel].send(messageTo(app, winner, raffleId, 'won', contact.target));
  } catch (error) {
    if (error instanceof MessengerError) return { refused: 'not sent', why: error.refusal };
    throw error;
  }
  await app.db.transaction(async (tx) => {
    await tx
      .update(raffleEntries)
      .set({ toldAt: sql`now()` })
      .where(and(eq(raffleEntries.raffleId, raffleId), eq(raffleEntries.number, number)));
    await recordAudit(tx, actor, {
      action: 'raffle resend',
      target: `raffle ${raffleId}`,
      before: { number, toldAt: winner.toldAt },
      after: { number, channel: contact.channel },
    });
  });
  return { sent: contact.channel };
}

/** How many of a raffle's winners were told, reminded and claimed. */
export async function messageCounts(db: Database, raffleId: number) {
  const [counts] = await db
    .select({
      winners: count(),
      told: count(raffleEntries.toldAt),
      reminded: count(raffleEntries.remindedAt),
      claimed: count(raffleEntries.claimedAt),
    })
    .from(raffleEntries)
    .where(and(eq(raffleEntries.raffleId, raffleId), isNotNull(raffleEntries.prize)));
  return counts;
}
