import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { siteQueries } from '../../../lib/api/sites.ts';
import type { SiteScope } from '../../../lib/scope.ts';
import { useTransactionActivity } from '../api/get-transaction-activity.ts';
import classes from './transaction-activity.module.css';

// Chart.js loads with the widget (alongside its data), not with the page.
const loadCharts = () => import('./transaction-charts.tsx');
const TransactionCharts = lazy(loadCharts);

/** Box height of transaction activity (docs/product.md#common-to-every-widget). */
export const TRANSACTION_ACTIVITY_HEIGHT = 450;

export interface TransactionActivityWidgetProps {
  scope: SiteScope;
  /** Zone of the bucket labels. @default the browser's */
  timeZone?: string;
}

/** On a site's dashboard: the buckets labelled in the site's own time zone (from the site detail the page reads). */
export function SiteTransactionActivityWidget({ scope }: { scope: SiteScope }) {
  const site = useQuery(siteQueries.detail(scope.id));
  return <TransactionActivityWidget scope={scope} timeZone={site.data?.timezone} />;
}

/** Transaction activity of a site: last hour and last 24 hours, normal / zero-value / under one litre. */
export function TransactionActivityWidget({ scope, timeZone }: TransactionActivityWidgetProps) {
  const { t } = useTranslation();
  const query = useTransactionActivity(scope);
  useEffect(() => {
    void loadCharts();
  }, []);
  return (
    <WidgetCard
      title={t('TRANSACTION_ACTIVITY')}
      info={{ title: t('TRANSACTION_ACTIVITY'), description: t('TRANSACTION_ACTIVITY_INFO') }}
      height={TRANSACTION_ACTIVITY_HEIGHT}
      className={classes.box}
      {...widgetQueryState(query)}
      data-testid="transaction-activity"
    >
      {query.data && (
        <Suspense
          fallback={
            <Center h="100%">
              <Loader size="sm" />
            </Center>
          }
        >
          <TransactionCharts activity={query.data} timeZone={timeZone} />
        </Suspense>
      )}
    </WidgetCard>
  );
}
