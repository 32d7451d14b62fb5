import type { TelemetrySignal } from '@forecourt/contract/telemetry-history';
import { Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { WidgetCard, widgetQueryState } from '../../../../components/widget-card.tsx';
import { formatLocale } from '../../../../i18n/languages.ts';
import { telemetryQueries } from '../../../../lib/api/telemetry-history.ts';
import { formatReading, mergeHistory, SIGNAL_VIEW, summarize } from './chart-data.ts';
import { type ChartRange, PRESET_MS, resolveRange } from './chart-range.ts';
import { HistoryChart } from './history-chart.tsx';

/**
 * A live chart's tail is read from this long before its range's end: a browser clock ahead of the server's would
 * otherwise ask for readings after the ones being written. What the range already holds is not drawn twice.
 */
export const TAIL_MARGIN_MS = 2 * 60_000;
/** A tail longer than this is folded into a new range (read again, ending now). */
export const TAIL_MAX_POINTS = 1000;

export interface SignalChartProps {
  terminalId: number;
  signal: TelemetrySignal;
  range: ChartRange;
  /** When a preset range was last read: it ends then, and its tail starts there. */
  anchor: number;
  timeZone?: string;
  onZoom: (from: number, to: number) => void;
  /** The tail has grown too long: read the range again, ending now. */
  onRebase: () => void;
}

/** A bucket's width in words: "5 min", "3 h", "2 d". */
export function stepText(t: TFunction, seconds: number): string {
  if (seconds < 3600) return t('TERMINAL_PAGE_STEP_MINUTES', { n: Math.max(1, Math.round(seconds / 60)) });
  if (seconds < 86_400) return t('TERMINAL_PAGE_STEP_HOURS', { n: Math.round((seconds / 3600) * 10) / 10 });
  return t('TERMINAL_PAGE_STEP_DAYS', { n: Math.round((seconds / 86_400) * 10) / 10 });
}

/** One reading of the terminal over the chosen range, with what arrives live appended while it ends now. */
export function SignalChart({
  terminalId,
  signal,
  range,
  anchor,
  timeZone,
  onZoom,
  onRebase,
}: SignalChartProps) {
  const { t, i18n } = useTranslation();
  const locale = formatLocale(i18n.resolvedLanguage ?? i18n.language);
  const view = SIGNAL_VIEW[signal];
  const live = range.kind === 'preset';
  const { from, to } = resolveRange(range, anchor);
  const base = useQuery(
    telemetryQueries.range(terminalId, signal, new Date(from).toISOString(), new Date(to).toISOString()),
  );
  const tail = useQuery({
    ...telemetryQueries.tail(terminalId, signal, new Date(anchor - TAIL_MARGIN_MS).toISOString()),
    enabled: live,
  });
  const data = useMemo(
    () => mergeHistory(base.data, live ? tail.data : undefined),
    [base.data, tail.data, live],
  );
  const end = live ? Math.max(to, tail.dataUpdatedAt || to) : to;
  const start = live && range.kind === 'preset' ? end - PRESET_MS[range.preset] : from;
  const window = useMemo(() => [start, end] as const, [start, end]);

  const tooLong = !!tail.data && (tail.data.step_s > 0 || tail.data.points.length > TAIL_MAX_POINTS);
  useEffect(() => {
    if (live && tooLong) onRebase();
  }, [live, tooLong, onRebase]);

  const summary = summarize(data);
  const write = (v: number | null) => formatReading(v, view.unit, locale);
  const title = t(view.label);
  const step = base.data?.step_s ?? 0;
  return (
    <WidgetCard
      title={title}
      {...widgetQueryState(base)}
      updatedAt={
        live ? tail.dataUpdatedAt || base.dataUpdatedAt || undefined : base.dataUpdatedAt || undefined
      }
      empty={data.x.length === 0}
      emptyMessage={t('TERMINAL_PAGE_NO_READINGS')}
      data-testid={`chart-${signal}`}
    >
      <HistoryChart
        data={data}
        window={window}
        label={title}
        timeLabel={t('TERMINAL_PAGE_CHART_TIME')}
        lowLabel={t('TERMINAL_PAGE_CHART_LOWEST')}
        highLabel={t('TERMINAL_PAGE_CHART_HIGHEST')}
        unit={view.unit}
        percent={view.percent}
        timeZone={timeZone}
        locale={locale}
        onZoom={onZoom}
        ariaLabel={t('TERMINAL_PAGE_CHART_LABEL', {
          signal: title,
          n: summary.count,
          latest: write(summary.latest),
          lowest: write(summary.lowest),
          highest: write(summary.highest),
        })}
      />
      <Group gap="md" mt={4} wrap="wrap">
        <Text size="xs" c="dimmed">
          {t('TERMINAL_PAGE_CHART_LATEST', { value: write(summary.latest) })}
        </Text>
        <Text size="xs" c="dimmed">
          {t('TERMINAL_PAGE_CHART_RANGE', { lowest: write(summary.lowest), highest: write(summary.highest) })}
        </Text>
        <Text size="xs" c="dimmed" data-testid="chart-points">
          {step > 0
            ? t('TERMINAL_PAGE_CHART_BUCKETS', { n: summary.count, step: stepText(t, step) })
            : t('TERMINAL_PAGE_CHART_READINGS', { n: summary.count })}
        </Text>
      </Group>
    </WidgetCard>
  );
}
