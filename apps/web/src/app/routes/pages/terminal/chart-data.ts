import type { TelemetryHistory, TelemetrySignal } from '@forecourt/contract/telemetry-history';

/** What one chart draws, column by column as uPlot takes it: times in seconds, then avg, min and max. */
export interface ChartData {
  x: number[];
  avg: number[];
  min: number[];
  max: number[];
  /** Buckets of several readings (a min–max band is drawn around the mean), not readings as they are. */
  bucketed: boolean;
}

/** How each signal reads: its unit, and a fixed scale for percentages (temperatures scale to their data). */
export const SIGNAL_VIEW: Record<TelemetrySignal, { label: string; unit: string; percent: boolean }> = {
  battery_life: { label: 'TERMINAL_PAGE_SIGNAL_BATTERY_LIFE', unit: '%', percent: true },
  flash_left: { label: 'TERMINAL_PAGE_SIGNAL_FLASH_LEFT', unit: '%', percent: true },
  temperature_main_board: {
    label: 'TERMINAL_PAGE_SIGNAL_TEMPERATURE_MAIN_BOARD',
    unit: '°C',
    percent: false,
  },
  temperature_inside_cabinet: {
    label: 'TERMINAL_PAGE_SIGNAL_TEMPERATURE_INSIDE_CABINET',
    unit: '°C',
    percent: false,
  },
  humidity_inside_cabinet: {
    label: 'TERMINAL_PAGE_SIGNAL_HUMIDITY_INSIDE_CABINET',
    unit: '%',
    percent: true,
  },
};

/**
 * A chart's range followed by what arrived since (its tail, read from a little before the range's end): the tail's
 * readings after the range's last bucket are appended, so none is drawn twice.
 */
export function mergeHistory(base: TelemetryHistory | undefined, tail?: TelemetryHistory): ChartData {
  const data: ChartData = { x: [], avg: [], min: [], max: [], bucketed: (base?.step_s ?? 0) > 0 };
  if (!base) return data;
  const push = (p: TelemetryHistory['points'][number]) => {
    data.x.push(Date.parse(p.at) / 1000);
    data.avg.push(p.avg);
    data.min.push(p.min);
    data.max.push(p.max);
  };
  for (const p of base.points) push(p);
  if (tail) {
    const last = base.points.at(-1);
    const after = last ? Date.parse(last.at) + Math.max(base.step_s * 1000, 1) : Date.parse(base.from);
    for (const p of tail.points) if (Date.parse(p.at) >= after) push(p);
  }
  return data;
}

export interface ChartSummary {
  count: number;
  latest: number | null;
  lowest: number | null;
  highest: number | null;
}

/** What a chart says in words (its accessible name): how many points, the latest, the lowest and the highest. */
export function summarize(data: ChartData): ChartSummary {
  if (!data.x.length) return { count: 0, latest: null, lowest: null, highest: null };
  return {
    count: data.x.length,
    latest: data.avg[data.avg.length - 1] ?? null,
    lowest: Math.min(...data.min),
    highest: Math.max(...data.max),
  };
}

/** A reading as the page writes it: one decimal at most, with its unit. */
export function formatReading(value: number | null | undefined, unit: string, locale?: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  const n = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);
  return unit === '%' ? `${n}%` : `${n} ${unit}`;
}
