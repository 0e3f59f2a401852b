/**
 * One chart of the dashboard: a line per figure over the period's days, drawn by uPlot (imported here and by no
 * public page, so only console pages load it) at its container's width — redrawn when the container resizes and
 * when the theme changes, in the colours of the site's tokens — with a table of the same figures beside it for
 * screen readers (the canvas itself is hidden from them).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatPrice } from '#contract/facts.ts';
import { formattingTag } from '#contract/locales.ts';
import { formatDay, formatMonthDay } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import './dashboard.css';

/** What a scale's numbers are: how they read, and the steps of its axis. */
export type Measure = 'count' | 'money' | 'rate';

export interface ChartLine {
  label: string;
  values: ReadonlyArray<number | null>;
  /** A colour token of the site's (`--accent`), so both themes read well. */
  color: string;
  dashed?: boolean;
  /** The right-hand scale (a second measure); the left one otherwise. */
  right?: boolean;
}

interface Props {
  id: string;
  title: string;
  /** The period's days, `YYYY-MM-DD`, oldest first. */
  days: readonly string[];
  lines: readonly ChartLine[];
  measure: Measure;
  /** The right-hand scale's measure, when a line uses it. */
  rightMeasure?: Measure;
  locale: LocaleCode;
  /** The table's first column header. */
  dayLabel: string;
}

const height = 220;

/** A figure as the legend and the table say it. */
export function formatFigure(value: number | null, measure: Measure, locale: LocaleCode): string {
  if (value === null) return '–';
  const tag = formattingTag(locale);
  if (measure === 'money') return formatPrice(value, locale);
  if (measure === 'rate') return new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 1 }).format(value);
  return new Intl.NumberFormat(tag).format(value);
}

/** An axis tick: money as the locale writes a price (its steps are whole yuan), counts compact when large. */
function formatTick(value: number, measure: Measure, locale: LocaleCode): string {
  const tag = formattingTag(locale);
  if (measure === 'money') return formatPrice(value, locale);
  if (measure === 'rate') return new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 0 }).format(value);
  return new Intl.NumberFormat(tag, { notation: 'compact' }).format(value);
}

/** The axis's steps: whole counts, whole yuan, tenths of a rate. */
const steps: Record<Measure, number[]> = {
  count: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000],
  money: [100, 200, 500, 1_000, 2_000, 5_000, 10_000, 50_000, 100_000, 500_000, 1_000_000, 5_000_000, 10_000_000, 100_000_000, 1_000_000_000],
  rate: [0.1, 0.2, 0.25, 0.5],
};

/** A token's colour now (it changes with the theme). */
const token = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** A day as uPlot's x value: its UTC midnight in seconds (read back in UTC, so the day never shifts with the browser's zone). */
const dayX = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
const xDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

function options(props: Props, width: number): uPlot.Options {
  const { lines, measure, rightMeasure, locale } = props;
  const muted = token('--muted');
  const grid = token('--border');
  const font = `12px ${token('--font') || 'sans-serif'}`;
  const axis = (side: Measure, right: boolean): uPlot.Axis => ({
    scale: right ? 'right' : 'left',
    side: right ? 1 : 3,
    stroke: muted,
    font,
    grid: { show: !right, stroke: grid, width: 1 },
    ticks: { stroke: grid, width: 1 },
    incrs: steps[side],
    values: (_plot, splits) => splits.map((value) => formatTick(value, side, locale)),
    size: (_plot, values) => (values ? Math.max(...values.map((value) => value.length)) * 7 + 18 : 40),
  });
  const range =
    (side: Measure) =>
    (_plot: uPlot, _min: number, max: number): uPlot.Range.MinMax =>
      side === 'rate' ? [0, 1] : [0, Math.max(max, steps[side][0] * 4)];
  return {
    width,
    height,
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'UTC'),
    cursor: { points: { size: 8 } },
    legend: { live: true },
    scales: { x: { time: true }, left: { range: range(measure) }, ...(rightMeasure ? { right: { range: range(rightMeasure) } } : {}) },
    axes: [
      {
        stroke: muted,
        font,
        grid: { show: false },
        ticks: { stroke: grid, width: 1 },
        // Whole days only, at least 5 apart on a narrow chart.
        incrs: [86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400, 28 * 86_400],
        space: 56,
        values: (_plot, splits) => splits.map((seconds) => formatMonthDay(xDay(seconds), locale)),
      },
      axis(measure, false),
      ...(rightMeasure ? [axis(rightMeasure, true)] : []),
    ],
    series: [
      { label: props.dayLabel, value: (_plot, seconds) => (seconds === null ? '' : formatMonthDay(xDay(seconds), locale)) },
      ...lines.map((line): uPlot.Series => ({
        label: line.label,
        scale: line.right ? 'right' : 'left',
        stroke: token(line.color),
        width: 2,
        dash: line.dashed ? [6, 4] : undefined,
        points: { show: props.days.length <= 31, size: 5, fill: token('--surface') },
        value: (_plot, value) => formatFigure(value, line.right ? rightMeasure! : measure, locale),
      })),
    ],
  };
}

export function DashboardChart(props: Props) {
  const { id, title, days, lines, measure, rightMeasure, locale, dayLabel } = props;
  const holder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = holder.current!;
    const data: uPlot.AlignedData = [days.map(dayX), ...lines.map((line) => [...line.values])];
    let plot = new uPlot(options(props, element.clientWidth), data, element);
    const resized = new ResizeObserver(() => {
      if (element.clientWidth !== plot.width) plot.setSize({ width: element.clientWidth, height });
    });
    resized.observe(element);
    // The theme is a class on <html>: a change redraws the chart in the new theme's colours.
    const themed = new MutationObserver(() => {
      plot.destroy();
      plot = new uPlot(options(props, element.clientWidth), data, element);
    });
    themed.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => {
      resized.disconnect();
      themed.disconnect();
      plot.destroy();
    };
    // The figures (new with each answer) and the language are what redraw it.
  }, [days, lines, measure, rightMeasure, locale]);

  return (
    <figure className="card dashboard-chart" aria-labelledby={`${id}-title`} data-chart={id}>
      <h3 id={`${id}-title`}>{title}</h3>
      <div ref={holder} className="dashboard-plot" aria-hidden="true" />
      {/* Hidden by its holder: a table keeps its content's width whatever its own box says, and would widen the page. */}
      <div className="visually-hidden">
        <table data-figures>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{dayLabel}</th>
              {lines.map((line) => (
                <th key={line.label} scope="col">
                  {line.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, index) => (
              <tr key={day}>
                <th scope="row">{formatDay(day, locale)}</th>
                {lines.map((line) => (
                  <td key={line.label}>{formatFigure(line.values[index], line.right ? rightMeasure! : measure, locale)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
