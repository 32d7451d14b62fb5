import '@mantine/core/styles/Badge.layer.css';
import type { Connectivity } from '@forecourt/contract/fleet';
import { formatDateSafe, formatDayMonthYearTime, pad3 } from '@forecourt/contract/formatters';
import { logPath } from '@forecourt/contract/log-paths';
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { Link } from '../../../components/link.tsx';
import { TerminalLink } from '../../../components/terminal-link.tsx';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { type DateWriter, useDateWriters } from '../../../i18n/format.ts';
import { siteQueries } from '../../../lib/api/sites.ts';
import { type FleetScope, isValidScope } from '../../../lib/scope.ts';
import { connectivityQueries } from '../api/get-connectivity.ts';

export interface ConnectivityWidgetProps {
  scope: FleetScope;
  /** Box height in px. @default 360 */
  height?: number;
}

interface ConnectivityRow {
  key: string;
  status: 'on' | 'off' | string;
  title: string;
  number: string;
  site_id: number | null;
  terminal_id: number | null;
  date: string;
}

function toRow(
  c: Partial<Connectivity>,
  index: number,
  writeDate: DateWriter = formatDayMonthYearTime,
): ConnectivityRow {
  const date = formatDateSafe(c.date, writeDate);
  return {
    key: `${c.site_id ?? ''}-${c.number ?? ''}-${index}`,
    status: c.status ?? '-',
    title: c.title ?? '',
    number: c.number ?? '',
    site_id: c.site_id ?? null,
    terminal_id: c.terminal_id ?? null,
    date,
  };
}

/**
 * Connectivity: how many sites are offline and online (status 0 is offline), and a searchable
 * table of terminals with their state. A company sees the short list of the ten latest offline
 * terminals (`limit_to=10&offline=true`); an agent sees every terminal, offline first.
 */
export function ConnectivityWidget({ scope, height = 360 }: ConnectivityWidgetProps) {
  const { t } = useTranslation();
  const enabled = isValidScope(scope);
  const listParams = scope.kind === 'company' ? { limit_to: 10, offline: true } : { limit_to: 1000 };
  const list = useQuery({ ...connectivityQueries.list(scope, listParams), enabled });
  const sites = useQuery({ ...siteQueries.list(scope), enabled });
  const { dateTime } = useDateWriters();

  const rows = useMemo(() => {
    const all = (list.data ?? []).map((c, i) => toRow(c, i, dateTime));
    // Offline first, then the latest change first (the API's order), so problems come to the top.
    return scope.kind === 'agent' ? [...all].sort((a, b) => rank(a.status) - rank(b.status)) : all;
  }, [list.data, scope.kind, dateTime]);
  const siteList = sites.data ?? [];
  const offline = siteList.filter((s) => s?.status === 0).length;
  const online = siteList.length - offline;

  const columns: DataTableColumn<ConnectivityRow>[] = [
    {
      key: 'status',
      header: t('STATUS'),
      width: '4.75rem',
      render: (r) => (
        <Badge
          color={r.status === 'on' ? 'green' : r.status === 'off' ? 'red' : 'yellow'}
          variant="light"
          size="sm"
        >
          {r.status === 'on' ? t('STATUS_ON') : r.status === 'off' ? t('STATUS_OFF') : r.status}
        </Badge>
      ),
    },
    { key: 'title', header: t('SITE_NAME') },
    {
      key: 'number',
      header: t('TERMINAL_NO_COLUMN'),
      width: '6.5rem',
      render: (r) => (
        <TerminalLink siteId={r.site_id} terminalId={r.terminal_id}>
          {r.number || '-'}
        </TerminalLink>
      ),
    },
    { key: 'date', header: t('DATE'), visibleFrom: 'xs', nowrap: true, width: '9rem' },
  ];

  const state = widgetQueryState(list);
  return (
    <WidgetCard
      title={t('CONNECTIVITY')}
      info={{ title: t('CONNECTIVITY'), description: t('CONNECTIVITY_INFO') }}
      {...state}
      height={height}
      footer={
        enabled && (
          <Anchor component={Link} to={logPath('connectivity', scope.kind, scope.id)} size="xs">
            {t('CONNECTIVITY_LOG')}
          </Anchor>
        )
      }
    >
      <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
        <Group grow gap="xs" mb="xs" wrap="nowrap">
          <Count label={t('OFFLINE')} value={offline} color="red" missing={!sites.data} />
          <Count label={t('ONLINE')} value={online} color="green" missing={!sites.data} />
        </Group>
        {rows.length === 0 ? (
          <Text c="dimmed" size="sm" ta="center" py="md" data-testid="widget-empty">
            {t('NO_CONNECTIVITY_ERRORS')}
          </Text>
        ) : (
          <div style={{ flex: '1 1 0', minHeight: 0 }}>
            <DataTable
              rows={rows}
              columns={columns}
              rowKey={(r) => r.key}
              label={t('CONNECTIVITY')}
              height={height - 220}
            />
          </div>
        )}
      </div>
    </WidgetCard>
  );
}

function rank(status: string) {
  return status === 'off' ? 0 : status === 'on' ? 2 : 1;
}

function Count({
  label,
  value,
  color,
  missing,
}: {
  label: string;
  value: number;
  color: string;
  missing: boolean;
}) {
  const greyed = missing || value === 0;
  return (
    <Stack gap={0} align="center" aria-label={`${label}: ${value}`} role="group">
      <Text fz={26} fw={700} lh={1.1} c={greyed ? 'dimmed' : color} data-greyed={greyed}>
        {pad3(missing ? 0 : value)}
      </Text>
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
    </Stack>
  );
}
