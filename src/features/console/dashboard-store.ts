/**
 * The console's dashboard: the period shown (7, 30 or 90 days, kept in the address's `?days=` so a link shows the
 * same), the figures of `dashboard` for it, and the totals of the period the cards show.
 */
import { atom } from 'nanostores';
import { dashboardCommands, dashboardPeriods, type DashboardDay, type DashboardPeriod } from '#contract/commands/dashboard.ts';
import type { ResultOf } from '#contract/command.ts';
import { PayMethod } from '#contract/commerce.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';

export type DashboardFigures = ResultOf<typeof dashboardCommands.show>;

/** The address bar, as far as the dashboard reads and writes it. */
export interface DashboardAddress {
  /** The query string, `?days=30` or ''. */
  search(): string;
  /** Shows the query string in the address without a new history entry or a reload. */
  replace(search: string): void;
}

/** The period a query string names; the first period when it names none the dashboard shows. */
export function periodOf(search: string): DashboardPeriod {
  const days = Number(new URLSearchParams(search).get('days'));
  return dashboardPeriods.find((period) => period === days) ?? dashboardPeriods[0];
}

/** The query string with `days` set to the period (the default period leaves it out), the other parameters kept. */
export function searchWith(search: string, period: DashboardPeriod): string {
  const params = new URLSearchParams(search);
  if (period === dashboardPeriods[0]) params.delete('days');
  else params.set('days', String(period));
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** The period's sums: what the cards show. `successRate` is null when no order was made. */
export function dashboardTotals(series: readonly DashboardDay[]) {
  const sum = (figure: (day: DashboardDay) => number) => series.reduce((total, day) => total + figure(day), 0);
  const created = sum((day) => day.created);
  const paid = sum((day) => day.paid);
  const codes = series.flatMap((day) => Object.values(day.codes));
  return {
    created,
    paid,
    successRate: created ? paid / created : null,
    paidOrders: sum((day) => PayMethod.options.reduce((total, method) => total + day.methods[method].orders, 0)),
    revenue: sum((day) => PayMethod.options.reduce((total, method) => total + day.methods[method].amount, 0)),
    refunds: sum((day) => day.refunds.count),
    refunded: sum((day) => day.refunds.amount),
    accounts: sum((day) => day.accounts),
    codesSent: codes.reduce((total, sends) => total + sends.sent, 0),
    codesRefused: codes.reduce((total, sends) => total + sends.refused, 0),
    registrations: sum((day) => day.registrations),
  };
}

/** The message providers (`channel:provider`) that sent or refused a code in the period, in a stable order. */
export const providersOf = (series: readonly DashboardDay[]): string[] => [...new Set(series.flatMap((day) => Object.keys(day.codes)))].sort();

export function createDashboard(run: RunCommand, address: DashboardAddress) {
  const $period = atom<DashboardPeriod>(periodOf(address.search()));
  const $figures = atom<DashboardFigures | null>(null);
  const action = createAction();

  async function load(): Promise<void> {
    const period = $period.get();
    const figures = await action.run(() => run(dashboardCommands.show, { days: period }));
    // A slower answer for a period no longer chosen is not shown.
    if (figures && $period.get() === period) $figures.set(figures);
  }

  async function choose(period: DashboardPeriod): Promise<void> {
    if (period === $period.get()) return;
    $period.set(period);
    address.replace(searchWith(address.search(), period));
    await load();
  }

  return { $period, $figures, $busy: action.$busy, $notice: action.$notice, load, choose };
}
