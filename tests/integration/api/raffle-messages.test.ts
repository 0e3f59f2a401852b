/**
 * Winners are told: the message of a win, queued once per winner however many draws and looks run at once, sent
 * through the job queue with a retry when the provider fails; the reminder only to the unclaimed, once; nothing to an
 * account that turned raffle messages off, nor for an instant raffle; the account's language and contact; the
 * operator's resend, audited; the counts the console shows. On PGlite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accountCalls } from '#contract/account.ts';
import { identity } from '#contract/identity.ts';
import type { RaffleWinnerCounts, RaffleWinnerEntry } from '#contract/admin.ts';
import { localeCodes } from '#contract/locales.ts';
import { raffleCalls, raffleRules, type LocalizedText, type Prize, type RaffleDefinition } from '#contract/raffle.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { rowsOf } from '../../../server/db/database.ts';
import { auditLog, raffleEntries, raffles, users as usersTable } from '../../../server/db/schema.ts';
import type { OutgoingMessage } from '../../../server/messages/kinds.ts';
import { MessengerError, type Messenger } from '../../../server/messages/messenger.ts';
import { createRaffle } from '../../../server/modules/raffle/definition.ts';
import { drawRaffle, drawsJob } from '../../../server/modules/raffle/draws.ts';
import { messageJob, queueDue, queueJob, sendQueued } from '../../../server/modules/raffle/winner-messages.ts';
import { loginBySms, sendSms } from './codes.ts';
import { eventually, loggedInUsers, runAdmin, startApp, type TestApp } from './harness.ts';

const operator = shellActor('ops@shop', null);
const minute = 60_000;
const day = 86_400_000;
const at = (fromNow: number) => new Date(Date.now() + fromNow).toISOString();
const everywhere = (text: string) => Object.fromEntries(localeCodes.map((locale) => [locale, `${text} (${locale})`])) as LocalizedText;
const walletPrize = (name: string, Quantity: number): Prize => ({ Name: everywhere(name), Quantity, Grant: { Kind: 'wallet', Amount: 100 } });

let t: TestApp;
/** Every message the app handed a provider, in order. */
let sent: OutgoingMessage[] = [];
/** Numbers and addresses whose next send fails, as a provider that did not answer. */
const failNext = new Set<string>();

/** Records each send, or fails it once for a number or address in `failNext`. */
function recording(messenger: Messenger): void {
  const send = messenger.send.bind(messenger);
  (messenger as { send: Messenger['send'] }).send = async (message) => {
    if (failNext.delete(message.to)) throw new MessengerError('sms', message.to, 'the provider did not answer', { refusal: 'unreachable' });
    sent.push(message);
    return send(message);
  };
}

beforeAll(async () => {
  t = await startApp();
  // Here the tests draw and queue, so a message is queued exactly when a test says; the queue's worker sends as in production.
  await t.app.jobs.offWork(drawsJob);
  await t.app.jobs.offWork(queueJob);
  recording(t.app.sms);
  recording(t.app.email);
});
afterAll(() => t.close());
beforeEach(() => {
  sent = [];
  failNext.clear();
});

let phoneSeq = 0;
/** `count` accounts with a phone each (and the row given), logged in. */
const winnersToBe = (count: number, row: (i: number) => Partial<typeof usersTable.$inferInsert> = () => ({})) =>
  loggedInUsers(t, count, (i) => ({ phone: `1393000${String(++phoneSeq).padStart(4, '0')}`, ...row(i) }));

const phoneOf = async (userId: number) => (await t.app.db.select({ phone: usersTable.phone }).from(usersTable).where(eq(usersTable.id, userId)))[0].phone!;

/** A registration raffle open for a day, whose one prize `prizes` of its entrants win. */
const registrationRaffle = (title: string, prizes: number): RaffleDefinition => ({
  Kind: 'registration',
  Title: everywhere(title),
  Description: everywhere('Register once.'),
  Prizes: [walletPrize('CN¥1 credit', prizes)],
  OpensAt: at(-day),
  ClosesAt: at(day),
  DrawAt: at(day + minute),
  PublicSource: everywhere('The next lottery draw'),
});

/** Made by the module, as the operators' command makes it, and entered by every one of `entrants`. */
async function entered(definition: RaffleDefinition, entrants: Array<{ token: string; userId: number }>): Promise<number> {
  const id = (await createRaffle(t.app.db, operator, definition, null)).id;
  for (const entrant of entrants) expect((await t.call(raffleCalls.registration, { token: entrant.token, params: { id } })).body.code).toBe(200);
  return id;
}

/** A registration raffle that every one of `entrants` enters and `prizes` of them win, drawn. */
async function drawn(entrants: Array<{ token: string; userId: number }>, prizes: number): Promise<number> {
  const id = await entered(registrationRaffle('Winter raffle', prizes), entrants);
  expect((await drawRaffle(t.app.db, operator, id, '01 02 03')).drawn).toBe(true);
  return id;
}

const to = (phones: string[]) => sent.filter((message) => phones.includes(message.to));
const entriesOf = (id: number) => t.app.db.select().from(raffleEntries).where(eq(raffleEntries.raffleId, id));
/** Waits until the queue has no job of the winners' messages left to do. */
const queueDrained = () =>
  eventually(
    async () =>
      rowsOf<{ left: number }>(await t.app.db.execute(sql`select count(*)::int as left from jobs.job where name = ${messageJob} and state < 'completed'`))[0]
        .left,
    (left) => left === 0,
    'the winners’ messages to be sent',
  );

type Shown = { winners: RaffleWinnerEntry[]; counts: RaffleWinnerCounts | null; refused: string | null };

describe('the message of a win', () => {
  it('goes to each of 50 winners exactly once, when the draw runs twice at once and two instances queue at once', async () => {
    const entrants = await winnersToBe(50);
    const phones = await Promise.all(entrants.map((entrant) => phoneOf(entrant.userId)));
    const id = await entered(registrationRaffle('Fifty prizes', 50), entrants);

    const draws = await Promise.all([drawRaffle(t.app.db, operator, id, '01 02 03'), drawRaffle(t.app.db, operator, id, '01 02 03')]);
    expect(draws.filter((outcome) => outcome.drawn)).toHaveLength(1);
    const queued = await Promise.all([queueDue(t.app.db, t.app.jobs), queueDue(t.app.db, t.app.jobs), queueDue(t.app.db, t.app.jobs)]);
    expect(queued.reduce((sum, count) => sum + count, 0)).toBe(50);

    await eventually(
      async () => to(phones).length,
      (count) => count >= 50,
      '50 messages',
    );
    await queueDrained();
    expect(await queueDue(t.app.db, t.app.jobs)).toBe(0);
    const messages = to(phones);
    expect(messages).toHaveLength(50);
    expect(new Set(messages.map((message) => message.to)).size).toBe(50);
    expect(messages.every((message) => message.kind === 'raffleWon')).toBe(true);
    expect((await entriesOf(id)).every((entry) => entry.toldAt !== null)).toBe(true);

    const shown = await runAdmin<Shown>(t, 'raffle', 'show', String(id));
    expect(shown.data.counts).toEqual({ winners: 50, told: 50, reminded: 0, claimed: 0 });
  });

  it('is sent again after the provider failed the first try, once, without holding up the others', async () => {
    const entrants = await winnersToBe(5);
    const phones = await Promise.all(entrants.map((entrant) => phoneOf(entrant.userId)));
    const id = await drawn(entrants, 5);
    failNext.add(phones[2]);
    expect(await queueDue(t.app.db, t.app.jobs)).toBe(5);

    // The others go out at once; the failed one waits for its retry, which the test brings forward from a minute.
    await eventually(
      async () => to(phones).length,
      (count) => count === 4,
      'the four that did not fail',
    );
    expect(failNext.size).toBe(0);
    await eventually(
      async () =>
        rowsOf<{ retrying: number }>(
          await t.app.db.execute(sql`select count(*)::int as retrying from jobs.job where name = ${messageJob} and state = 'retry'`),
        )[0].retrying,
      (retrying) => retrying > 0,
      'the failed batch to wait for its retry',
    );
    await t.app.db.execute(sql`update jobs.job set start_after = now() where name = ${messageJob} and state = 'retry'`);
    await eventually(
      async () => to(phones).length,
      (count) => count === 5,
      'the retried message',
    );
    await queueDrained();
    expect(to(phones)).toHaveLength(5);
    expect(new Set(to(phones).map((message) => message.to))).toEqual(new Set(phones));
    expect((await entriesOf(id)).filter((entry) => entry.prize !== null).every((entry) => entry.toldAt !== null)).toBe(true);
  });

  it('names the raffle, the prize, the deadline and the page to claim on, in the account’s language; by e-mail without a phone', async () => {
    const [byPhone] = await winnersToBe(1, () => ({ locale: 'ja' }));
    const [byEmail] = await loggedInUsers(t, 1, () => ({ email: `winner-${Date.now()}@example.com`, locale: 'ru' }));
    const id = await drawn([byPhone, byEmail], 2);
    const [raffle] = await t.app.db.select().from(raffles).where(eq(raffles.id, id));
    const deadline = new Date(raffle.drawnAt!.getTime() + raffleRules.claimWindowMs);
    expect(await queueDue(t.app.db, t.app.jobs)).toBe(2);
    await eventually(
      async () => sent.length,
      (count) => count === 2,
      'both messages',
    );

    const sms = sent.find((message) => message.locale === 'ja')!;
    expect(sms).toMatchObject({ kind: 'raffleWon', locale: 'ja', to: await phoneOf(byPhone.userId) });
    expect(sms.params).toMatchObject({ raffle: 'Winter raffle (ja)', prize: 'CN¥1 credit (ja)' });
    expect((sms.params as Record<string, string>).link).toMatch(new RegExp(`/ja/raffle\\?id=${id}$`));
    expect((sms.params as Record<string, string>).deadline).toContain(String(deadline.getUTCFullYear()));
    const text = t.app.sms.outbox!.find((entry) => entry.to === sms.to)!.text;
    expect(text).toContain('Winter raffle (ja)');

    const mail = sent.find((message) => message.locale === 'ru')!;
    expect(mail).toMatchObject({ kind: 'raffleWon', to: expect.stringContaining('@example.com') });
    const kept = t.app.email.outbox!.find((entry) => entry.to === mail.to)!;
    expect(kept.text).toContain('Winter raffle (ru)');
    expect(kept.subject).toBeTruthy();
  });

  it('is not sent to an account that turned raffle messages off, nor queued for an instant raffle', async () => {
    const entrants = await winnersToBe(3);
    const phones = await Promise.all(entrants.map((entrant) => phoneOf(entrant.userId)));
    const off = await t.call(accountCalls.setMessageChoices, { token: entrants[1].token, body: { RaffleMessages: false } });
    expect(off.body.data).toEqual({ RaffleMessages: false });
    expect((await t.call(accountCalls.messageChoices, { token: entrants[1].token })).body.data).toEqual({ RaffleMessages: false });
    expect((await t.call(accountCalls.messageChoices, { token: entrants[0].token })).body.data).toEqual({ RaffleMessages: true });

    const id = await drawn(entrants, 3);
    expect(await queueDue(t.app.db, t.app.jobs)).toBe(3);
    await queueDrained();
    expect(
      to(phones)
        .map((message) => message.to)
        .sort(),
    ).toEqual([phones[0], phones[2]].sort());
    const shown = await runAdmin<Shown>(t, 'raffle', 'show', String(id));
    expect(shown.data.counts).toEqual({ winners: 3, told: 2, reminded: 0, claimed: 0 });

    const instant = await createRaffle(
      t.app.db,
      operator,
      {
        Kind: 'instant',
        Title: everywhere('Instant'),
        Description: everywhere('Draw at once.'),
        Prizes: [walletPrize('CN¥1', 10)],
        OpensAt: at(-day),
        ClosesAt: at(day),
        Odds: 1_000_000,
        PerUserLimit: 1,
      },
      null,
    );
    const won = await t.call(raffleCalls.forthwithRaffle, { token: entrants[0].token, params: { id: instant.id }, body: { ClientSeed: 'seed' } });
    expect(won.body.code).toBe(200);
    expect(await queueDue(t.app.db, t.app.jobs)).toBe(0);
  });
});

describe('the reminder', () => {
  /** Moves the raffle's draw back so that its claim window closes in less than the reminder's lead. */
  const intoReminderTime = (id: number) =>
    t.app.db
      .update(raffles)
      .set({ drawnAt: new Date(Date.now() - raffleRules.claimWindowMs + raffleRules.claimReminderBeforeMs - minute) })
      .where(eq(raffles.id, id));

  it('goes once, only to the winners who have not claimed', async () => {
    const entrants = await winnersToBe(3);
    const phones = await Promise.all(entrants.map((entrant) => phoneOf(entrant.userId)));
    const id = await drawn(entrants, 3);
    expect(await queueDue(t.app.db, t.app.jobs)).toBe(3);
    await queueDrained();
    expect(await queueDue(t.app.db, t.app.jobs)).toBe(0);

    expect((await t.call(raffleCalls.claim, { token: entrants[0].token, params: { id } })).body.code).toBe(200);
    await intoReminderTime(id);
    const looks = await Promise.all([queueDue(t.app.db, t.app.jobs), queueDue(t.app.db, t.app.jobs)]);
    expect(looks[0] + looks[1]).toBe(2);
    await queueDrained();
    expect(await queueDue(t.app.db, t.app.jobs)).toBe(0);

    const reminders = sent.filter((message) => message.kind === 'raffleReminder');
    expect(reminders.map((message) => message.to).sort()).toEqual([phones[1], phones[2]].sort());
    const shown = await runAdmin<Shown>(t, 'raffle', 'show', String(id));
    expect(shown.data.counts).toEqual({ winners: 3, told: 3, reminded: 2, claimed: 1 });
  });

  it('is not sent after a win told that late: the message of the win names the deadline', async () => {
    const entrants = await winnersToBe(1);
    const id = await drawn(entrants, 1);
    await intoReminderTime(id);
    expect(await queueDue(t.app.db, t.app.jobs)).toBe(1);
    await queueDrained();
    expect(await queueDue(t.app.db, t.app.jobs)).toBe(0);
    expect(sent.map((message) => message.kind)).toEqual(['raffleWon']);
  });

  it('is not sent for a prize claimed after it was queued', async () => {
    const entrants = await winnersToBe(1);
    const id = await drawn(entrants, 1);
    const [entry] = await entriesOf(id);
    // As the minute's look leaves it: told, the reminder queued; then the winner claims before the job runs.
    await t.app.db
      .update(raffleEntries)
      .set({ wonQueuedAt: new Date(), toldAt: new Date(), reminderQueuedAt: new Date() })
      .where(eq(raffleEntries.raffleId, id));
    await intoReminderTime(id);
    expect((await t.call(raffleCalls.claim, { token: entrants[0].token, params: { id } })).body.code).toBe(200);
    expect(await sendQueued(t.app, { raffleId: id, number: entry.number, kind: 'reminder' })).toBe('not wanted');
    expect(sent).toEqual([]);
  });
});

describe('an operator’s resend', () => {
  it('sends the message of the win again and audits it; refuses a number that did not win and an account that turned messages off', async () => {
    const entrants = await winnersToBe(2);
    const phones = await Promise.all(entrants.map((entrant) => phoneOf(entrant.userId)));
    const id = await drawn(entrants, 2);
    const [first, second] = await t.app.db.select().from(raffleEntries).where(eq(raffleEntries.raffleId, id)).orderBy(raffleEntries.number);

    const resent = await runAdmin<Shown>(t, 'raffle', 'resend', String(id), String(first.number));
    expect(resent.data.refused).toBeNull();
    expect(sent.map((message) => [message.to, message.kind])).toEqual([[phones[0], 'raffleWon']]);
    expect(resent.data.winners.find((winner) => winner.number === first.number)!.toldAt).not.toBeNull();
    const audited = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'raffle resend'), eq(auditLog.target, `raffle ${id}`)));
    expect(audited).toHaveLength(1);

    const notWinner = await runAdmin<Shown>(t, 'raffle', 'resend', String(id), '999');
    expect(notWinner.data.refused).toContain('999');

    await t.app.db.update(usersTable).set({ raffleMessages: false }).where(eq(usersTable.id, second.userId!));
    const off = await runAdmin<Shown>(t, 'raffle', 'resend', String(id), String(second.number));
    expect(off.data.refused).toMatch(/turned raffle messages off/);
    expect(sent).toHaveLength(1);
  });
});

describe('the account’s language', () => {
  it('is the one it last signed in with', async () => {
    const phone = '13930099999';
    const login = await loginBySms(t, phone, 'locale-device');
    const localeOf = async () => (await t.app.db.select({ locale: usersTable.locale }).from(usersTable).where(eq(usersTable.id, login.User.Id)))[0].locale;
    // The harness calls in English unless told otherwise.
    expect(await localeOf()).toBe('en');
    const Code = await sendSms(t, phone);
    const again = await t.call(identity.loginOrRegister, { body: { Phone: phone, Code, DeviceId: 'locale-device-2' }, locale: 'ru' });
    expect(again.body.data.User.Id).toBe(login.User.Id);
    expect(await localeOf()).toBe('ru');
    // A sign-in that names no language (a client sending no Accept-Language) leaves it as it is.
    const silent = await t.call(identity.loginOrRegister, { body: { Phone: phone, Code: await sendSms(t, phone), DeviceId: 'locale-device-3' }, locale: '' });
    expect(silent.body.data.User.Id).toBe(login.User.Id);
    expect(await localeOf()).toBe('ru');
  });
});
