import type { TransactionActivity } from '@forecourt/contract/transactions';
import { Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type ActivityPeriod,
  hasNoTransactions,
  type Series,
  seriesTotals,
  transactionChartData,
} from '../transaction-chart-data.ts';
import { type BarChartRef, TransactionBarChart } from './transaction-bar-chart.tsx';
import { useChartTheme } from './use-chart-theme.ts';

export interface TransactionChartsProps {
  activity: TransactionActivity;
  /** Zone of the bucket labels. @default the browser's */
  timeZone?: string;
  /** Receives the two Chart.js instances (tests, benchmarks). */
  chartRefs?: Partial<Record<ActivityPeriod, BarChartRef>>;
}

const PERIODS: { period: ActivityPeriod; title: string }[] = [
  { period: 'hour', title: 'TRANSACTIONS_LAST_HOUR' },
  { period: 'day', title: 'TRANSACTIONS_LAST_24_HOURS' },
];

/** The two bar charts of the transaction activity widget (Chart.js: loaded lazily with this module). */
export default function TransactionCharts({ activity, timeZone, chartRefs }: TransactionChartsProps) {
  const { t, i18n } = useTranslation();
  const theme = useChartTheme();
  // biome-ignore lint/correctness/useExhaustiveDependencies: labels follow the language
  const seriesLabels = useMemo<Record<Series, string>>(
    () => ({
      normal: t('TRANSACTIONS_NORMAL'),
      zero: t('TRANSACTIONS_ZERO'),
      lt1: t('TRANSACTIONS_LT1'),
    }),
    [t, i18n.language],
  );
  return (
    <Stack gap={4} h="100%">
      {hasNoTransactions(activity) && (
        <Text size="xs" c="dimmed" ta="center" role="status">
          {t('NO_TRANSACTIONS')}
        </Text>
      )}
      {PERIODS.map(({ period, title }) => {
        const data = transactionChartData(activity, period, theme, seriesLabels, timeZone);
        const totals = seriesTotals(activity, period);
        const label = t('TRANSACTIONS_CHART_LABEL', {
          period: t(title),
          normal: totals.normal,
          zero: totals.zero,
          lt1: totals.lt1,
        });
        return (
          <Stack key={period} gap={0} style={{ flex: 1, minHeight: 0 }}>
            <Text size="xs" fw={600} c="dimmed" component="h3" m={0}>
              {t(title)}
            </Text>
            {/* Time runs left to right on the chart in every language (Arabic mirrors the page, not the axis). */}
            <div
              dir="ltr"
              style={{ position: 'relative', flex: 1, minHeight: 0 }}
              data-testid={`transactions-${period}`}
            >
              <TransactionBarChart
                data={data}
                theme={theme}
                label={label}
                legend={period === 'hour'}
                chartRef={chartRefs?.[period]}
              />
            </div>
          </Stack>
        );
      })}
    </Stack>
  );
}
