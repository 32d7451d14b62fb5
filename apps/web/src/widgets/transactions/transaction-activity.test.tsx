import 'vitest-canvas-mock';
import type { TransactionActivity } from '@forecourt/contract/transactions';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { Chart as ChartJS } from 'chart.js';
import { createRef } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { TransactionActivityWidget } from './components/transaction-activity.tsx';
import TransactionCharts from './components/transaction-charts.tsx';
import {
  bucketLabel,
  hasNoTransactions,
  readChartTheme,
  SERIES,
  transactionChartData,
} from './transaction-chart-data.ts';

const END = Date.parse('2024-05-01T10:00:00Z');

function activity(fill: (series: number, bucket: number) => number = () => 0): TransactionActivity {
  const hour = (s: number) => Array.from({ length: 12 }, (_, i) => fill(s, i));
  const day = (s: number) => Array.from({ length: 24 }, (_, i) => fill(s, i));
  return {
    transaction_in_1_hour: hour(0),
    transaction_0_in_1_hour: hour(1),
    transaction_lt1_in_1_hour: hour(2),
    buckets_1_hour: Array.from({ length: 12 }, (_, i) => new Date(END - (12 - i) * 300_000).toISOString()),
    transaction_in_24_hours: day(0),
    transaction_0_in_24_hours: day(1),
    transaction_lt1_in_24_hours: day(2),
    buckets_24_hours: Array.from({ length: 24 }, (_, i) =>
      new Date(END - (24 - i) * 3_600_000).toISOString(),
    ),
  };
}

const LABELS = { normal: 'Normal', zero: 'Zero value', lt1: 'Under 1 litre' };
const THEME = { normal: '#111111', zero: '#222222', lt1: '#333333' };

/** The chart data of `activity(count)` over a window, labelled in UTC. */
const chartData = (count: (series: number, bucket: number) => number, window: 'hour' | 'day') =>
  transactionChartData(activity(count), window, THEME, LABELS, 'UTC');

describe('transaction chart data', () => {
  it('maps the last hour to 12 five-minute buckets and the three series in order with their colours', () => {
    const data = chartData((s, b) => s * 100 + b, 'hour');
    expect(data.labels).toHaveLength(12);
    expect(data.labels[0]).toBe('09:00');
    expect(data.labels[1]).toBe('09:05');
    expect(data.labels[11]).toBe('09:55');
    expect(data.datasets.map((d) => d.id)).toEqual(['normal', 'zero', 'lt1']);
    expect(data.datasets.map((d) => d.label)).toEqual(['Normal', 'Zero value', 'Under 1 litre']);
    expect(data.datasets.map((d) => d.backgroundColor)).toEqual(['#111111', '#222222', '#333333']);
    expect(data.datasets[0].data[3]).toBe(3);
    expect(data.datasets[1].data[3]).toBe(103);
    expect(data.datasets[2].data[11]).toBe(211);
  });

  it('maps the last 24 hours to 24 hourly buckets, oldest first', () => {
    const data = chartData((s, b) => (s === 2 ? b : 0), 'day');
    expect(data.labels).toHaveLength(24);
    expect(data.labels[0]).toBe('10:00');
    expect(data.labels[23]).toBe('09:00');
    expect(data.datasets[2].data).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(data.datasets[0].data.every((v) => v === 0)).toBe(true);
  });

  it('labels buckets in the given time zone', () => {
    expect(bucketLabel('2024-05-01T09:05:00Z', 'Europe/London')).toBe('10:05');
    expect(bucketLabel('2024-01-01T23:00:00Z', 'UTC')).toBe('23:00');
  });

  it('takes the colours from the theme variables', () => {
    const root = document.documentElement;
    root.style.setProperty('--fc-chart-normal', '#a16eff');
    root.style.setProperty('--fc-chart-zero', '#ffc94d');
    root.style.setProperty('--fc-chart-lt1', '#ff708d');
    try {
      const theme = readChartTheme(root);
      expect([theme.normal, theme.zero, theme.lt1]).toEqual(['#a16eff', '#ffc94d', '#ff708d']);
    } finally {
      root.removeAttribute('style');
    }
  });

  it('is empty only when no series has a transaction in either period', () => {
    expect(hasNoTransactions(activity())).toBe(true);
    expect(hasNoTransactions(activity((s, b) => (s === 1 && b === 11 ? 1 : 0)))).toBe(false);
  });
});

describe('TransactionCharts', () => {
  it('draws two charts and updates them in place when new data arrives', async () => {
    const hourRef = createRef<ChartJS<'bar', number[], string> | undefined>();
    const dayRef = createRef<ChartJS<'bar', number[], string> | undefined>();
    const first = activity((s, b) => (s === 0 ? b : 1));
    const { rerender } = renderWithProviders(
      <TransactionCharts activity={first} timeZone="UTC" chartRefs={{ hour: hourRef, day: dayRef }} />,
    );
    expect(screen.getByRole('heading', { name: 'Last hour' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Last 24 hours' })).toBeInTheDocument();
    const hourCanvas = screen.getByRole('img', {
      name: /Last hour: 66 normal, 12 zero value, 12 under 1 litre/,
    });
    expect(hourCanvas.tagName).toBe('CANVAS');
    await waitFor(() => expect(hourRef.current).toBeTruthy());
    const chart = hourRef.current as ChartJS<'bar', number[], string>;
    const datasets = [...chart.data.datasets];
    expect(datasets.map((d) => d.label)).toEqual(['Normal', 'Zero value', 'Under 1 litre']);
    expect(chart.data.labels).toEqual(transactionChartData(first, 'hour', THEME, LABELS, 'UTC').labels);
    expect(dayRef.current?.data.labels).toHaveLength(24);

    const next = activity((s, b) => (s === 0 ? b + 5 : 2));
    rerender(<TransactionCharts activity={next} timeZone="UTC" chartRefs={{ hour: hourRef, day: dayRef }} />);
    await waitFor(() => expect(hourRef.current?.data.datasets[0].data[0]).toBe(5));
    // Same Chart.js instance, same canvas and same dataset objects: updated, not re-created.
    expect(hourRef.current).toBe(chart);
    expect(screen.getByRole('img', { name: /Last hour: 126 normal/ })).toBe(hourCanvas);
    chart.data.datasets.forEach((d, i) => {
      expect(d).toBe(datasets[i]);
    });
    expect(chart.data.datasets[1].data).toEqual(Array(12).fill(2));
  });

  it('recolours the series when the theme changes', async () => {
    const hourRef = createRef<ChartJS<'bar', number[], string> | undefined>();
    renderWithProviders(<TransactionCharts activity={activity(() => 1)} chartRefs={{ hour: hourRef }} />);
    await waitFor(() => expect(hourRef.current).toBeTruthy());
    const chart = hourRef.current as ChartJS<'bar', number[], string>;
    await act(async () => {
      document.documentElement.style.setProperty('--fc-chart-normal', '#a16eff');
    });
    await waitFor(() => expect(chart.data.datasets[0].backgroundColor).toBe('#a16eff'));
    expect(hourRef.current).toBe(chart);
    document.documentElement.removeAttribute('style');
  });
});

describe('TransactionActivityWidget', () => {
  beforeEach(() => {
    document.documentElement.removeAttribute('style');
  });
  afterEach(() => {
    document.documentElement.removeAttribute('style');
  });

  it('loads the site activity into a 450 px box with both charts', async () => {
    const fetch = mockFetch({ 'GET /api/transactions/101/': json(activity((s) => s + 1)) });
    renderWithProviders(<TransactionActivityWidget scope={{ kind: 'site', id: 101 }} />);
    const card = screen.getByRole('region', { name: 'Transaction activity' });
    // Mantine writes 450 px as rem: 450 / 16 = 28.125.
    expect(card.style.height).toContain('28.125rem');
    expect(within(card).getByRole('status', { name: 'Loading...' })).toBeInTheDocument();
    expect(
      await within(card).findByRole('img', { name: /Last hour: 12 normal, 24 zero value, 36 under 1 litre/ }),
    ).toBeInTheDocument();
    expect(
      within(card).getByRole('img', { name: /Last 24 hours: 24 normal, 48 zero value, 72 under 1 litre/ }),
    ).toBeInTheDocument();
    expect(within(card).getByText(/^Updated/)).toBeInTheDocument();
    expect(fetch.find('GET', '/api/transactions/101/')).toHaveLength(1);
  });

  it('says so when the site had no transaction in the last 24 hours, and still draws both (empty) charts', async () => {
    mockFetch({ 'GET /api/transactions/5/': json(activity()) });
    renderWithProviders(<TransactionActivityWidget scope={{ kind: 'site', id: 5 }} />);
    expect(await screen.findByText('No transactions in the last 24 hours')).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /Last hour: 0 normal, 0 zero value, 0 under 1 litre/ }),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Last 24 hours: 0 normal/ })).toBeInTheDocument();
  });

  it('shows the error state when the activity cannot be loaded', async () => {
    mockFetch({ 'GET /api/transactions/5/': json({ data: { errors: ['Forbidden'] } }, 403) });
    renderWithProviders(<TransactionActivityWidget scope={{ kind: 'site', id: 5 }} />);
    expect(await screen.findByText('This widget could not load its data.')).toBeInTheDocument();
    expect(screen.getByText('Forbidden')).toBeInTheDocument();
  });

  it('opens the info modal', async () => {
    mockFetch({ 'GET /api/transactions/5/': json(activity()) });
    const { user } = renderWithProviders(<TransactionActivityWidget scope={{ kind: 'site', id: 5 }} />);
    await user.click(screen.getByRole('button', { name: 'About Transaction activity' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction activity' });
    expect(within(dialog).getByText(/five-minute bars/)).toBeInTheDocument();
  });
});

it('orders series normal, zero, under one litre', () => {
  expect(SERIES).toEqual(['normal', 'zero', 'lt1']);
});
