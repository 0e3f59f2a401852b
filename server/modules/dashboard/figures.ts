/**
 * The dashboard's figures: one aggregate query per table, grouped by the day in the shop's time zone (Beijing time,
 * contract/commands/dashboard.ts), each reading only the period's rows through an index on the time it groups by, so
 * the database sums and the server only lays the sums out per day.
 */
import { and, count, eq, gte, ne, sql, type AnyColumn } from 'drizzle-orm';
import { dashboardTimeZone, type DashboardDay, type DashboardPeriod } from '#contract/commands/dashboard.ts';
import { PayMethod } from '#contract/commerce.ts';
import type { Database } from '../../db/database.ts';
import { codeSends, users } from '../../db/schema/identity.ts';
import { orders, payments, refunds } from '../../db/schema/commerce.ts';
import { raffleEntries } from '../../db/schema/raffle.ts';

const dayMs = 24 * 3600_000;
/** Beijing time's distance from UTC: eight hours all year (no daylight saving), the same zone as `dashboardTimeZone`. */
const shopOffsetMs = 8 * 3600_000;

/**
 * A moment's day in the shop's time zone, as a date to group by, and as the `YYYY-MM-DD` selected of it (written
 * once per day, not per row). The zone is a constant written into the query (not a parameter), so the grouping
 * repeats the selected expression exactly, as PostgreSQL requires.
 */
function dayOf(column: AnyColumn) {
  const date = sql`(${column} at time zone ${sql.raw(`'${dashboardTimeZone}'`)})::date`;
  return { date, label: sql<string>`to_char(${date}, 'YYYY-MM-DD')` };
}

/** A sum of integers (bigint in PostgreSQL, a string to the driver) as a number: fen sums stay far below 2^53. */
const total = (column: AnyColumn) => sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);
const countWhere = (condition: ReturnType<typeof sql>) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

/** The period's days in the shop's time zone, oldest first, and the moment the first began. */
export function periodDays(days: DashboardPeriod, now: Date): { from: Date; labels: string[] } {
  const todayStart = Math.floor((now.getTime() + shopOffsetMs) / dayMs) * dayMs - shopOffsetMs;
  const from = todayStart - (days - 1) * dayMs;
  const labels = Array.from({ length: days }, (_, index) => new Date(from + index * dayMs + shopOffsetMs).toISOString().slice(0, 10));
  return { from: new Date(from), labels };
}

const emptyDay = (day: string): DashboardDay => ({
  day,
  created: 0,
  paid: 0,
  methods: Object.fromEntries(PayMethod.options.map((method) => [method, { orders: 0, amount: 0 }])) as DashboardDay['methods'],
  refunds: { count: 0, amount: 0 },
  accounts: 0,
  codes: {},
  registrations: 0,
});

/** The shop's figures for each day of the period ending today. */
export async function dashboardSeries(db: Database, days: DashboardPeriod, now = new Date()): Promise<DashboardDay[]> {
  const { from, labels } = periodDays(days, now);
  const orderDay = dayOf(orders.createdAt);
  const paymentDay = dayOf(payments.at);
  const refundDay = dayOf(refunds.createdAt);
  const accountDay = dayOf(users.createdAt);
  const sendDay = dayOf(codeSends.createdAt);
  const entryDay = dayOf(raffleEntries.createdAt);
  const [made, taken, refunded, opened, sends, registered] = await Promise.all([
    db
      .select({ day: orderDay.label, created: count(), paid: countWhere(sql`${orders.state} in ('paid', 'fulfilled', 'refunded')`) })
      .from(orders)
      .where(gte(orders.createdAt, from))
      .groupBy(orderDay.date),
    db
      .select({ day: paymentDay.label, method: payments.method, orders: count(), amount: total(payments.amount) })
      .from(payments)
      .where(and(gte(payments.at, from), eq(payments.disposition, 'applied')))
      .groupBy(paymentDay.date, payments.method),
    db
      .select({ day: refundDay.label, count: count(), amount: total(refunds.amount) })
      .from(refunds)
      .where(and(gte(refunds.createdAt, from), ne(refunds.state, 'failed')))
      .groupBy(refundDay.date),
    db.select({ day: accountDay.label, count: count() }).from(users).where(gte(users.createdAt, from)).groupBy(accountDay.date),
    db
      .select({
        day: sendDay.label,
        channel: codeSends.channel,
        provider: codeSends.provider,
        sent: countWhere(sql`${codeSends.refusal} is null`),
        refused: countWhere(sql`${codeSends.refusal} is not null`),
      })
      .from(codeSends)
      .where(gte(codeSends.createdAt, from))
      .groupBy(sendDay.date, codeSends.channel, codeSends.provider),
    db.select({ day: entryDay.label, count: count() }).from(raffleEntries).where(gte(raffleEntries.createdAt, from)).groupBy(entryDay.date),
  ]);

  const byDay = new Map(labels.map((day) => [day, emptyDay(day)]));
  // A row of a day outside the labels (a clock running ahead of the database's) has no place and is left out.
  const set = (day: string, figures: (found: DashboardDay) => void) => {
    const found = byDay.get(day);
    if (found) figures(found);
  };
  for (const row of made) set(row.day, (day) => Object.assign(day, { created: row.created, paid: row.paid }));
  for (const row of taken) {
    const method = PayMethod.safeParse(row.method);
    if (method.success) set(row.day, (day) => (day.methods[method.data] = { orders: row.orders, amount: row.amount }));
  }
  for (const row of refunded) set(row.day, (day) => (day.refunds = { count: row.count, amount: row.amount }));
  for (const row of opened) set(row.day, (day) => (day.accounts = row.count));
  for (const row of sends) set(row.day, (day) => (day.codes[`${row.channel}:${row.provider}`] = { sent: row.sent, refused: row.refused }));
  for (const row of registered) set(row.day, (day) => (day.registrations = row.count));
  return [...byDay.values()];
}
