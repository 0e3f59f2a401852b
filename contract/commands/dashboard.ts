/**
 * The operators' command that shows how the shop is doing: `dashboard [7|30|90]`, the figures of each of the
 * last days (orders and money by payment method, how many orders were paid, refunds, new accounts, login codes
 * per message provider, raffle registrations) and the realtime hub's connections now, on every server.
 *
 * Its least role is support: support already reads every order, refund and customer one by one, so the day's
 * sums tell them nothing new, and the console's first page is this dashboard for every operator.
 */
import * as z from 'zod/mini';
import { command, UsageError } from '../command.ts';
import { PayMethod } from '../commerce.ts';
import { text } from '../fields.ts';

/** The periods the dashboard shows, in days; the first is the default. */
export const dashboardPeriods = [7, 30, 90] as const;
export type DashboardPeriod = (typeof dashboardPeriods)[number];

/** The time zone whose midnight starts the dashboard's days: the shop's, Beijing time (UTC+8), as Alipay and Aliyun count days. */
export const dashboardTimeZone = 'Asia/Shanghai';

const Count = z.int().check(z.nonnegative());

/** What one payment method took in a day: the orders it paid and their money, in fen. */
const MethodTakings = z.object({ orders: Count, amount: Count });

/** A message provider's login and account codes in a day: those it took and those it refused. */
export const CodeSends = z.object({ sent: Count, refused: Count });

/** One day's figures; every day of the period has one, with zeros for a quiet day. */
export const DashboardDay = z.object({
  /** The day in the shop's time zone, `YYYY-MM-DD`. */
  day: text(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  /** Orders made that day, and how many of those were paid (the payment success rate is paid ÷ created). */
  created: Count,
  paid: Count,
  /** Payments taken that day, by method. */
  methods: z.record(PayMethod, MethodTakings),
  /** Refunds asked for that day (not those that failed), and their money in fen. */
  refunds: z.object({ count: Count, amount: Count }),
  /** Accounts opened that day. */
  accounts: Count,
  /** Codes by `channel:provider` (`sms:aliyun`, `email:smtp`); a provider that sent nothing that day is absent. */
  codes: z.record(text(), CodeSends),
  /** Raffle registrations made that day. */
  registrations: Count,
});
export type DashboardDay = z.infer<typeof DashboardDay>;

export const dashboardCommands = {
  show: command({
    name: 'dashboard',
    role: 'support',
    usage: `dashboard [${dashboardPeriods.join('|')}]                 the shop's figures per day (Beijing time) over the last 7, 30 or 90 days`,
    args: z.strictObject({ days: z._default(z.union(dashboardPeriods.map((days) => z.literal(days))), dashboardPeriods[0]) }),
    words(rest) {
      if (rest.length === 0) return {};
      if (rest.length > 1 || !/^\d{1,3}$/.test(rest[0])) throw new UsageError(`dashboard takes one of ${dashboardPeriods.join(', ')} days`);
      return { days: Number(rest[0]) };
    },
    result: {
      days: z.int(),
      timeZone: text(),
      /** The days of the period, oldest first, today last. */
      series: z.array(DashboardDay),
      /**
       * The realtime hub's open connections now, on every server counted (`servers`: all of them with Redis, else the
       * one that answered); null away from a running server.
       */
      hubConnections: z.nullable(z.object({ connections: Count, servers: z.int().check(z.positive()) })),
    },
  }),
};
