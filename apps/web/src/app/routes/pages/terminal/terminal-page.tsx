import { TELEMETRY_SIGNALS } from '@forecourt/contract/telemetry-history';
import { Anchor, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { Link } from '../../../../components/link.tsx';
import { widgetQueryState } from '../../../../components/widget-card.tsx';
import { paths } from '../../../../config/paths.ts';
import { formatLocale } from '../../../../i18n/languages.ts';
import { siteQueries } from '../../../../lib/api/sites.ts';
import { useDocumentTitle } from '../../../../lib/use-document-title.ts';
import { parseId } from '../dashboards/dashboard-ids.ts';
import { DashboardNotFound, NothingHere } from '../dashboards/dashboard-not-found.tsx';
import { formatLogTime } from '../logs/log-time.ts';
import { MaintenanceButton } from '../maintenance/maintenance-button.tsx';
import { type ChartRange, readRange, resolveRange, writeRange, zoomRange } from './chart-range.ts';
import { RangeBar } from './range-bar.tsx';
import { SignalChart } from './signal-chart.tsx';
import { DetailsCard, LatestReadingsCard, RecentAlertsCard, RecentCommandsCard } from './terminal-cards.tsx';
import { terminalPageQueries } from './terminal-queries.ts';

/** `#/site/{siteId}/terminal/{id}`: one terminal, its readings over time, its recent alerts and commands. */
export default function TerminalPage() {
  const params = useParams();
  const siteId = parseId(params.siteId);
  const terminalId = parseId(params.terminalId);
  if (!siteId || !terminalId) return <DashboardNotFound />;
  return <TerminalView siteId={siteId} terminalId={terminalId} />;
}

/**
 * The range is kept in the address; a preset's end (`anchor`) is when it was chosen, and moves on when the live tail
 * of a chart has grown long (the charts then read their range again, ending now).
 */
function useChartRange() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { search } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the address's text is what the range depends on
  const range = useMemo(() => readRange(searchParams), [search]);
  const rangeKey = search;
  const [anchor, setAnchor] = useState(() => ({ key: rangeKey, at: Date.now() }));
  if (anchor.key !== rangeKey) setAnchor({ key: rangeKey, at: Date.now() });
  const setRange = useCallback((next: ChartRange) => setSearchParams(writeRange(next)), [setSearchParams]);
  const rebase = useCallback(() => setAnchor((a) => ({ key: a.key, at: Date.now() })), []);
  return { range, anchor: anchor.at, setRange, rebase };
}

function TerminalView({ siteId, terminalId }: { siteId: number; terminalId: number }) {
  const { t, i18n } = useTranslation();
  const locale = formatLocale(i18n.resolvedLanguage ?? i18n.language);
  const site = useQuery(siteQueries.detail(siteId));
  const terminals = useQuery(terminalPageQueries.siteTerminals(siteId));
  const terminal = terminals.data?.find((x) => x.id === terminalId);
  const timeZone = site.data?.timezone;
  const { range, anchor, setRange, rebase } = useChartRange();
  const onZoom = useCallback(
    (from: number, to: number) => {
      const next = zoomRange(from, to);
      if (next) setRange(next);
    },
    [setRange],
  );

  const number = terminal?.terminal_id;
  const title = number
    ? t('TERMINAL_PAGE_TITLE', { number })
    : t('TERMINAL_PAGE_TITLE_ID', { id: terminalId });
  useDocumentTitle(title);

  if (terminals.isSuccess && !terminal) {
    return <NothingHere title={t('TERMINAL_PAGE_NOT_FOUND')} text={t('TERMINAL_PAGE_NOT_FOUND_TEXT')} />;
  }

  const shownRange = { range, anchor, timeZone };
  const shown = resolveRange(range, anchor);
  const description = t('TERMINAL_PAGE_RANGE_SHOWN', {
    from: formatLogTime(new Date(shown.from).toISOString(), timeZone, locale),
    to: formatLogTime(new Date(shown.to).toISOString(), timeZone, locale),
  });
  const subtitle = site.data
    ? [site.data.title, site.data.company_name].filter(Boolean).join(' · ')
    : t('SITE_NUMBER_ID', { id: siteId });

  return (
    <Stack gap="md" data-testid="terminal-page">
      <Stack gap={4}>
        {site.data && (
          <Anchor component={Link} to={paths.siteDashboard(site.data.company_id, siteId)} size="sm">
            <Group gap={4} component="span">
              <IconArrowLeft size={14} className="mantine-rotate-rtl" aria-hidden />
              {t('TERMINAL_PAGE_BACK_TO_SITE')}
            </Group>
          </Anchor>
        )}
        <Group align="baseline" gap="xs" wrap="wrap">
          <Title order={1} fz="h2">
            {title}
          </Title>
          <Text c="dimmed" fz="lg" fw={500}>
            {subtitle}
          </Text>
          <Group ms="auto">
            <MaintenanceButton target={{ scope: { kind: 'terminal', id: terminalId }, tags: [] }} />
          </Group>
        </Group>
      </Stack>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <DetailsCard terminal={terminal} site={site.data} state={widgetQueryState(terminals)} />
        <LatestReadingsCard siteId={siteId} terminalId={terminalId} timeZone={timeZone} />
      </SimpleGrid>

      <section aria-labelledby="terminal-history-title">
        <Stack gap="sm">
          <Title order={2} fz="lg" id="terminal-history-title">
            {t('TERMINAL_PAGE_HISTORY')}
          </Title>
          <RangeBar {...shownRange} description={description} onChange={setRange} />
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            {TELEMETRY_SIGNALS.map((signal) => (
              <SignalChart
                key={signal}
                {...shownRange}
                terminalId={terminalId}
                signal={signal}
                onZoom={onZoom}
                onRebase={rebase}
              />
            ))}
          </SimpleGrid>
        </Stack>
      </section>

      {number && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <RecentAlertsCard {...{ siteId, terminalId, timeZone }} terminalNumber={number} />
          <RecentCommandsCard {...{ siteId, terminalId, timeZone }} terminalNumber={number} />
        </SimpleGrid>
      )}
    </Stack>
  );
}
