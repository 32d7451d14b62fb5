import { eventName, formatDateSafe } from '@forecourt/contract/formatters';
import { logPath } from '@forecourt/contract/log-paths';
import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { type Alert, alertQueries } from '../../../lib/api/alerts.ts';
import { isValidScope, type Scope } from '../../../lib/scope.ts';

export interface AlertsWidgetProps {
  scope: Scope;
  /** Box height in px. @default 360 */
  height?: number;
}

export interface AlertRow {
  id: number;
  /** The part of the alert text before the first colon. */
  event: string;
  date: string;
  text: string;
  number: string;
  site_name: string;
  customer_name: string;
}

/** One display row per alert; odd records (missing text or dates) still give a row. */
export function toAlertRow(alert: Partial<Alert>, index: number): AlertRow {
  const date = formatDateSafe(alert.started_at ?? alert.created_at);
  return {
    id: alert.id ?? -index - 1,
    event: eventName(alert.text) || '-',
    date,
    text: alert.text ?? '',
    number: alert.number ?? '',
    site_name: alert.site_name ?? '',
    customer_name: alert.customer_name ?? '',
  };
}

/** Alerts: a searchable table of event and date, newest first, linking to the alert log. */
export function AlertsWidget({ scope, height = 360 }: AlertsWidgetProps) {
  const { t } = useTranslation();
  const valid = isValidScope(scope);
  const query = useQuery({ ...alertQueries.list(scope), enabled: valid });
  const rows = useMemo(() => (query.data ?? []).map(toAlertRow), [query.data]);
  const columns: DataTableColumn<AlertRow>[] = [
    { key: 'event', header: t('EVENT') },
    { key: 'date', header: t('DATE'), width: '9.5rem', nowrap: true },
  ];
  return (
    <WidgetCard
      title={t('ALERTS')}
      info={{ title: t('ALERTS'), description: t('ALERTS_INFO') }}
      {...widgetQueryState(query)}
      empty={rows.length === 0}
      emptyMessage={t('NO_EVENTS')}
      height={height}
      footer={
        valid && (
          <Anchor component={Link} to={logPath('alert', scope.kind, scope.id)} size="xs">
            {t('ALERT_LOG')}
          </Anchor>
        )
      }
    >
      <DataTable
        rows={rows}
        columns={columns}
        rowKey={(r) => r.id}
        label={t('ALERTS')}
        height={height - 160}
      />
    </WidgetCard>
  );
}
