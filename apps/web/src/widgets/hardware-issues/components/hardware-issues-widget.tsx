import { formatDayMonthYearTime } from '@forecourt/contract/formatters';
import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { type Alert, hardwareIssuesQuery, scopeOf } from '../../../lib/api/fleet.ts';

export interface HardwareIssuesWidgetProps {
  agentId?: number;
  companyId?: number;
  siteId?: number;
  /** Agents also see the customer_name and site_name columns. @default false */
  isAgent?: boolean;
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
}

function toRow(a: Partial<Alert>, index: number, companyId?: number, siteId?: number): HardwareRow {
  let date = '-';
  const at = a.created_at ?? a.started_at;
  if (at) {
    try {
      date = formatDayMonthYearTime(at);
    } catch {
      date = String(at);
    }
  }
  return {
    key: `${a.id ?? index}-${index}`,
    date,
    number: a.number ?? '',
    issue: a.issue ?? '',
    customer_name: a.customer_name ?? '',
    site_name: a.site_name ?? '',
    site_id: a.site_id ?? siteId ?? null,
    company_id: a.company_id ?? companyId ?? null,
  };
}

const hardwareLog = (companyId: number, siteId: number) =>
  `/company/${companyId}/site/${siteId}/terminal/hardware/log/`;

/** Hardware issues: date, terminal number and issue (agents also customer and site), newest first. */
export function HardwareIssuesWidget({ isAgent = false, size2X = false, ...ids }: HardwareIssuesWidgetProps) {
  const { t } = useTranslation();
  const scope = ids.siteId ? { kind: 'site' as const, id: ids.siteId } : scopeOf(ids);
  const query = useQuery({
    ...hardwareIssuesQuery(scope ?? { kind: 'agent', id: 0 }),
    enabled: scope !== null,
  });
  const rows = useMemo(
    () => (query.data ?? []).map((a, i) => toRow(a, i, ids.companyId, ids.siteId)),
    [query.data, ids.companyId, ids.siteId],
  );
  const height = size2X ? 450 : 360;
  const columns: DataTableColumn<HardwareRow>[] = [
    { key: 'date', header: t('DATE'), width: '8.5rem', nowrap: true },
    {
      key: 'number',
      header: t('TERMINAL_NUMBER'),
      width: '6.5rem',
      // Each row leads to the hardware log of its own site.
      render: (r) =>
        r.company_id && r.site_id ? (
          <Anchor component={Link} to={hardwareLog(r.company_id, r.site_id)} size="sm">
            {r.number || '-'}
          </Anchor>
        ) : (
          r.number || '-'
        ),
    },
    { key: 'issue', header: t('ISSUE') },
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
        ids.companyId && ids.siteId ? (
          <Anchor component={Link} to={hardwareLog(ids.companyId, ids.siteId)} size="xs">
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
