import type { TransactionActivity } from '@forecourt/contract/transactions';
import { CHART_VARIABLES } from '../../theme/chart-colors.ts';

/** The two charts: the last hour (12 five-minute buckets) and the last 24 hours (24 hourly buckets). */
export type ActivityPeriod = 'hour' | 'day';

/** The three series, in the order they are drawn and listed: normal, zero-value, under one litre. */
export const SERIES = ['normal', 'zero', 'lt1'] as const;
export type Series = (typeof SERIES)[number];

export type SeriesColors = Record<Series, string>;
export interface ChartTheme extends SeriesColors {
  grid: string;
  axis: string;
  text: string;
}

/** Used only when the theme variables cannot be read (e.g. before the stylesheet loads). */
export const FALLBACK_THEME: ChartTheme = {
  normal: '#3366ff',
  zero: '#ffaa00',
  lt1: '#ff3d71',
  grid: '#e4e9f2',
  axis: '#8f9bb3',
  text: '#222b45',
};

/** The chart colours of the current theme (light or cosmic), from the theme's CSS variables. */
export function readChartTheme(element: Element = document.documentElement): ChartTheme {
  const style = getComputedStyle(element);
  const read = (key: keyof ChartTheme) =>
    style.getPropertyValue(CHART_VARIABLES[key]).trim() || FALLBACK_THEME[key];
  return {
    normal: read('normal'),
    zero: read('zero'),
    lt1: read('lt1'),
    grid: read('grid'),
    axis: read('axis'),
    text: read('text'),
  };
}

const FIELDS: Record<
  ActivityPeriod,
  { series: Record<Series, keyof TransactionActivity>; buckets: keyof TransactionActivity }
> = {
  hour: {
    series: {
      normal: 'transaction_in_1_hour',
      zero: 'transaction_0_in_1_hour',
      lt1: 'transaction_lt1_in_1_hour',
    },
    buckets: 'buckets_1_hour',
  },
  day: {
    series: {
      normal: 'transaction_in_24_hours',
      zero: 'transaction_0_in_24_hours',
      lt1: 'transaction_lt1_in_24_hours',
    },
    buckets: 'buckets_24_hours',
  },
};

/** Bucket start as a 24-hour clock label ('09:05'), in the given zone (the browser's by default). */
export function bucketLabel(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).formatToParts(date);
  const hour = parts.find((p) => p.type === 'hour')?.value ?? '00';
  const minute = parts.find((p) => p.type === 'minute')?.value ?? '00';
  return `${hour}:${minute}`;
}

export interface ActivityDataset {
  /** Stable id: Chart.js keeps (and animates) the dataset with the same id when new data arrives. */
  id: Series;
  label: string;
  data: number[];
  backgroundColor: string;
  borderColor: string;
  stack: string;
}

export interface ActivityChartData {
  labels: string[];
  datasets: ActivityDataset[];
}

/** The data of one chart: bucket labels oldest first and the three series in SERIES order. */
export function transactionChartData(
  activity: TransactionActivity,
  period: ActivityPeriod,
  theme: SeriesColors,
  seriesLabels: Record<Series, string>,
  timeZone?: string,
): ActivityChartData {
  const fields = FIELDS[period];
  const buckets = activity[fields.buckets] as string[];
  return {
    labels: buckets.map((b) => bucketLabel(b, timeZone)),
    datasets: SERIES.map((series) => ({
      id: series,
      label: seriesLabels[series],
      data: [...(activity[fields.series[series]] as number[])],
      backgroundColor: theme[series],
      borderColor: theme[series],
      stack: 'transactions',
    })),
  };
}

/** Totals per series over a period, for the chart's accessible description. */
export function seriesTotals(activity: TransactionActivity, period: ActivityPeriod): Record<Series, number> {
  const fields = FIELDS[period];
  const sum = (key: keyof TransactionActivity) => (activity[key] as number[]).reduce((a, b) => a + b, 0);
  return {
    normal: sum(fields.series.normal),
    zero: sum(fields.series.zero),
    lt1: sum(fields.series.lt1),
  };
}

/** No transaction at all in the last 24 hours (which covers the last hour too). */
export function hasNoTransactions(activity: TransactionActivity): boolean {
  const totals = seriesTotals(activity, 'day');
  const hour = seriesTotals(activity, 'hour');
  return SERIES.every((s) => totals[s] === 0 && hour[s] === 0);
}
