import type { AlertSite } from '@forecourt/contract/fleet';
import { eventName, formatDateSafe, formatDayMonthYearTime } from '@forecourt/contract/formatters';
import { logPath } from '@forecourt/contract/log-paths';
import { Anchor, Group, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertAck, SeverityBadge } from '../../../components/alerts/alert-ack.tsx';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { Link } from '../../../components/link.tsx';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { type DateWriter, useDateWriters } from '../../../i18n/format.ts';
import { type Alert, alertQueries } from '../../../lib/api/alerts.ts';
import { isValidScope, type Scope } from '../../../lib/scope.ts';

// Silenced alerts are only listed once "Show silenced" is on: their badge loads then, not with the dashboard.
const SilencedBadge = lazy(() =>
  import('../../../components/alerts/silenced-badge.tsx').then((m) => ({ default: m.SilencedBadge })),
);
/** A silenced alert's row is dimmed (as SILENCED_ROW_STYLE of the badge's module). */
const SILENCED_ROW_STYLE = { opacity: 0.62 } as const;

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
  alert: Partial<Alert>;
}

/** One display row per alert; odd records (missing text or dates) still give a row. */
export function toAlertRow(
  alert: Partial<Alert>,
  index: number,
  writeDate: DateWriter = formatDayMonthYearTime,
): AlertRow {
  const date = formatDateSafe(alert.started_at ?? alert.created_at, writeDate);
  return {
    id: alert.id ?? -index - 1,
    event: eventName(alert.text) || '-',
    date,
    text: alert.text ?? '',
    number: alert.number ?? '',
    site_name: alert.site_name ?? '',
    customer_name: alert.customer_name ?? '',
    alert,
  };
}

type View = 'flat' | 'sites';

/** The alert log of one site, filtered to its active alerts: where a by-site row leads. */
export const siteAlertLogLink = (siteId: number) => `${logPath('alert', 'site', siteId)}?state=active`;

/**
 * Alerts (docs/product.md#alert-lifecycle): the active alerts of the scope, worst first, each with its severity
 * and an Acknowledge button (or who acknowledged it and when). Agents and companies can switch to one row per
 * site (active, unacknowledged, worst severity, latest), each opening that site's alert log.
 */
export function AlertsWidget({ scope, height = 360 }: AlertsWidgetProps) {
  const { t, i18n } = useTranslation();
  const valid = isValidScope(scope);
  const canGroup = scope.kind !== 'site';
  const [view, setView] = useState<View>('flat');
  const [showSilenced, setShowSilenced] = useState(false);
  const bySite = canGroup && view === 'sites';
  const query = useQuery({
    // Alerts raised in a maintenance window are left out unless asked for (then they are shown muted).
    ...alertQueries.list(scope, {
      state: 'active',
      silenced: showSilenced ? undefined : false,
      sort: 'severity',
    }),
    enabled: valid && !bySite,
  });
  const sites = useQuery({ ...alertQueries.sites(scope), enabled: valid && bySite });
  const { dateTime } = useDateWriters();
  const rows = useMemo(
    () => (query.data ?? []).map((a, i) => toAlertRow(a, i, dateTime)),
    [query.data, dateTime],
  );
  // Narrow boxes: the severity, the event and its acknowledgement share the first column.
  const columns: DataTableColumn<AlertRow>[] = [
    {
      key: 'event',
      header: t('EVENT'),
      render: (r) => (
        <Stack
          gap={4}
          align="flex-start"
          data-silenced={r.alert.silenced || undefined}
          style={r.alert.silenced ? SILENCED_ROW_STYLE : undefined}
        >
          <Group gap={4}>
            <SeverityBadge severity={r.alert.severity} />
            {r.alert.silenced && (
              <Suspense fallback={null}>
                <SilencedBadge />
              </Suspense>
            )}
          </Group>
          <Text size="sm">{r.event}</Text>
          {r.alert.id ? <AlertAck alert={r.alert as Alert} /> : null}
        </Stack>
      ),
    },
    { key: 'date', header: t('DATE'), width: '9.5rem', nowrap: true },
  ];
  const siteColumns: DataTableColumn<AlertSite>[] = [
    {
      key: 'title',
      header: t('SITE'),
      render: (s) => (
        <Anchor component={Link} to={siteAlertLogLink(s.site_id)} size="sm" className="fc-alert-site">
          {s.title}
        </Anchor>
      ),
    },
    {
      key: 'worst_severity',
      header: t('SEVERITY'),
      width: '5.5rem',
      nowrap: true,
      render: (s) => <SeverityBadge severity={s.worst_severity} />,
    },
    { key: 'active', header: t('ACTIVE_ALERTS'), width: '4.5rem', nowrap: true },
    { key: 'unacknowledged', header: t('UNACKNOWLEDGED'), width: '6.5rem', nowrap: true, visibleFrom: 'sm' },
    {
      key: 'latest_at',
      header: t('LATEST'),
      width: '9.5rem',
      nowrap: true,
      visibleFrom: 'sm',
      render: (s) => formatDateSafe(s.latest_at, (d) => d.toLocaleString(i18n.language)),
    },
  ];
  const shown = bySite ? sites : query;
  const siteRows = sites.data ?? [];
  return (
    <WidgetCard
      title={t('ALERTS')}
      info={{ title: t('ALERTS'), description: t('ALERTS_INFO') }}
      {...widgetQueryState(shown)}
      empty={bySite ? siteRows.length === 0 : rows.length === 0}
      emptyMessage={bySite ? t('NO_ACTIVE_ALERTS') : t('NO_EVENTS')}
      height={height}
      data-testid="alerts-widget"
      actions={
        canGroup && (
          <SegmentedControl
            size="xs"
            aria-label={t('ALERTS_VIEW')}
            value={view}
            onChange={(v) => setView(v as View)}
            data={[
              { value: 'flat', label: t('ALERTS_FLAT') },
              { value: 'sites', label: t('ALERTS_BY_SITE') },
            ]}
          />
        )
      }
      footer={
        valid && (
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Anchor component={Link} to={logPath('alert', scope.kind, scope.id)} size="xs">
              {t('ALERT_LOG')}
            </Anchor>
            {!bySite && (
              <Switch
                size="xs"
                label={t('SHOW_SILENCED')}
                checked={showSilenced}
                onChange={(e) => setShowSilenced(e.currentTarget.checked)}
              />
            )}
          </Group>
        )
      }
    >
      {bySite ? (
        <DataTable
          rows={siteRows}
          columns={siteColumns}
          rowKey={(s) => s.site_id}
          label={t('ALERTS_BY_SITE')}
          height={height - 160}
        />
      ) : (
        <DataTable
          rows={rows}
          columns={columns}
          rowKey={(r) => r.id}
          label={t('ALERTS')}
          height={height - 160}
        />
      )}
    </WidgetCard>
  );
}
