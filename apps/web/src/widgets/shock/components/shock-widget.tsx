import { formatDateSafe, formatShortUsDate } from '@forecourt/contract/formatters';
import { logPath } from '@forecourt/contract/log-paths';
import type { Shock } from '@forecourt/contract/terminals';
import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { Link } from '../../../components/link.tsx';
import { TerminalLink } from '../../../components/terminal-link.tsx';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { paths } from '../../../config/paths.ts';
import { type DateWriter, useDateWriters } from '../../../i18n/format.ts';
import { useScopeCompanyId } from '../../../lib/api/sites.ts';
import { isValidScope, type Scope } from '../../../lib/scope.ts';
import { shockQueries } from '../api/get-shocks.ts';

export interface ShockWidgetProps {
  scope: Scope;
  /** Box height in px. @default 360 */
  height?: number;
}

export interface ShockRow {
  key: string;
  level: number | string;
  site_name: string;
  site_id: number | null;
  company_id: number | null;
  terminal_no: string;
  terminal_id: number | null;
  date: string;
}

/** Site name: the first part of the terminal's card_acceptor_name split on '/'. */
export function shockSiteName(cardAcceptorName: string | null | undefined): string {
  return (cardAcceptorName ?? '').split('/')[0].trim();
}

export function toShockRow(
  s: Partial<Shock> & { company_id?: number },
  index: number,
  fallbackCompanyId?: number,
  writeDate: DateWriter = formatShortUsDate,
): ShockRow {
  const date = formatDateSafe(s.created_at, writeDate);
  return {
    key: `${s.id ?? index}-${index}`,
    level: s.reading ?? '-',
    site_name: shockSiteName(s.terminal?.card_acceptor_name),
    site_id: s.terminal?.site ?? null,
    company_id: s.company_id ?? fallbackCompanyId ?? null,
    terminal_no: s.terminal?.terminal_id ?? '',
    terminal_id: s.terminal?.id ?? null,
    date,
  };
}

/** Shock alert: level, site name (linked to the site dashboard), terminal no (not on phones), date M/d/yy. */
export function ShockWidget({ scope, height = 360 }: ShockWidgetProps) {
  const { t } = useTranslation();
  // On a site dashboard the site's own readings; its company is known for links.
  const companyId = useScopeCompanyId(scope);
  const query = useQuery({ ...shockQueries.list(scope), enabled: isValidScope(scope) });
  const { shortDate } = useDateWriters();
  const rows = useMemo(
    () => (query.data ?? []).map((s, i) => toShockRow(s, i, companyId, shortDate)),
    [query.data, companyId, shortDate],
  );
  const columns: DataTableColumn<ShockRow>[] = [
    { key: 'level', header: t('LEVEL'), width: '3.75rem', nowrap: true },
    {
      key: 'site_name',
      header: t('SITE_NAME'),
      render: (r) =>
        r.site_id && r.company_id ? (
          <Anchor component={Link} to={paths.siteDashboard(r.company_id, r.site_id)} size="sm">
            {r.site_name || '-'}
          </Anchor>
        ) : (
          r.site_name || '-'
        ),
    },
    {
      key: 'terminal_no',
      header: t('TERMINAL_NO_COLUMN'),
      visibleFrom: 'sm',
      width: '5.5rem',
      render: (r) => (
        <TerminalLink siteId={r.site_id} terminalId={r.terminal_id}>
          {r.terminal_no || '-'}
        </TerminalLink>
      ),
    },
    { key: 'date', header: t('DATE'), width: '4.75rem', nowrap: true },
  ];
  const logCompany = companyId ?? rows.find((r) => r.company_id)?.company_id;
  const logLink =
    scope.kind === 'agent'
      ? logPath('shock', 'agent', scope.id)
      : logCompany
        ? logPath('shock', 'company', logCompany)
        : null;
  return (
    <WidgetCard
      title={t('SHOCK_ALERT')}
      info={{ title: t('SHOCK_ALERT'), description: t('SHOCK_ALERT_INFO') }}
      {...widgetQueryState(query)}
      empty={rows.length === 0}
      emptyMessage={t('NO_SHOCKS')}
      height={height}
      footer={
        logLink && (
          <Anchor component={Link} to={logLink} size="xs">
            {t('SHOCK_LOG')}
          </Anchor>
        )
      }
    >
      <DataTable
        rows={rows}
        columns={columns}
        rowKey={(r) => r.key}
        label={t('SHOCK_ALERT')}
        height={height - 160}
      />
    </WidgetCard>
  );
}
