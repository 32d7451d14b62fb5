import { eventName, formatDayMonthYearTime } from '@forecourt/contract/formatters';
import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { type Alert, alertsQuery, scopeOf } from '../../../lib/api/fleet.ts';

export interface AlertsWidgetProps {
  agentId?: number;
  companyId?: number;
  siteId?: number;
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
  const at = alert.started_at ?? alert.created_at;
  let date = '-';
  if (at) {
    try {
      date = formatDayMonthYearTime(at);
    } catch {
      date = String(at);
    }
  }
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
export function AlertsWidget({ height = 360, ...ids }: AlertsWidgetProps) {
  const { t } = useTranslation();
  const scope = scopeOf(ids);
  const query = useQuery({ ...alertsQuery(scope ?? { kind: 'agent', id: 0 }), enabled: scope !== null });
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
        scope && (
          <Anchor component={Link} to={`/${scope.kind}/${scope.id}/alert/log/`} size="xs">
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
