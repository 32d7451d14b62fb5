import { Box, Button, Card, Center, Group, Stack, Table, TableScrollContainer, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SILENCED_ROW_STYLE } from '../../../../components/alerts/silenced-badge.tsx';
import { BackTitle } from '../../../../components/back-link.tsx';
import { LoadFailed, LoadingState, ProblemAlert } from '../../../../components/page-parts.tsx';
import { paths } from '../../../../config/paths.ts';
import { formatLocale } from '../../../../i18n/languages.ts';
import { companyQueries } from '../../../../lib/api/companies.ts';
import {
  csvFileName,
  downloadLogCsv,
  type LogScope,
  logApiPath,
  logQueries,
} from '../../../../lib/api/logs.ts';
import { siteQueries } from '../../../../lib/api/sites.ts';
import { timeZoneQueries } from '../../../../lib/api/time-zones.ts';
import { isApiError } from '../../../../lib/api-client.ts';
import { useHeaderSearch } from '../../../../lib/search-store.ts';
import { toast } from '../../../../lib/toast.ts';
import { useDocumentTitle } from '../../../../lib/use-document-title.ts';
import { LogFilters, TYPING_DELAY_MS } from './log-filters.tsx';
import type { CellContext, LogKind, LogRowBase } from './log-kinds.tsx';
import { formatLogTime, safeZone } from './log-time.ts';
import { apiParams, hasFilters, type LogView, readView, writeView } from './log-view.ts';

export interface LogScreenProps {
  kind: LogKind;
  scope: LogScope;
}

/** The zone the screen's dates are days of: the site's, else the first zone of the agent or company. */
function useScreenZone(scope: LogScope) {
  const site = useQuery({ ...siteQueries.detail(scope.id), enabled: scope.kind === 'site' });
  const owner = scope.kind === 'site' ? null : scope.kind;
  const zones = useQuery({
    ...timeZoneQueries.list({ kind: owner ?? 'agent', id: scope.id }),
    enabled: owner !== null,
    // The dashboard's clocks poll this list; a log screen only needs its first zone once.
    refetchInterval: false,
  });
  const zone = scope.kind === 'site' ? site.data?.timezone : zones.data?.[0]?.iana;
  const settled = scope.kind === 'site' ? !site.isPending : !zones.isPending;
  return { zone: safeZone(zone), settled, site: site.data };
}

function useScopeLabel(scope: LogScope, siteTitle: string | undefined): string {
  const { t } = useTranslation();
  const companyId = scope.kind === 'company' ? scope.id : scope.companyId;
  const company = useQuery({
    ...companyQueries.detail(companyId ?? 0),
    enabled: companyId !== undefined,
  });
  const companyName =
    company.data?.name ?? (companyId !== undefined ? t('LOG_SCOPE_COMPANY', { id: companyId }) : '');
  if (scope.kind === 'agent') return t('LOG_SCOPE_AGENT', { id: scope.id });
  if (scope.kind === 'company') return companyName;
  const site = siteTitle ?? t('LOG_SCOPE_SITE', { id: scope.id });
  return scope.companyId !== undefined ? `${companyName} · ${site}` : site;
}

/** The dashboard the log belongs to: the company's, the site's, else the user's own. */
function dashboardPath(scope: LogScope, siteCompanyId: number | undefined): string {
  if (scope.kind === 'company') return paths.companyDashboard(scope.id);
  const companyId = scope.companyId ?? siteCompanyId;
  if (scope.kind === 'site' && companyId !== undefined) return paths.siteDashboard(companyId, scope.id);
  return paths.agentDashboard;
}

function ErrorState({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const status = isApiError(error) ? error.status : 0;
  if (status === 403)
    return (
      <ProblemAlert lock title={t('LOG_NOT_ALLOWED_TITLE')}>
        {t('LOG_NOT_ALLOWED')}
      </ProblemAlert>
    );
  if (status === 404)
    return (
      <ProblemAlert color="yellow" title={t('LOG_NOT_FOUND_TITLE')}>
        {t('LOG_NOT_FOUND')}
      </ProblemAlert>
    );
  const detail = isApiError(error) && error.errors.length ? error.errors.join(' ') : '';
  return (
    <LoadFailed
      title={t('LOG_ERROR_TITLE')}
      message={detail || t('LOG_ERROR')}
      onRetry={onRetry}
      retryLabel={t('LOG_RETRY')}
      retryIcon
    />
  );
}

/**
 * One log screen (docs/api-logs.md): title, filters and search kept in the URL, a server-paged table
 * ("Load more" follows the `before` cursor), times in each row's site zone, CSV export of the filtered rows,
 * empty and error states, and a way back to the dashboard.
 */
export function LogScreen({ kind, scope }: LogScreenProps) {
  const { t, i18n } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const view = useMemo(() => readView(searchParams, kind), [searchParams, kind]);
  const { zone, settled, site } = useScreenZone(scope);
  const scopeLabel = useScopeLabel(scope, site ? `${site.title} (${site.number})` : undefined);
  const path = logApiPath(scope, kind.apiPath);
  const params = useMemo(() => apiParams(view, zone, kind.filters), [view, zone, kind.filters]);
  const needsZone = Boolean(view.from || view.to);
  const pages = useInfiniteQuery({
    ...logQueries.pages(scope, kind.apiPath, kind.schema, params, view.limit),
    enabled: !needsZone || settled,
  });
  const rows: LogRowBase[] = useMemo(() => pages.data?.pages.flatMap((p) => p.rows) ?? [], [pages.data]);
  const [exporting, setExporting] = useState(false);
  // Outside the caller's scope, or no such log: filters have nothing to act on.
  const blocked =
    rows.length === 0 &&
    isApiError(pages.error) &&
    (pages.error.status === 403 || pages.error.status === 404);
  const title = t(kind.title);

  useDocumentTitle(title);

  const onViewChange = useCallback(
    (next: LogView) => setSearchParams(writeView(next), { replace: true }),
    [setSearchParams],
  );

  // Typing in the header search searches the log too (the header emits its text as the user types).
  const headerSearch = useHeaderSearch();
  const [headerText] = useDebouncedValue(headerSearch, TYPING_DELAY_MS);
  const seenHeaderText = useRef(headerText);
  const latestView = useRef(view);
  latestView.current = view;
  useEffect(() => {
    if (headerText === seenHeaderText.current) return;
    seenHeaderText.current = headerText;
    onViewChange({ ...latestView.current, q: headerText });
  }, [headerText, onViewChange]);

  const locale = formatLocale(i18n.language);
  const ctx: CellContext = {
    t,
    time: (iso, row) => formatLogTime(iso, row.timezone || zone, locale),
    siteId: scope.kind === 'site' ? scope.id : undefined,
  };
  const rowZones = [...new Set(rows.map((r) => r.timezone).filter(Boolean))];
  const zonesShown = rowZones.length ? rowZones : zone ? [zone] : [];

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadLogCsv(path, params, Math.max(rows.length, view.limit), csvFileName(kind.key, scope));
    } catch (error) {
      const message =
        isApiError(error) && error.status === 403 ? t('LOG_NOT_ALLOWED') : t('LOG_EXPORT_FAILED');
      toast.error(message, t('LOG_EXPORT_CSV'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="md" data-testid={`log-${kind.key}`}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <BackTitle to={dashboardPath(scope, site?.company_id)} title={title}>
          <Text size="sm" c="dimmed">
            {scopeLabel}
          </Text>
          {zonesShown.length > 0 && (
            <Text size="xs" c="dimmed" data-testid="log-zone">
              {t('LOG_TIMES_IN', { zones: zonesShown.join(', ') })}
            </Text>
          )}
        </BackTitle>
        <Button
          leftSection={<IconDownload size={16} />}
          variant="light"
          loading={exporting}
          disabled={rows.length === 0}
          onClick={exportCsv}
        >
          {t('LOG_EXPORT_CSV')}
        </Button>
      </Group>

      {!blocked && (
        <Card withBorder padding="md" radius="md">
          <LogFilters view={view} filters={kind.filters} zone={zone} onChange={onViewChange} />
        </Card>
      )}

      <Card withBorder padding={0} radius="md">
        {pages.isPending ? (
          <LoadingState py="xl" loaderSize="sm" label={t('LOG_LOADING')} />
        ) : pages.isError && rows.length === 0 ? (
          <Box p="md">
            <ErrorState error={pages.error} onRetry={() => void pages.refetch()} />
          </Box>
        ) : rows.length === 0 ? (
          <Center py="xl" px="md">
            <Text c="dimmed" ta="center">
              {hasFilters(view) ? t('LOG_EMPTY_FILTERED') : t('LOG_EMPTY')}
            </Text>
          </Center>
        ) : (
          <TableScrollContainer
            minWidth={360}
            // Focusable, so a keyboard can scroll a table wider than a phone (docs/accessibility.md).
            scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}
          >
            <Table striped highlightOnHover verticalSpacing="xs" fz="sm" aria-label={title}>
              <Table.Thead>
                <Table.Tr>
                  {kind.columns.map((c) => (
                    <Table.Th key={c.key} visibleFrom={c.wide ? 'sm' : undefined}>
                      {t(c.label)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr
                    key={row.id}
                    data-row-id={row.id}
                    data-silenced={kind.muted?.(row) || undefined}
                    style={kind.muted?.(row) ? SILENCED_ROW_STYLE : undefined}
                  >
                    {kind.columns.map((c) => (
                      <Table.Td
                        key={c.key}
                        visibleFrom={c.wide ? 'sm' : undefined}
                        style={c.nowrap ? { whiteSpace: 'nowrap' } : undefined}
                      >
                        {c.render(row, ctx)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScrollContainer>
        )}
      </Card>

      {rows.length > 0 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed" aria-live="polite">
            {pages.hasNextPage
              ? t('LOG_SHOWING', { count: rows.length })
              : t('LOG_SHOWING_ALL', { count: rows.length })}
          </Text>
          {pages.hasNextPage && (
            <Button
              variant="default"
              onClick={() => void pages.fetchNextPage()}
              loading={pages.isFetchingNextPage}
            >
              {t('LOG_LOAD_MORE')}
            </Button>
          )}
        </Group>
      )}
      {pages.isFetchNextPageError && (
        <ErrorState error={pages.error} onRetry={() => void pages.fetchNextPage()} />
      )}
    </Stack>
  );
}
