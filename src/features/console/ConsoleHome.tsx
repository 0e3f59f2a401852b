/**
 * The console's first page: how the shop is doing over the last 7, 30 or 90 days — the period's totals as cards,
 * then a chart of each figure per day (orders and money by method, the payment success rate, refunds, new accounts,
 * codes per message provider, raffle registrations) — and the realtime connections open now on every server.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { dashboardPeriods, type DashboardDay } from '#contract/commands/dashboard.ts';
import { PayMethod } from '#contract/commerce.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { consoleIsland, type AreaProps } from './ConsoleGate.tsx';
import { DashboardChart, formatFigure, type ChartLine, type Measure } from './DashboardChart.tsx';
import { createDashboard, dashboardTotals, providersOf, type DashboardFigures } from './dashboard-store.ts';
import { browserConsole } from './environment.ts';
import './console.css';

type T = AreaProps['t'];

/** Each method's colour token: WeChat's green, Alipay's blue, the wallet's amber. */
const methodColors: Record<PayMethod, string> = { wechatpay: '--ok', alipay: '--accent', wallet: '--warn' };
/** The providers' colour tokens, in turn; a provider's refusals are its colour, dashed. */
const providerColors = ['--accent', '--ok', '--warn', '--danger', '--muted'];

const address = {
  search: () => location.search,
  replace: (search: string) => history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`),
};

/** The message providers the server has (server/messages/), named in the operator's words; another shows as the server names it. */
const knownProviders = ['dev', 'http', 'aliyun', 'tencent', 'smtp'] as const;

/** A message provider (`sms:aliyun`) in the operator's words: the channel and the provider's name. */
function providerName(key: string, t: T): string {
  const [channel, provider] = key.split(':');
  const known = knownProviders.find((name) => name === provider);
  return t('console.dashboard.providerOf', {
    channel: t(channel === 'email' ? 'console.dashboard.channel.email' : 'console.dashboard.channel.sms'),
    provider: known ? t(`console.dashboard.provider.${known}`) : provider,
  });
}

interface Chart {
  id: string;
  title: string;
  measure: Measure;
  rightMeasure?: Measure;
  lines: ChartLine[];
}

/** The charts of the figures: one per figure, each line a series of the days. */
function chartsOf(series: readonly DashboardDay[], t: T): Chart[] {
  const of = (figure: (day: DashboardDay) => number | null) => series.map(figure);
  const methods = (figure: 'orders' | 'amount') =>
    PayMethod.options.map((method) => ({ label: t(`pay.method.${method}`), color: methodColors[method], values: of((day) => day.methods[method][figure]) }));
  const providers = providersOf(series);
  return [
    { id: 'orders', title: t('console.dashboard.orders'), measure: 'count', lines: methods('orders') },
    { id: 'revenue', title: t('console.dashboard.revenueByMethod'), measure: 'money', lines: methods('amount') },
    {
      id: 'success',
      title: t('console.dashboard.successRate'),
      measure: 'rate',
      lines: [{ label: t('console.dashboard.paidOfCreated'), color: '--accent', values: of((day) => (day.created ? day.paid / day.created : null)) }],
    },
    {
      id: 'refunds',
      title: t('console.dashboard.refunds'),
      measure: 'count',
      rightMeasure: 'money',
      lines: [
        { label: t('console.dashboard.refundCount'), color: '--danger', values: of((day) => day.refunds.count) },
        { label: t('console.dashboard.refundAmount'), color: '--warn', dashed: true, right: true, values: of((day) => day.refunds.amount) },
      ],
    },
    {
      id: 'accounts',
      title: t('console.dashboard.accounts'),
      measure: 'count',
      lines: [{ label: t('console.dashboard.accounts'), color: '--ok', values: of((day) => day.accounts) }],
    },
    {
      id: 'codes',
      title: t('console.dashboard.codes'),
      measure: 'count',
      lines: providers.flatMap((provider, index) => {
        const name = providerName(provider, t);
        const color = providerColors[index % providerColors.length];
        return [
          { label: t('console.dashboard.codesSent', { provider: name }), color, values: of((day) => day.codes[provider]?.sent ?? 0) },
          { label: t('console.dashboard.codesRefused', { provider: name }), color, dashed: true, values: of((day) => day.codes[provider]?.refused ?? 0) },
        ];
      }),
    },
    {
      id: 'registrations',
      title: t('console.dashboard.registrations'),
      measure: 'count',
      lines: [{ label: t('console.dashboard.registrations'), color: '--accent', values: of((day) => day.registrations) }],
    },
  ];
}

/** The period's totals and the connections now, as cards. */
function Totals({ figures, t, locale }: { figures: DashboardFigures; t: T; locale: AreaProps['locale'] }) {
  const totals = dashboardTotals(figures.series);
  const count = (value: number) => formatFigure(value, 'count', locale);
  const money = (value: number) => formatFigure(value, 'money', locale);
  const cards: Array<{ key: string; label: string; value: string; detail?: string }> = [
    {
      key: 'revenue',
      label: t('console.dashboard.revenue'),
      value: money(totals.revenue),
      detail: t('console.dashboard.paidOrders', { count: count(totals.paidOrders) }),
    },
    { key: 'created', label: t('console.dashboard.created'), value: count(totals.created) },
    {
      key: 'success',
      label: t('console.dashboard.successRate'),
      value: formatFigure(totals.successRate, 'rate', locale),
      detail: t('console.dashboard.paidOf', { paid: count(totals.paid), created: count(totals.created) }),
    },
    {
      key: 'refunds',
      label: t('console.dashboard.refunds'),
      value: money(totals.refunded),
      detail: t('console.dashboard.refundsCount', { count: count(totals.refunds) }),
    },
    { key: 'accounts', label: t('console.dashboard.accounts'), value: count(totals.accounts) },
    {
      key: 'codes',
      label: t('console.dashboard.codesTotal'),
      value: count(totals.codesSent),
      detail: t('console.dashboard.codesRefusedTotal', { count: count(totals.codesRefused) }),
    },
    { key: 'registrations', label: t('console.dashboard.registrations'), value: count(totals.registrations) },
    {
      key: 'hub',
      label: t('console.dashboard.hub'),
      value: figures.hubConnections ? count(figures.hubConnections.connections) : '–',
      detail: figures.hubConnections ? t('console.dashboard.hubServers', { servers: count(figures.hubConnections.servers) }) : undefined,
    },
  ];
  return (
    <dl className="dashboard-totals">
      {cards.map((card) => (
        <div key={card.key} className="card dashboard-total" data-total={card.key}>
          <dt>{card.label}</dt>
          <dd className="dashboard-figure">{card.value}</dd>
          {card.detail && <dd className="muted">{card.detail}</dd>}
        </div>
      ))}
    </dl>
  );
}

function Dashboard({ t, locale }: AreaProps) {
  const [dashboard] = useState(() => createDashboard(browserConsole.run, address));
  const period = useStore(dashboard.$period);
  const figures = useStore(dashboard.$figures);
  const busy = useStore(dashboard.$busy);
  const notice = useStore(dashboard.$notice);
  useEffect(() => void dashboard.load(), [dashboard]);
  const days = useMemo(() => figures?.series.map((day) => day.day) ?? [], [figures]);
  const charts = useMemo(() => (figures ? chartsOf(figures.series, t) : []), [figures, t]);

  return (
    <section className="dashboard" aria-labelledby="dashboard-title" aria-busy={busy} data-dashboard={figures?.days ?? ''}>
      <div className="dashboard-head">
        <h2 id="dashboard-title">{t('console.dashboard.title')}</h2>
        <div className="dashboard-periods" role="group" aria-label={t('console.dashboard.period')}>
          {dashboardPeriods.map((days) => (
            <button
              key={days}
              type="button"
              className="button button-secondary button-small"
              aria-pressed={period === days}
              onClick={() => void dashboard.choose(days)}
              data-period={days}
            >
              {t('console.dashboard.days', { days })}
            </button>
          ))}
        </div>
      </div>
      <p className="muted">{t('console.dashboard.timeZone')}</p>
      <NoticeLine notice={notice} t={t} />
      {!figures ? (
        <Loading text={t('common.loading')} />
      ) : (
        <>
          <Totals figures={figures} t={t} locale={locale} />
          <div className="dashboard-charts">
            {charts.map((chart) =>
              chart.lines.length ? (
                <DashboardChart key={chart.id} {...chart} days={days} locale={locale} dayLabel={t('console.dashboard.day')} />
              ) : (
                <section key={chart.id} className="card dashboard-chart" aria-labelledby={`${chart.id}-title`} data-chart={chart.id}>
                  <h3 id={`${chart.id}-title`}>{chart.title}</h3>
                  <p className="muted">{t('console.dashboard.noCodes')}</p>
                </section>
              ),
            )}
          </div>
        </>
      )}
    </section>
  );
}

export default consoleIsland(Dashboard);
