/**
 * The console's lists (issue 49, point 2): `order list`, `users list`,
 * `audit list` and `raffle list` sort by the columns they declare, a page at a time with the
 * total, and filter; a sort column outside the declaration or a page larger
 * than the most is refused before any query (400 through the endpoint, a
 * UsageError in the CLI). Run on PGlite, and on PostgreSQL with
 * TEST_POSTGRES_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWords, UsageError, type ResultOf } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import type { activationCommands } from '#contract/commands/activation.ts';
import type { commerceCommands } from '#contract/commands/commerce.ts';
import type { identityCommands } from '#contract/commands/identity.ts';
import type { roleAndAuditCommands } from '#contract/commands/operators.ts';
import type { raffleCommands } from '#contract/commands/raffle.ts';
import type { OrderItem } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { listSize } from '#contract/list.ts';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import { runCommand } from '../../../server/admin-command.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { auditLog, orders, raffles, users } from '../../../server/db/schema.ts';
import { startApp, type TestApp } from './harness.ts';

let t: TestApp;
let buyer: number;

const item: OrderItem = { Kind: 'membership', Product: 'month', Months: 1, Amount: null, Currency: null, RatePpm: null, SteamId: null };
const states = ['paid', 'closed', 'refunded'] as const;
const methods = ['wechatpay', 'alipay', null] as const;
/** Order i (1 to 30): made on 1 to 30 November 2026, its price falling as i grows (so price and date sort apart). */
const orderKey = (i: number) => `202611${String(i).padStart(2, '0')}00000000${String(i).padStart(4, '0')}`;

beforeAll(async () => {
  t = await startApp();
  const made = await t.app.db
    .insert(users)
    .values(
      Array.from({ length: 12 }, (_, i) => ({
        nickname: `Customer ${String.fromCharCode(76 - i)}`,
        email: i % 3 === 0 ? null : `c${i}@example.com`,
        phone: i % 4 === 0 ? `1390000${String(i).padStart(4, '0')}` : null,
        createdAt: new Date(Date.UTC(2026, 9, i + 1)),
      })),
    )
    .returning({ id: users.id });
  buyer = made[0].id;
  await t.app.db.insert(orders).values(
    Array.from({ length: 30 }, (_, n) => {
      const i = n + 1;
      return {
        key: orderKey(i),
        userId: i % 5 === 0 ? buyer : made[1].id,
        product: 'month',
        item,
        price: 10_000 - i * 100,
        state: states[i % 3],
        method: methods[i % 3],
        expiresAt: new Date(Date.UTC(2026, 10, i, 1)),
        createdAt: new Date(Date.UTC(2026, 10, i)),
      };
    }),
  );
  await t.app.db.insert(auditLog).values(
    Array.from({ length: 7 }, (_, i) => ({
      actor: i % 2 ? 'Beatrice (user 2, admin)' : 'root@shop (operators’ command)',
      action: i % 2 ? 'role grant' : 'maintenance on',
      target: i % 2 ? `user ${i}` : 'payments',
      at: new Date(Date.UTC(2026, 10, 10 + i)),
    })),
  );
});
afterAll(() => t.close());

/** A list command as the CLI types it, run as the console and the CLI run it. */
async function list(...words: string[]): Promise<unknown> {
  const { command, args } = parseWords(operatorCommands, words);
  return runCommand(t.app, command.name, args, { actor: shellActor('root@shop', null), locale: 'en', attachment: null }, null);
}
type OrderPage = ResultOf<typeof commerceCommands.orderList>;
type UserPage = ResultOf<typeof identityCommands.list>;
type AuditPage = ResultOf<typeof roleAndAuditCommands.auditList>;
const orderList = (...words: string[]) => list('order', 'list', ...words) as Promise<OrderPage>;
const userList = (...words: string[]) => list('users', 'list', ...words) as Promise<UserPage>;
const auditList = (...words: string[]) => list('audit', 'list', ...words) as Promise<AuditPage>;
const keys = (page: OrderPage) => page.rows.map((row) => row.Key);

describe('order list', () => {
  it('pages newest first with the total, and a page past the end is empty with the same total', async () => {
    const first = await orderList('--size', '4');
    expect({ keys: keys(first), total: first.total, page: first.page, size: first.size }).toEqual({
      keys: [30, 29, 28, 27].map(orderKey),
      total: 30,
      page: 1,
      size: 4,
    });
    expect(keys(await orderList('--size', '4', '--page', '2'))).toEqual([26, 25, 24, 23].map(orderKey));
    expect(keys(await orderList('--size', '4', '--page', '8'))).toEqual([2, 1].map(orderKey));
    expect(await orderList('--size', '4', '--page', '9')).toMatchObject({ rows: [], total: 30, page: 9 });
    expect((await orderList()).rows).toHaveLength(listSize.default);
  });

  it('sorts by each column both ways, the id breaking ties so pages neither repeat nor skip', async () => {
    expect(keys(await orderList('--sort', 'created', '--asc', '--size', '3'))).toEqual([1, 2, 3].map(orderKey));
    // The price falls as the order number grows.
    expect(keys(await orderList('--sort', 'price', '--asc', '--size', '3'))).toEqual([30, 29, 28].map(orderKey));
    expect(keys(await orderList('--sort', 'price', '--desc', '--size', '3'))).toEqual([1, 2, 3].map(orderKey));
    // Ten orders of each state: ties broken by the id in the same direction.
    const byState = await orderList('--sort', 'state', '--asc', '--size', '30');
    expect(byState.rows.map((row) => row.State)).toEqual([...Array(10).fill('closed'), ...Array(10).fill('paid'), ...Array(10).fill('refunded')]);
    expect(keys(byState).slice(0, 3)).toEqual([1, 4, 7].map(orderKey));
    const pages = [...keys(await orderList('--sort', 'state', '--size', '7')), ...keys(await orderList('--sort', 'state', '--size', '7', '--page', '2'))];
    expect(new Set(pages).size).toBe(14);
    expect(pages).toEqual(keys(await orderList('--sort', 'state', '--size', '14')));
    // Going up, orders without a method come last; going down, first.
    const byMethod = await orderList('--sort', 'method', '--asc', '--size', '30');
    expect(byMethod.rows.map((row) => row.Method)).toEqual([...Array(10).fill('alipay'), ...Array(10).fill('wechatpay'), ...Array(10).fill(null)]);
  });

  it('filters by state, method, customer, number and days, and counts what passes', async () => {
    expect(await orderList('--state', 'paid', '--method', 'alipay')).toMatchObject({ rows: [], total: 0 });
    const paid = await orderList('--state', 'paid', '--sort', 'created', '--asc', '--size', '2');
    expect({ keys: keys(paid), total: paid.total }).toEqual({ keys: [3, 6].map(orderKey), total: 10 });
    expect((await orderList('--method', 'wechatpay')).total).toBe(10);
    const mine = await orderList('--user', String(buyer));
    expect({ keys: keys(mine), total: mine.total }).toEqual({ keys: [30, 25, 20, 15, 10, 5].map(orderKey), total: 6 });
    expect(await orderList('--user', 'nobody@example.com')).toMatchObject({ rows: [], total: 0 });
    // An order number, or its first digits.
    expect(keys(await orderList('--key', orderKey(12)))).toEqual([orderKey(12)]);
    expect((await orderList('--key', '2026111')).total).toBe(10);
    expect((await orderList('--key', '2025')).total).toBe(0);
    const days = await orderList('--since', '2026-11-05', '--until', '2026-11-07');
    expect({ keys: keys(days), total: days.total }).toEqual({ keys: [7, 6, 5].map(orderKey), total: 3 });
  });
});

describe('users list', () => {
  it('pages newest first, sorts by nickname, e-mail and phone, and searches by the start of the phone, e-mail or nickname, or the id', async () => {
    const first = await userList('--size', '5');
    expect({ total: first.total, ids: first.rows.map((row) => row.id) }).toEqual({ total: 12, ids: [buyer + 11, buyer + 10, buyer + 9, buyer + 8, buyer + 7] });
    expect((await userList('--size', '5', '--page', '3')).rows.map((row) => row.id)).toEqual([buyer + 1, buyer]);
    const byName = await userList('--sort', 'nickname', '--asc', '--size', '3');
    expect(byName.rows.map((row) => row.nickname)).toEqual(['Customer A', 'Customer B', 'Customer C']);
    // Going up, a user without an e-mail sorts after those with one.
    const byEmail = await userList('--sort', 'email', '--asc', '--size', '12');
    expect(byEmail.rows.map((row) => row.email).slice(-4)).toEqual([null, null, null, null]);
    expect((await userList('--sort', 'phone', '--size', '12')).rows.slice(0, 9).every((row) => row.phone === null)).toBe(true);
    expect((await userList('--search', 'customer l')).rows.map((row) => row.id)).toEqual([buyer]);
    expect((await userList('--search', 'C1@EXAMPLE')).rows.map((row) => row.email)).toEqual(['c1@example.com']);
    // By the start, in any case: a part further in finds nothing.
    expect((await userList('--search', 'C1', '--size', '2')).total).toBe(3);
    expect((await userList('--search', '@example.com')).total).toBe(0);
    expect((await userList('--search', '13900000008')).rows.map((row) => row.id)).toEqual([buyer + 8]);
    expect((await userList('--search', String(buyer + 4))).rows.map((row) => row.id)).toContain(buyer + 4);
    // LIKE's own characters mean themselves.
    expect((await userList('--search', '%')).total).toBe(0);
    expect((await userList('--search', '_')).total).toBe(0);
    const october = await userList('--since', '2026-10-02', '--until', '2026-10-03');
    expect({ total: october.total, ids: october.rows.map((row) => row.id) }).toEqual({ total: 2, ids: [buyer + 2, buyer + 1] });
  });
});

describe('audit list', () => {
  it('pages, sorts by time, action and actor, and filters by action, record, actor and days', async () => {
    const first = await auditList('--size', '3');
    expect({ total: first.total, actions: first.rows.map((row) => row.at) }).toEqual({
      total: 7,
      actions: ['2026-11-16T00:00:00.000Z', '2026-11-15T00:00:00.000Z', '2026-11-14T00:00:00.000Z'],
    });
    expect((await auditList('--sort', 'action', '--asc', '--size', '7')).rows.map((row) => row.action)).toEqual([
      ...Array(4).fill('maintenance on'),
      ...Array(3).fill('role grant'),
    ]);
    expect((await auditList('--sort', 'actor', '--desc', '--size', '1')).rows[0].actor).toBe('root@shop (operators’ command)');
    expect(await auditList('--action', 'role grant')).toMatchObject({ total: 3 });
    expect(await auditList('--target', 'user 3')).toMatchObject({ total: 1, rows: [{ action: 'role grant' }] });
    expect(await auditList('--actor', 'beatrice')).toMatchObject({ total: 3 });
    expect(await auditList('--actor', 'user 2')).toMatchObject({ total: 0 });
    expect(await auditList('--since', '2026-11-11', '--until', '2026-11-12')).toMatchObject({ total: 2 });
  });
});

describe('raffle list', () => {
  it('sorts by opening, closing and entrants, and filters by kind and by state as the raffle reads it now', async () => {
    const words = (en: string) => Object.fromEntries(localeCodes.map((code) => [code, `${en} (${code})`])) as Record<LocaleCode, string>;
    const day = 86_400_000;
    const now = Date.now();
    const made = await t.app.db
      .insert(raffles)
      .values(
        [
          { kind: 'registration' as const, title: words('Upcoming'), opensAt: new Date(now + day), closesAt: new Date(now + 2 * day), entrants: 0 },
          { kind: 'registration' as const, title: words('Open'), opensAt: new Date(now - day), closesAt: new Date(now + day), entrants: 5 },
          {
            kind: 'instant' as const,
            title: words('Sold out'),
            opensAt: new Date(now - 2 * day),
            closesAt: new Date(now + day),
            entrants: 9,
            stock: 0,
            odds: 1,
            perUserLimit: 1,
          },
          {
            kind: 'registration' as const,
            title: words('Drawn'),
            opensAt: new Date(now - 3 * day),
            closesAt: new Date(now - day),
            entrants: 2,
            drawnAt: new Date(now),
          },
        ].map((raffle) => ({ description: words('About'), prizes: [], ...raffle })),
      )
      .returning({ id: raffles.id });
    const [upcoming, open, soldOut, drawn] = made.map((row) => row.id);
    const ids = async (...typed: string[]) => ((await list('raffle', 'list', ...typed)) as ResultOf<typeof raffleCommands.list>).rows.map((row) => row.id);
    expect(await ids()).toEqual([upcoming, open, soldOut, drawn]);
    expect(await ids('--sort', 'entrants', '--size', '2')).toEqual([soldOut, open]);
    expect(await ids('--sort', 'closes', '--asc')).toEqual([drawn, open, soldOut, upcoming]);
    expect(await ids('--kind', 'instant')).toEqual([soldOut]);
    expect(await ids('--state', 'open')).toEqual([open]);
    expect(await ids('--state', 'closed')).toEqual([soldOut]);
    expect(await ids('--state', 'upcoming')).toEqual([upcoming]);
    expect(await ids('--state', 'drawn')).toEqual([drawn]);
    expect(await list('raffle', 'list', '--state', 'canceled')).toMatchObject({ rows: [], total: 0 });
    expect(() => parseWords(operatorCommands, ['raffle', 'list', '--sort', 'title'])).toThrow(UsageError);
  });
});

describe('cdkey batches', () => {
  it('pages the batches with their used and revoked keys, sorted, by the start of the name and by whether they expired', async () => {
    const batch = async (...words: string[]) => list('cdkey', 'create', '--count', '2', '--grants', 'wallet:100', ...words);
    await batch('--batch', 'spring-a');
    await batch('--batch', 'spring-b', '--expires', '2099-01-01');
    await batch('--batch', 'summer', '--expires', '2020-01-01', '--force');
    await list('cdkey', 'revoke', '--batch', 'spring-b');
    const names = async (...typed: string[]) =>
      ((await list('cdkey', 'batches', ...typed)) as ResultOf<typeof activationCommands.batches>).rows.map((row) => row.name);
    expect(await names()).toEqual(['summer', 'spring-b', 'spring-a']);
    expect(await names('--sort', 'name', '--asc', '--size', '2', '--page', '2')).toEqual(['summer']);
    expect(await names('--search', 'spring')).toEqual(['spring-b', 'spring-a']);
    expect(await names('--state', 'expired')).toEqual(['summer']);
    // Going up, a batch that never expires comes last.
    expect(await names('--state', 'current', '--sort', 'expires', '--asc')).toEqual(['spring-b', 'spring-a']);
    expect(await list('cdkey', 'batches', '--search', 'spring-b')).toMatchObject({
      total: 1,
      rows: [{ count: 2, used: 0, revoked: 2, expiresAt: '2099-01-01T00:00:00.000Z' }],
    });
    expect(() => parseWords(operatorCommands, ['cdkey', 'batches', '--sort', 'grant'])).toThrow(UsageError);
    expect(() => parseWords(operatorCommands, ['cdkey', 'batches', '--state', 'used'])).toThrow(UsageError);
  });
});

describe('what a list refuses', () => {
  it('refuses a sort column the list does not declare, a page size over the most, and a page below 1, in the CLI and through the endpoint', async () => {
    for (const words of [
      ['order', 'list', '--sort', 'user_id'],
      ['order', 'list', '--size', String(listSize.max + 1)],
      ['order', 'list', '--page', '0'],
      ['order', 'list', '--page', '-1'],
      ['order', 'list', '--sort'],
      ['users', 'list', '--sort', 'password_hash'],
      ['users', 'list', '--size', '1000'],
      ['audit', 'list', '--sort', 'before'],
      ['audit', 'list', '--dir', 'desc'],
    ]) {
      expect(() => parseWords(operatorCommands, words), words.join(' ')).toThrow(UsageError);
    }
    const send = (command: string, args: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/run',
        remoteAddress: '127.0.0.1',
        headers: { 'x-admin-token': t.app.adminToken },
        payload: { command, args },
      });
    for (const [command, args] of [
      ['order list', { sort: 'id; drop table orders' }],
      ['order list', { sort: 'created', dir: 'sideways' }],
      ['order list', { size: listSize.max + 1 }],
      ['order list', { page: 1.5 }],
      ['users list', { sort: 'passwordHash' }],
      ['audit list', { size: 0 }],
      ['audit list', { sort: 'address' }],
    ] as const) {
      expect((await send(command, args)).json().code, `${command} ${JSON.stringify(args)}`).toBe(ErrorCode.BadRequest);
    }
    expect((await send('order list', { size: listSize.max })).json().data).toMatchObject({ total: 30, size: listSize.max });
  });
});
