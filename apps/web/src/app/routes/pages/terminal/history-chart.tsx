import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_VARIABLES, readCssVariable } from '../../../../theme/chart-colors.ts';
import type { ChartData } from './chart-data.ts';
import './history-chart.css';

/** The theme's chart colours (theme.css), read as real colours: canvas cannot use `var(...)`. */
interface ChartColors {
  line: string;
  grid: string;
  axis: string;
  text: string;
}

const FALLBACK: ChartColors = { line: '#3366ff', grid: '#e4e9f2', axis: '#8f9bb3', text: '#222b45' };

function readColors(): ChartColors {
  return {
    line: readCssVariable(CHART_VARIABLES.normal) || FALLBACK.line,
    grid: readCssVariable(CHART_VARIABLES.grid) || FALLBACK.grid,
    axis: readCssVariable(CHART_VARIABLES.axis) || FALLBACK.axis,
    text: readCssVariable(CHART_VARIABLES.text) || FALLBACK.text,
  };
}

/** The chart colours of the current theme, read again when it switches (light ⇄ cosmic). */
function useChartColors(): ChartColors {
  const [colors, setColors] = useState(readColors);
  useEffect(() => {
    const update = () =>
      setColors((prev) => {
        const next = readColors();
        return JSON.stringify(prev) === JSON.stringify(next) ? prev : next;
      });
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-mantine-color-scheme', 'style', 'class'],
    });
    return () => observer.disconnect();
  }, []);
  return colors;
}

/** `#3366ff` at the given opacity; any other colour is returned as it is. */
export function withAlpha(color: string, alpha: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return color;
  const n = Number.parseInt(m[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** The month and weekday names uPlot writes on its time axis, in the page's language. */
function dateNames(locale: string) {
  const names = (options: Intl.DateTimeFormatOptions, count: number, at: (i: number) => Date) => {
    const f = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    return Array.from({ length: count }, (_, i) => f.format(at(i)));
  };
  const month = (i: number) => new Date(Date.UTC(2026, i, 15));
  // 2026-02-01 is a Sunday: uPlot's weekdays start on Sunday.
  const day = (i: number) => new Date(Date.UTC(2026, 1, 1 + i));
  return {
    MMMM: names({ month: 'long' }, 12, month),
    MMM: names({ month: 'short' }, 12, month),
    WWWW: names({ weekday: 'long' }, 7, day),
    WWW: names({ weekday: 'short' }, 7, day),
  };
}

const isZone = (zone: string | undefined): zone is string => {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export interface HistoryChartProps {
  data: ChartData;
  /** The time window drawn, in ms (a chart keeps it whatever its data covers). */
  window: readonly [number, number];
  /** The reading's name (legend), translated. */
  label: string;
  /** "Time", "Lowest" and "Highest" (legend), translated. */
  timeLabel: string;
  lowLabel: string;
  highLabel: string;
  unit: string;
  /** Percentages are drawn on 0–100; other readings on a scale fitted to them. */
  percent: boolean;
  /** The site's IANA zone: the time axis is in the site's time, like the logs. */
  timeZone?: string;
  /** The locale of dates and numbers. */
  locale: string;
  /** A drag across the chart selected this window (ms). */
  onZoom: (from: number, to: number) => void;
  /** The chart in words, for those who cannot see it. */
  ariaLabel: string;
  height?: number;
}

/**
 * One reading over time, drawn by uPlot on a canvas: the mean as a line and, for buckets of several readings, the
 * band from their lowest to their highest. Dragging across it selects a time window (`onZoom`); the legend reads the
 * values under the pointer. Time runs left to right in every language, as on the console's other charts.
 */
export function HistoryChart(props: HistoryChartProps) {
  const {
    data,
    window,
    label,
    timeLabel,
    lowLabel,
    highLabel,
    unit,
    percent,
    timeZone,
    locale,
    height = 220,
  } = props;
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const colors = useChartColors();
  const latest = useRef(props);
  latest.current = props;
  const bucketed = data.bucketed;

  // The chart itself, made again when what its options hold changes (theme, language, zone, bands).
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const zone = isZone(timeZone) ? timeZone : undefined;
    const names = dateNames(locale);
    const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    const when = new Intl.DateTimeFormat(locale, {
      timeZone: zone,
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const hours = new Intl.DateTimeFormat(locale, {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const days = new Intl.DateTimeFormat(locale, { timeZone: zone, day: 'numeric', month: 'short' });
    const withUnit = (v: number | null | undefined) =>
      v === null || v === undefined
        ? '-'
        : unit === '%'
          ? `${number.format(v)}%`
          : `${number.format(v)} ${unit}`;
    const value = (_u: uPlot, v: number | null) => withUnit(v);
    const series: uPlot.Series[] = [
      { label: timeLabel, value: (_u, v) => (v === null || v === undefined ? '-' : when.format(v * 1000)) },
      { label, stroke: colors.line, width: 2, value },
    ];
    if (bucketed) {
      const edge = withAlpha(colors.line, 0.35);
      series.push(
        { label: lowLabel, stroke: edge, width: 1, value },
        { label: highLabel, stroke: edge, width: 1, value },
      );
    }
    const axis = (extra: uPlot.Axis = {}): uPlot.Axis => ({
      stroke: colors.text,
      grid: { stroke: colors.grid, width: 1 },
      ticks: { stroke: colors.axis, width: 1 },
      ...extra,
    });
    const options: uPlot.Options = {
      width: Math.max(el.clientWidth, 200),
      height,
      series,
      bands: bucketed ? [{ series: [3, 2], fill: withAlpha(colors.line, 0.15) }] : undefined,
      scales: {
        x: {
          time: true,
          range: () => [latest.current.window[0] / 1000, latest.current.window[1] / 1000],
        },
        y: percent
          ? { range: (_u, _min, max) => [0, Math.max(100, max ?? 100)] }
          : { range: (_u, min, max) => uPlot.rangeNum(min ?? 0, max ?? 1, 0.1, true) },
      },
      axes: [
        // Ticks in the page's language and the site's zone: hours within a day, days beyond.
        axis({
          space: 56,
          values: (_u, splits, _axis, _space, incr) =>
            splits.map((v) => (incr < 86_400 ? hours : days).format(v * 1000)),
        }),
        axis({ size: 56, values: (_u, splits) => splits.map((v) => withUnit(v)) }),
      ],
      cursor: { drag: { x: true, y: false, setScale: false } },
      legend: { show: true, live: true },
      tzDate: zone ? (ts) => uPlot.tzDate(new Date(ts * 1000), zone) : undefined,
      fmtDate: (template) => uPlot.fmtDate(template, names),
      hooks: {
        setSelect: [
          (u) => {
            if (u.select.width < 2) return;
            const from = u.posToVal(u.select.left, 'x') * 1000;
            const to = u.posToVal(u.select.left + u.select.width, 'x') * 1000;
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            latest.current.onZoom(from, to);
          },
        ],
      },
    };
    const d = latest.current.data;
    const aligned: uPlot.AlignedData = bucketed ? [d.x, d.avg, d.min, d.max] : [d.x, d.avg];
    const u = new uPlot(options, aligned, el);
    plot.current = u;
    const resize = new ResizeObserver(() => {
      const width = Math.max(el.clientWidth, 200);
      if (width !== u.width) u.setSize({ width, height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [colors, locale, timeZone, unit, label, timeLabel, lowLabel, highLabel, percent, bucketed, height]);

  // New data or a new window: drawn on the chart there is (the x scale reads the window through `latest`).
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new window alone redraws too
  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    u.setData(data.bucketed ? [data.x, data.avg, data.min, data.max] : [data.x, data.avg]);
  }, [data, window]);

  return (
    <div
      ref={box}
      className="fc-history-chart"
      dir="ltr"
      role="img"
      aria-label={props.ariaLabel}
      data-points={data.x.length}
      data-from={Math.round(window[0])}
      data-to={Math.round(window[1])}
    />
  );
}
