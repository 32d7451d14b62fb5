import { HARDWARE_EVENT_TYPES } from '@forecourt/contract/events';
import { formatDateSafe, formatDayMonthYearTime } from '@forecourt/contract/formatters';
import { companySiteHardwareLogPath } from '@forecourt/contract/log-paths';
import { Anchor, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertAck, SeverityBadge } from '../../../components/alerts/alert-ack.tsx';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { Link } from '../../../components/link.tsx';
import { TerminalLink } from '../../../components/terminal-link.tsx';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { type DateWriter, useDateWriters } from '../../../i18n/format.ts';
import { type Alert, alertQueries } from '../../../lib/api/alerts.ts';
import { useScopeCompanyId } from '../../../lib/api/sites.ts';
import { isValidScope, type Scope } from '../../../lib/scope.ts';

export interface HardwareIssuesWidgetProps {
  scope: Scope;
  /** Double height (450 px). @default false */
  size2X?: boolean;
}

interface HardwareRow {
  key: string;
  date: string;
  number: string;
  issue: string;
  customer_name: string;
  site_name: string;
  site_id: number | null;
  company_id: number | null;
  terminal_id: number | null;
  alert: Partial<Alert>;
}

function toRow(
  a: Partial<Alert>,
  index: number,
  companyId?: number,
  siteId?: number,
  writeDate: DateWriter = formatDayMonthYearTime,
): HardwareRow {
  const date = formatDateSafe(a.created_at ?? a.started_at, writeDate);
  return {
    key: `${a.id ?? index}-${index}`,
    date,
    number: a.number ?? '',
    issue: a.issue ?? '',
    customer_name: a.customer_name ?? '',
    site_name: a.site_name ?? '',
    site_id: a.site_id ?? siteId ?? null,
    company_id: a.company_id ?? companyId ?? null,
    terminal_id: a.terminal_id ?? null,
    alert: a,
  };
}

/**
 * Hardware issues: the active ones, worst first: severity, date, terminal number and issue (agents also customer
 * and site), and an Acknowledge button or who acknowledged it and when (docs/product.md#alert-lifecycle).
 */
export function HardwareIssuesWidget({ scope, size2X = false }: HardwareIssuesWidgetProps) {
  const { t } = useTranslation();
  // An agent's list spans companies: it also names the customer and the site.
  const isAgent = scope.kind === 'agent';
  const companyId = useScopeCompanyId(scope);
  const siteId = scope.kind === 'site' ? scope.id : undefined;
  const { dateTime } = useDateWriters();
  const query = useQuery({
    ...alertQueries.list(scope, {
      event_type: HARDWARE_EVENT_TYPES,
      state: 'active',
      silenced: false,
      sort: 'severity',
    }),
    enabled: isValidScope(scope),
  });
  const rows = useMemo(
    () => (query.data ?? []).map((a, i) => toRow(a, i, companyId, siteId, dateTime)),
    [query.data, companyId, siteId, dateTime],
  );
  const height = size2X ? 450 : 360;
  const columns: DataTableColumn<HardwareRow>[] = [
    { key: 'date', header: t('DATE'), width: '8.5rem', nowrap: true },
    {
      key: 'number',
      header: t('TERMINAL_NUMBER'),
      width: '6.5rem',
      // Each row leads to its terminal's page (or, for an alert that does not name it, its site's hardware log).
      render: (r) =>
        r.site_id && r.terminal_id ? (
          <TerminalLink siteId={r.site_id} terminalId={r.terminal_id}>
            {r.number || '-'}
          </TerminalLink>
        ) : r.company_id && r.site_id ? (
          <Anchor component={Link} to={companySiteHardwareLogPath(r.company_id, r.site_id)} size="sm">
            {r.number || '-'}
          </Anchor>
        ) : (
          r.number || '-'
        ),
    },
    {
      key: 'issue',
      header: t('ISSUE'),
      // The severity, the issue and its acknowledgement share a cell: the box is narrow.
      render: (r) => (
        <Stack gap={4} align="flex-start">
          <SeverityBadge severity={r.alert.severity} />
          <Text size="sm">{r.issue}</Text>
          {r.alert.id ? <AlertAck alert={r.alert as Alert} /> : null}
        </Stack>
      ),
    },
  ];
  if (isAgent) {
    columns.push(
      { key: 'customer_name', header: t('CUSTOMER_NAME'), visibleFrom: 'sm' },
      { key: 'site_name', header: t('SITE_NAME'), visibleFrom: 'sm' },
    );
  }
  return (
    <WidgetCard
      title={t('HARDWARE_ISSUES')}
      info={{ title: t('HARDWARE_ISSUES'), description: t('HARDWARE_ISSUES_INFO') }}
      {...widgetQueryState(query)}
      empty={rows.length === 0}
      emptyMessage={t('NO_HARDWARE_ISSUES')}
      height={height}
      data-testid="hardware-issues"
      footer={
        companyId && siteId ? (
          <Anchor component={Link} to={companySiteHardwareLogPath(companyId, siteId)} size="xs">
            {t('HARDWARE_LOG')}
          </Anchor>
        ) : undefined
      }
    >
      <DataTable
        rows={rows}
        columns={columns}
        rowKey={(r) => r.key}
        label={t('HARDWARE_ISSUES')}
        height={height - 160}
      />
    </WidgetCard>
  );
}
