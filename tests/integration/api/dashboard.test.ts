/**
 * The console's dashboard (`dashboard 7|30|90`): each day's figures are the database's sums over known rows — orders
 * and the money each method took, the paid share, refunds, new accounts, code messages each provider sent or refused,
 * raffle registrations — counted by Beijing day (a moment at 23:59 and one at 00:01 Beijing time fall on two days);
 * a period it does not show is refused; a customer without a console session is refused; a code send is noted with
 * its provider, and a provider's refusal as refused.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseWords, UsageError } from '#contract/command.ts';
import { dashboardCommands } from '#contract/commands/dashboard.ts';
import { operatorCommands } from '#contract/commands.ts';
import type { OrderItem } from '#contract/commerce.ts';
import { consoleCalls } from '#contract/console.ts';
import { ErrorCode } from '#contract/errors.ts';
import { identity } from '#contract/identity.ts';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import { runCommand } from '../../../server/admin-command.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { codeSends, orders, payments, raffleEntries, raffles, refunds, users } from '../../../server/db/schema.ts';
import { MessengerError } from '../../../server/messages/messenger.ts';
import { dashboardSeries, periodDays } from '../../../server/modules/dashboard/figures.ts';
import { loginBySms } from './codes.ts';
import { startApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const inEveryLanguage = (text: string) => Object.fromEntries(localeCodes.map((code) => [code, text])) as Record<LocaleCode, string>;
const caller = { actor: shellActor('root@shop', null), locale: 'en' as const, attachment: null };

/** "Now" for the known rows: 2026-03-10 20:00 in Beijing. */
const now = new Date('2026-03-10T12:00:00Z');
/** A Beijing wall-clock time on a day of March 2026, as the moment it is. */
const beijing = (day: number, time: string) => new Date(`2026-03-${String(day).padStart(2, '0')}T${time}+08:00`);

const item: OrderItem = { Kind: 'membership', Product: 'month', Months: 1, Amount: null, Currency: null, RatePpm: null, SteamId: null };
let orderSeq = 0;

/** An order made at `at`, paid (by `method`, `price` fen, a minute later) or not. */
async function order(at: Date, price: number, paidWith: 'wechatpay' | 'alipay' | 'wallet' | null) {
  const [row] = await t.app.db
    .insert(orders)
    .values({
      key: `2026031000000000${String(++orderSeq).padStart(4, '0')}`,
      product: 'month',
      item,
      price,
      state: paidWith ? 'fulfilled' : 'closed',
      method: paidWith,
      expiresAt: new Date(at.getTime() + 900_000),
      createdAt: at,
    })
    .returning({ id: orders.id });
  if (paidWith)
    await t.app.db
      .insert(payments)
      .values({ orderId: row.id, method: paidWith, reference: `tx-${orderSeq}`, amount: price, disposition: 'applied', at: new Date(at.getTime() + 60_000) });
  return row.id;
}

describe('the figures of each day', () => {
  beforeAll(async () => {
    // 9 March (Beijing): two WeChat Pay orders, one Alipay, one unpaid; the first made at 00:01 Beijing (16:01 UTC the day before).
    const first = await order(beijing(9, '00:01:00'), 1500, 'wechatpay');
    await order(beijing(9, '10:00:00'), 2500, 'wechatpay');
    const third = await order(beijing(9, '12:00:00'), 3000, 'alipay');
    await order(beijing(9, '13:00:00'), 9900, null);
    // 8 March at 23:58 Beijing (paid at 23:59): the day before, whatever the UTC date says.
    await order(beijing(8, '23:58:00'), 700, 'wallet');
    // 10 March: one wallet order; and one long before the period, which no period counts.
    await order(beijing(10, '09:00:00'), 1200, 'wallet');
    await order(new Date('2025-01-01T00:00:00Z'), 5000, 'alipay');
    // A payment that came for an order already paid went to the wallet: no takings of the day.
    await t.app.db
      .insert(payments)
      .values({ orderId: third, method: 'alipay', reference: 'tx-late', amount: 3000, disposition: 'toWallet', at: beijing(9, '12:30:00') });

    await t.app.db.insert(refunds).values([
      { refundNo: 'R1', orderId: first, amount: 500, destination: 'wallet', state: 'succeeded', actor: 'root', createdAt: beijing(9, '18:00:00') },
      { refundNo: 'R2', orderId: third, amount: 3000, destination: 'original', state: 'pending', actor: 'root', createdAt: beijing(10, '08:00:00') },
      // One the provider refused gave nothing back.
      { refundNo: 'R3', orderId: third, amount: 3000, destination: 'original', state: 'failed', actor: 'root', createdAt: beijing(10, '08:30:00') },
    ]);

    await t.app.db.insert(users).values([
      { nickname: 'a', createdAt: beijing(4, '08:00:00') },
      { nickname: 'b', createdAt: beijing(9, '23:59:59') },
      { nickname: 'c', createdAt: beijing(10, '00:00:00') },
    ]);

    await t.app.db.insert(codeSends).values([
      { channel: 'sms', provider: 'aliyun', refusal: null, createdAt: beijing(9, '09:00:00') },
      { channel: 'sms', provider: 'aliyun', refusal: null, createdAt: beijing(9, '09:01:00') },
      { channel: 'sms', provider: 'aliyun', refusal: 'rateLimited', createdAt: beijing(9, '09:02:00') },
      { channel: 'email', provider: 'smtp', refusal: 'unreachable', createdAt: beijing(10, '09:00:00') },
    ]);

    const [raffle] = await t.app.db
      .insert(raffles)
      .values({
        kind: 'registration',
        title: inEveryLanguage('R'),
        description: inEveryLanguage('R'),
        prizes: [],
        opensAt: beijing(1, '00:00:00'),
        closesAt: beijing(20, '00:00:00'),
      })
      .returning({ id: raffles.id });
    await t.app.db.insert(raffleEntries).values([
      { raffleId: raffle.id, number: 1, createdAt: beijing(9, '11:00:00') },
      { raffleId: raffle.id, number: 2, createdAt: beijing(9, '11:30:00') },
      { raffleId: raffle.id, number: 3, createdAt: beijing(10, '11:00:00') },
    ]);
  });

  it('lays out every day of the period in Beijing time, oldest first, ending today', () => {
    const { from, labels } = periodDays(7, now);
    expect(labels).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']);
    expect(from.toISOString()).toBe('2026-03-03T16:00:00.000Z');
    // 23:30 UTC is already the next day in Beijing.
    expect(periodDays(7, new Date('2026-03-10T23:30:00Z')).labels.at(-1)).toBe('2026-03-11');
    expect(periodDays(90, now).labels).toHaveLength(90);
  });

  it('sums orders, the money each method took, refunds, accounts, codes per provider and registrations per Beijing day', async () => {
    const series = await dashboardSeries(t.app.db, 7, now);
    expect(series.map((day) => day.day)).toEqual(periodDays(7, now).labels);
    const day = (date: string) => series.find((figures) => figures.day === date)!;

    expect(day('2026-03-09')).toEqual({
      day: '2026-03-09',
      created: 4,
      paid: 3,
      methods: { wechatpay: { orders: 2, amount: 4000 }, alipay: { orders: 1, amount: 3000 }, wallet: { orders: 0, amount: 0 } },
      refunds: { count: 1, amount: 500 },
      accounts: 1,
      codes: { 'sms:aliyun': { sent: 2, refused: 1 } },
      registrations: 2,
    });
    expect(day('2026-03-08')).toMatchObject({ created: 1, paid: 1, methods: { wallet: { orders: 1, amount: 700 } }, accounts: 0, codes: {} });
    expect(day('2026-03-10')).toMatchObject({
      created: 1,
      paid: 1,
      methods: { wallet: { orders: 1, amount: 1200 }, wechatpay: { orders: 0, amount: 0 } },
      refunds: { count: 1, amount: 3000 },
      accounts: 1,
      codes: { 'email:smtp': { sent: 0, refused: 1 } },
      registrations: 1,
    });
    expect(day('2026-03-04')).toMatchObject({ created: 0, accounts: 1, registrations: 0 });
    expect(day('2026-03-05')).toEqual({
      day: '2026-03-05',
      created: 0,
      paid: 0,
      methods: { wechatpay: { orders: 0, amount: 0 }, alipay: { orders: 0, amount: 0 }, wallet: { orders: 0, amount: 0 } },
      refunds: { count: 0, amount: 0 },
      accounts: 0,
      codes: {},
      registrations: 0,
    });
    // The order of January 2025 is outside even 90 days.
    const quarter = await dashboardSeries(t.app.db, 90, now);
    expect(quarter.reduce((sum, figures) => sum + figures.created, 0)).toBe(6);
    expect(quarter.reduce((sum, figures) => sum + figures.methods.alipay.amount, 0)).toBe(3000);
  });
});

describe('the command', () => {
  it('answers 7 days unless told, and 30 or 90, with the hub’s connections (this server’s alone, without Redis)', async () => {
    const week = (await runCommand(t.app, 'dashboard', {}, caller, null)) as { days: number; series: unknown[]; timeZone: string };
    expect(week).toMatchObject({ days: 7, timeZone: 'Asia/Shanghai', hubConnections: { connections: 0, servers: 1 } });
    expect(week.series).toHaveLength(7);
    expect(((await runCommand(t.app, 'dashboard', { days: 90 }, caller, 'support')) as { series: unknown[] }).series).toHaveLength(90);
    expect(parseWords(operatorCommands, ['dashboard', '30']).args).toEqual({ days: 30 });
  });

  it('refuses a period it does not show, or anything else, from the console and the shell alike', async () => {
    for (const days of [0, 1, 14, 31, 365, -7, 7.5, '7', null])
      await expect(runCommand(t.app, 'dashboard', { days }, caller, 'support'), `days ${String(days)}`).rejects.toThrow(UsageError);
    await expect(runCommand(t.app, 'dashboard', { days: 7, from: '2020-01-01' }, caller, 'support')).rejects.toThrow(UsageError);
    expect(() => parseWords(operatorCommands, ['dashboard', '14'])).toThrow(UsageError);
    expect(() => parseWords(operatorCommands, ['dashboard', '7', '30'])).toThrow(UsageError);
  });

  it('is support’s and up: a customer without a console session, or with only a login, is refused', async () => {
    expect(dashboardCommands.show.role).toBe('support');
    const anonymous = await t.call(consoleCalls.run, { body: { Command: 'dashboard', Args: { days: 7 } } });
    expect(anonymous.body.code).toBe(ErrorCode.ConsoleSignIn);
    const customer = await loginBySms(t, '13900000001', 'dashboard-device');
    const loggedIn = await t.call(consoleCalls.run, { token: customer.AccessToken, body: { Command: 'dashboard', Args: { days: 7 } } });
    expect(loggedIn.body.code).toBe(ErrorCode.ConsoleSignIn);
  });
});

describe('noting code sends', () => {
  it('notes each code message with its provider, and one the provider refused as refused', async () => {
    const before = await t.app.db.select().from(codeSends);
    const todayBefore = (await dashboardSeries(t.app.db, 7)).at(-1)!.codes['sms:dev'] ?? { sent: 0, refused: 0 };
    await loginBySms(t, '13900000002', 'dashboard-device-2');
    const refused = vi.spyOn(t.app.sms, 'send').mockRejectedValueOnce(new MessengerError('sms', '13900000003', 'no balance', { refusal: 'unavailable' }));
    const answer = await t.call(identity.sendSmsCode, { body: { Phone: '13900000003' } });
    expect(answer.body.code).not.toBe(200);
    refused.mockRestore();
    const noted = (await t.app.db.select().from(codeSends)).slice(before.length);
    expect(noted.map(({ channel, provider, refusal }) => ({ channel, provider, refusal }))).toEqual([
      { channel: 'sms', provider: 'dev', refusal: null },
      { channel: 'sms', provider: 'dev', refusal: 'unavailable' },
    ]);
    const today = (await dashboardSeries(t.app.db, 7)).at(-1)!;
    expect(today.codes['sms:dev']).toEqual({ sent: todayBefore.sent + 1, refused: todayBefore.refused + 1 });
  });
});
