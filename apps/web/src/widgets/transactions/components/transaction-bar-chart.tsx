import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  type ChartOptions,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { type ForwardedRef, useMemo } from 'react';
import { Bar } from 'react-chartjs-2';
import type { ActivityChartData, ChartTheme } from '../transaction-chart-data.ts';

// Tree-shaken Chart.js: only what a stacked bar chart with a legend and tooltips needs.
ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/** Receives the Chart.js instance (undefined until the canvas is ready). */
export type BarChartRef = ForwardedRef<ChartJS<'bar', number[], string> | undefined>;

export interface TransactionBarChartProps {
  data: ActivityChartData;
  theme: ChartTheme;
  /** Accessible name of the canvas (what the chart shows, with its totals). */
  label: string;
  /** Show the series legend above the chart. @default true */
  legend?: boolean;
  chartRef?: BarChartRef;
}

/**
 * One bar chart. New data updates the chart in place (datasets matched by `id`), so polling never
 * re-creates the canvas.
 */
export function TransactionBarChart({
  data,
  theme,
  label,
  legend = true,
  chartRef,
}: TransactionBarChartProps) {
  const options = useMemo<ChartOptions<'bar'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: { duration: 300 },
      plugins: {
        legend: {
          display: legend,
          position: 'top',
          align: 'end',
          labels: { color: theme.text, boxWidth: 10, boxHeight: 10, font: { size: 11 } },
        },
        tooltip: { mode: 'index', intersect: false },
      },
      scales: {
        x: {
          stacked: true,
          grid: { display: false },
          border: { color: theme.axis },
          ticks: { color: theme.text, autoSkip: true, maxRotation: 0, font: { size: 10 } },
        },
        y: {
          stacked: true,
          beginAtZero: true,
          grid: { color: theme.grid },
          border: { display: false },
          ticks: { color: theme.text, precision: 0, font: { size: 10 } },
        },
      },
    }),
    [theme, legend],
  );
  return <Bar ref={chartRef} data={data} options={options} datasetIdKey="id" role="img" aria-label={label} />;
}
