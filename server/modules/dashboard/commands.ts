/**
 * The console's dashboard (contract/commands/dashboard.ts): the shop's figures per day from the database's
 * aggregates (figures.ts), and the realtime hub's open connections now, summed over every instance through Redis
 * when there are several (realtime/connection-count.ts).
 */
import { dashboardCommands, dashboardTimeZone } from '#contract/commands/dashboard.ts';
import { PayMethod } from '#contract/commerce.ts';
import { commandsPlugin, handle } from '../../admin-command.ts';
import { money, table } from '../../admin-text.ts';
import { dashboardSeries } from './figures.ts';

export default commandsPlugin('dashboard', [
  handle(dashboardCommands.show, {
    async run(app, { days }) {
      const hubConnections = app.hasDecorator('hubConnections') ? await app.hubConnections() : null;
      return { command: 'dashboard', days, timeZone: dashboardTimeZone, series: await dashboardSeries(app.db, days), hubConnections };
    },
    format: ({ series, timeZone, hubConnections }) =>
      `${table(
        ['DAY', 'ORDERS', 'PAID', ...PayMethod.options.map((method) => method.toUpperCase()), 'REFUNDS', 'ACCOUNTS', 'CODES SENT/REFUSED', 'REGISTRATIONS'],
        series.map((day) => {
          const codes = Object.values(day.codes);
          return [
            day.day,
            day.created,
            day.paid,
            ...PayMethod.options.map((method) => `${day.methods[method].orders} / ${money(day.methods[method].amount)}`),
            `${day.refunds.count} / ${money(day.refunds.amount)}`,
            day.accounts,
            `${codes.reduce((sum, sends) => sum + sends.sent, 0)} / ${codes.reduce((sum, sends) => sum + sends.refused, 0)}`,
            day.registrations,
          ];
        }),
      )}\n\nDays in ${timeZone} time; money in CNY. Hub connections now: ${
        hubConnections ? `${hubConnections.connections} on ${hubConnections.servers} server(s)` : 'no server running'
      }.`,
  }),
]);
