import type { AvailabilityRow } from '@forecourt/contract/reports';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  type ChartOptions,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { useEffect, useMemo, useState } from 'react';
import { Bar } from 'react-chartjs-2';
import { CHART_VARIABLES, readCssVariable } from '../../../../theme/chart-colors.ts';

// Tree-shaken Chart.js: horizontal bars with tooltips.
ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

function readColors() {
  return {
    bar: readCssVariable(CHART_VARIABLES.lt1) || '#ff3d71',
    grid: readCssVariable(CHART_VARIABLES.grid) || '#e4e9f2',
    text: readCssVariable(CHART_VARIABLES.text) || '#222b45',
  };
}

/** The theme's colours, read again when it switches. */
function useColors() {
  const [colors, setColors] = useState(readColors);
  useEffect(() => {
    const observer = new MutationObserver(() => setColors(readColors()));
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-mantine-color-scheme', 'style', 'class'],
    });
    return () => observer.disconnect();
  }, []);
  return colors;
}

/** The longest axis label, in characters, before it is shortened with an ellipsis. */
const AXIS_LABEL_MAX = 22;

/** `label`, or its first characters and an ellipsis when longer than the axis has room for. */
export function shortLabel(label: string): string {
  return label.length > AXIS_LABEL_MAX ? `${label.slice(0, AXIS_LABEL_MAX - 1).trimEnd()}…` : label;
}

export interface AvailabilityChartProps {
  /** The worst rows first; the chart shows their unavailability in percent. */
  rows: AvailabilityRow[];
  /** Accessible name of the chart. */
  label: string;
  /** Formats a percentage for the axis and tooltips. */
  formatPercent: (value: number) => string;
  rtl?: boolean;
}

/** The worst sites (or terminals) as horizontal bars of their unavailability. Loaded with the chart, on demand. */
export default function AvailabilityChart({
  rows,
  label,
  formatPercent,
  rtl = false,
}: AvailabilityChartProps) {
  const colors = useColors();
  const data = useMemo(
    () => ({
      labels: rows.map((r) => r.name),
      datasets: [
        {
          id: 'downtime',
          label,
          data: rows.map((r) => Math.round((1 - r.availability) * 1_000_000) / 10_000),
          backgroundColor: colors.bar,
        },
      ],
    }),
    [rows, label, colors.bar],
  );
  const options = useMemo<ChartOptions<'bar'>>(
    () => ({
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        legend: { display: false },
        tooltip: { rtl, callbacks: { label: (c) => formatPercent(Number(c.raw)) } },
      },
      scales: {
        x: {
          reverse: rtl,
          beginAtZero: true,
          grid: { color: colors.grid },
          ticks: { color: colors.text, callback: (v) => formatPercent(Number(v)) },
        },
        y: {
          position: rtl ? 'right' : 'left',
          grid: { display: false },
          // Long site names are shortened on the axis (the tooltip and the table give them whole): Chart.js
          // otherwise clips them at the chart's edge on a phone.
          ticks: {
            color: colors.text,
            callback(value) {
              return shortLabel(this.getLabelForValue(Number(value)));
            },
          },
        },
      },
    }),
    [colors, formatPercent, rtl],
  );
  return (
    <div style={{ position: 'relative', height: Math.max(120, rows.length * 28 + 40) }}>
      <Bar data={data} options={options} datasetIdKey="id" role="img" aria-label={label} />
    </div>
  );
}
