/**
 * The console dashboard's store in Node: the period read from and kept in the address (`?days=`, other parameters
 * left alone, the default left out, a period it does not show read as the default), `dashboard` asked for the
 * chosen period, a slower answer for a period no longer chosen not shown, and the period's totals.
 */
import { describe, expect, it } from 'vitest';
import type { DashboardDay } from '#contract/commands/dashboard.ts';
import type { RunCommand } from '@/features/console/console-store.ts';
import { createDashboard, dashboardTotals, periodOf, providersOf, searchWith, type DashboardFigures } from '@/features/console/dashboard-store.ts';

const quiet = (day: string): DashboardDay => ({
  day,
  created: 0,
  paid: 0,
  methods: { wechatpay: { orders: 0, amount: 0 }, alipay: { orders: 0, amount: 0 }, wallet: { orders: 0, amount: 0 } },
  refunds: { count: 0, amount: 0 },
  accounts: 0,
  codes: {},
  registrations: 0,
});

const figures = (days: number): DashboardFigures => ({
  command: 'dashboard',
  days,
  timeZone: 'Asia/Shanghai',
  series: Array.from({ length: days }, (_, index) => quiet(`2026-01-${String(index + 1).padStart(2, '0')}`)),
  hubConnections: { connections: 3, servers: 2 },
});

describe('the period in the address', () => {
  it('reads 7, 30 or 90 days, and the default for anything else', () => {
    expect(periodOf('')).toBe(7);
    expect(periodOf('?days=30')).toBe(30);
    expect(periodOf('?x=1&days=90')).toBe(90);
    for (const search of ['?days=14', '?days=abc', '?days=', '?days=7.0x', '?days=-30']) expect(periodOf(search)).toBe(7);
  });

  it('writes it beside the other parameters, leaving the default out', () => {
    expect(searchWith('', 30)).toBe('?days=30');
    expect(searchWith('?x=1', 90)).toBe('?x=1&days=90');
    expect(searchWith('?days=30&x=1', 7)).toBe('?x=1');
    expect(searchWith('?days=30', 7)).toBe('');
  });
});

describe('the store', () => {
  it('asks for the period the address names, and on a switch shows the new one in the address and asks again', async () => {
    let search = '?days=30';
    const asked: unknown[] = [];
    const run = (async (_command: unknown, args: { days: number }) => {
      asked.push(args);
      return figures(args.days);
    }) as unknown as RunCommand;
    const dashboard = createDashboard(run, { search: () => search, replace: (next) => (search = next) });
    await dashboard.load();
    expect(dashboard.$figures.get()?.series).toHaveLength(30);
    await dashboard.choose(90);
    expect(search).toBe('?days=90');
    expect(dashboard.$period.get()).toBe(90);
    expect(dashboard.$figures.get()?.days).toBe(90);
    await dashboard.choose(90);
    expect(asked).toEqual([{ days: 30 }, { days: 90 }]);
  });

  it('shows no slower answer for a period no longer chosen', async () => {
    const answers: Array<(value: DashboardFigures) => void> = [];
    const run = ((_command: unknown, _args: { days: number }) => new Promise((resolve) => answers.push(resolve))) as unknown as RunCommand;
    const dashboard = createDashboard(run, { search: () => '', replace: () => {} });
    const week = dashboard.load();
    const month = dashboard.choose(30);
    answers[1](figures(30));
    await month;
    answers[0](figures(7));
    await week;
    expect(dashboard.$figures.get()?.days).toBe(30);
  });
});

describe('the totals', () => {
  it('sums the days, and gives no success rate when no order was made', () => {
    const first = { ...quiet('2026-01-01'), created: 4, paid: 3, accounts: 2, registrations: 1 };
    first.methods = { wechatpay: { orders: 2, amount: 4000 }, alipay: { orders: 1, amount: 3000 }, wallet: { orders: 0, amount: 0 } };
    first.refunds = { count: 1, amount: 500 };
    first.codes = { 'sms:aliyun': { sent: 5, refused: 1 } };
    const second = { ...quiet('2026-01-02'), created: 1, paid: 1 };
    second.methods = { ...second.methods, wallet: { orders: 1, amount: 700 } };
    second.codes = { 'email:smtp': { sent: 2, refused: 0 }, 'sms:aliyun': { sent: 1, refused: 2 } };
    expect(dashboardTotals([first, second])).toEqual({
      created: 5,
      paid: 4,
      successRate: 0.8,
      paidOrders: 4,
      revenue: 7700,
      refunds: 1,
      refunded: 500,
      accounts: 2,
      codesSent: 8,
      codesRefused: 3,
      registrations: 1,
    });
    expect(dashboardTotals([quiet('2026-01-01')]).successRate).toBeNull();
    expect(providersOf([first, second])).toEqual(['email:smtp', 'sms:aliyun']);
  });
});
