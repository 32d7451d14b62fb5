import type { SiteDetail } from '@forecourt/contract/fleet';
import { type LogKindKey, logPath } from '@forecourt/contract/log-paths';
import { levelColor } from '@forecourt/contract/rules';
import type { TelemetrySignal } from '@forecourt/contract/telemetry-history';
import type { Command } from '@forecourt/contract/terminals';
import { Anchor, Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SeverityBadge } from '../../../../components/alerts/alert-ack.tsx';
import { SILENCED_ROW_STYLE, SilencedBadge } from '../../../../components/alerts/silenced-badge.tsx';
import { CommandStateBadge } from '../../../../components/command-state.tsx';
import { Link } from '../../../../components/link.tsx';
import { WidgetCard, type WidgetCardProps, widgetQueryState } from '../../../../components/widget-card.tsx';
import { paths } from '../../../../config/paths.ts';
import { formatLocale } from '../../../../i18n/languages.ts';
import { commandQueries } from '../../../../lib/api/commands.ts';
import { environmentQueries } from '../../../../widgets/environment/api/get-environment.ts';
import { batteryQueries } from '../../../../widgets/terminal-info/api/get-battery.ts';
import { flashDriveQueries } from '../../../../widgets/terminal-info/api/get-flash-drives.ts';
import { formatLogTime } from '../logs/log-time.ts';
import { formatReading, SIGNAL_VIEW } from './chart-data.ts';
import { RECENT_LIMIT, type TerminalDetail, terminalPageQueries } from './terminal-queries.ts';

function useLocale() {
  const { i18n } = useTranslation();
  return formatLocale(i18n.resolvedLanguage ?? i18n.language);
}

/** A label and its value, as a description list's pair. */
function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text component="dt" size="sm" c="dimmed" w="9rem" style={{ flex: 'none' }}>
        {label}
      </Text>
      <Text component="dd" size="sm" fw={500} m={0} style={{ minWidth: 0 }} data-testid={testId}>
        {children}
      </Text>
    </Group>
  );
}

const STATUS: Record<string, { key: string; color: string }> = {
  on: { key: 'ONLINE', color: 'teal' },
  off: { key: 'OFFLINE', color: 'red' },
};

/** Number, site, company, status, position, software version and tags. */
export function DetailsCard({
  terminal,
  site,
  state,
}: {
  terminal: TerminalDetail | undefined;
  site: SiteDetail | undefined;
  state: Pick<WidgetCardProps, 'loading' | 'error' | 'onRetry' | 'updatedAt'>;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const status = STATUS[terminal?.connectivity ?? ''] ?? {
    key: 'TERMINAL_PAGE_STATUS_UNKNOWN',
    color: 'yellow',
  };
  const coordinate = new Intl.NumberFormat(locale, { maximumFractionDigits: 5 });
  return (
    <WidgetCard {...state} title={t('TERMINAL_PAGE_DETAILS')} data-testid="terminal-details">
      {terminal && (
        <Stack component="dl" gap={6} m={0}>
          <Field label={t('TERMINAL_NUMBER')} testId="terminal-number">
            {terminal.terminal_id}
          </Field>
          <Field label={t('TERMINAL_PAGE_SITE')}>
            {site ? (
              <Anchor component={Link} to={paths.siteDashboard(site.company_id, site.id)} size="sm">
                {site.number ? `${site.title} (${site.number})` : site.title}
              </Anchor>
            ) : (
              '-'
            )}
          </Field>
          <Field label={t('TERMINAL_PAGE_COMPANY')}>{site?.company_name || '-'}</Field>
          <Field label={t('TERMINAL_PAGE_STATUS')}>
            <Badge color={status.color} variant="light" radius="sm" data-testid="terminal-status">
              {t(status.key)}
            </Badge>
          </Field>
          <Field label={t('TERMINAL_PAGE_POSITION')}>
            {terminal.lat === null || terminal.lng === null
              ? '-'
              : `${coordinate.format(terminal.lat)}, ${coordinate.format(terminal.lng)}`}
          </Field>
          {terminal.software_version !== undefined && (
            <Field label={t('TERMINAL_PAGE_SOFTWARE_VERSION')} testId="terminal-software">
              {terminal.software_version || '-'}
            </Field>
          )}
          {terminal.tags !== undefined && (
            <Field label={t('TERMINAL_PAGE_TAGS')} testId="terminal-tags">
              {terminal.tags.length ? (
                <Group gap={4} component="span">
                  {terminal.tags.map((tag) => (
                    <Badge key={tag} variant="outline" radius="sm" size="sm" tt="none">
                      {tag}
                    </Badge>
                  ))}
                </Group>
              ) : (
                t('TERMINAL_PAGE_NO_TAGS')
              )}
            </Field>
          )}
        </Stack>
      )}
    </WidgetCard>
  );
}

interface Reading {
  signal: TelemetrySignal;
  value: number | null | undefined;
  at: string | undefined;
}

/** The terminal's latest value of each reading, from the site's latest readings (refreshed live). */
export function LatestReadingsCard({
  siteId,
  terminalId,
  timeZone,
}: {
  siteId: number;
  terminalId: number;
  timeZone?: string;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const scope = { kind: 'site', id: siteId } as const;
  const battery = useQuery(batteryQueries.site(scope));
  const flash = useQuery(flashDriveQueries.site(scope));
  const environment = useQuery(environmentQueries.latest(scope));
  const b = battery.data?.find((r) => r.terminal.id === terminalId);
  const f = flash.data?.find((r) => r.terminal.id === terminalId);
  const e = environment.data?.find((r) => r.terminal.id === terminalId);
  const readings: Reading[] = [
    { signal: 'battery_life', value: b?.life, at: b?.created_at },
    { signal: 'flash_left', value: f?.left, at: f?.created_at },
    { signal: 'temperature_main_board', value: e?.temperature_main_board, at: e?.created_at },
    { signal: 'temperature_inside_cabinet', value: e?.temperature_inside_cabinet, at: e?.created_at },
    { signal: 'humidity_inside_cabinet', value: e?.humidity_inside_cabinet, at: e?.created_at },
  ];
  const latestAt = readings
    .map((r) => r.at)
    .filter(Boolean)
    .sort()
    .at(-1);
  const state = widgetQueryState(battery.isError ? battery : environment.isError ? environment : flash);
  return (
    <WidgetCard
      {...state}
      loading={battery.isPending || flash.isPending || environment.isPending}
      title={t('TERMINAL_PAGE_LATEST_READINGS')}
      data-testid="terminal-latest"
      empty={readings.every((r) => r.value === null || r.value === undefined)}
      emptyMessage={t('NO_TERMINAL_INFORMATION')}
    >
      <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="sm" verticalSpacing="sm">
        {readings.map((r) => {
          const view = SIGNAL_VIEW[r.signal];
          const color =
            r.signal === 'battery_life' || r.signal === 'flash_left' ? levelColor(r.value ?? null) : null;
          return (
            <Stack key={r.signal} gap={0} data-testid={`latest-${r.signal}`}>
              <Text size="xs" c="dimmed">
                {t(view.label)}
              </Text>
              <Text fz="xl" fw={700} c={color ? `var(--fc-level-${color})` : undefined}>
                {formatReading(r.value, view.unit, locale)}
              </Text>
            </Stack>
          );
        })}
      </SimpleGrid>
      {latestAt && (
        <Text size="xs" c="dimmed" mt="sm">
          {t('TERMINAL_PAGE_READ_AT', { time: formatLogTime(latestAt, timeZone, locale) })}
        </Text>
      )}
    </WidgetCard>
  );
}

/**
 * A terminal's newest entries of one log, each a list item (`children` renders its content), and a link to its
 * site's log of that kind filtered to the terminal.
 */
function RecentCard<Row extends { id: number }>({
  query,
  rows,
  title,
  emptyMessage,
  testId,
  log,
  allLabel,
  muted,
  children,
}: {
  query: Parameters<typeof widgetQueryState>[0];
  rows: Row[];
  title: string;
  emptyMessage: string;
  testId: string;
  log: { kind: LogKindKey; siteId: number; terminalNumber: string };
  allLabel: string;
  /** A row shown muted (a silenced alert). */
  muted?: (row: Row) => boolean;
  children: (row: Row) => ReactNode;
}) {
  return (
    <WidgetCard
      {...widgetQueryState(query)}
      title={title}
      empty={rows.length === 0}
      emptyMessage={emptyMessage}
      data-testid={testId}
      footer={
        <Anchor
          component={Link}
          to={`${logPath(log.kind, 'site', log.siteId)}?terminal=${encodeURIComponent(log.terminalNumber)}`}
          size="xs"
        >
          {allLabel}
        </Anchor>
      }
    >
      <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
        {rows.map((row) => (
          <li
            key={row.id}
            data-silenced={muted?.(row) || undefined}
            style={muted?.(row) ? SILENCED_ROW_STYLE : undefined}
          >
            <Group gap="xs" wrap="nowrap" align="flex-start" justify="space-between">
              {children(row)}
            </Group>
          </li>
        ))}
      </Stack>
    </WidgetCard>
  );
}

/** The terminal a card of its page shows, and its site's time zone. */
interface TerminalOfCard {
  siteId: number;
  terminalId: number;
  terminalNumber: string;
  timeZone?: string;
}

/** The terminal's newest alerts (its site's alert log, filtered to it). */
export function RecentAlertsCard({ siteId, terminalId, terminalNumber, timeZone }: TerminalOfCard) {
  const { t } = useTranslation();
  const locale = useLocale();
  const query = useQuery(terminalPageQueries.recentAlerts(siteId, terminalId, terminalNumber));
  return (
    <RecentCard
      query={query}
      rows={query.data ?? []}
      title={t('TERMINAL_PAGE_RECENT_ALERTS')}
      emptyMessage={t('NO_EVENTS')}
      testId="terminal-alerts"
      log={{ kind: 'alert', siteId, terminalNumber }}
      allLabel={t('TERMINAL_PAGE_ALL_ALERTS')}
      muted={(a) => a.silenced}
    >
      {(a) => (
        <>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap={6} wrap="wrap">
              <SeverityBadge severity={a.severity} />
              {a.silenced && <SilencedBadge />}
              <Text size="sm" fw={600}>
                {a.issue}
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              <time dateTime={a.started_at}>
                {formatLogTime(a.started_at, a.timezone || timeZone, locale)}
              </time>
            </Text>
          </Stack>
          <Badge
            color={a.state === 'active' ? 'red' : 'gray'}
            variant={a.state === 'active' ? 'light' : 'outline'}
            radius="sm"
            style={{ flex: 'none' }}
          >
            {t(a.state === 'active' ? 'ALERT_ACTIVE' : 'ALERT_CLEARED')}
          </Badge>
        </>
      )}
    </RecentCard>
  );
}

function commandTitle(t: TFunction, c: Command): string {
  if (c.kind === 'reboot') {
    return t('CMD_REBOOT', {
      type: t(c.reboot_type === 'full' ? 'REBOOT_FULL' : 'REBOOT_SOFTWARE'),
      terminal: c.terminal_number,
    });
  }
  if (c.kind === 'install') return t('CMD_INSTALL');
  return t(c.kind === 'pump_on' ? 'CMD_PUMP_ON' : 'CMD_PUMP_OFF', { pump_no: c.pump_no });
}

/** The terminal's newest commands: its reboots and the commands of the pumps it carries. */
export function RecentCommandsCard({ siteId, terminalId, terminalNumber, timeZone }: TerminalOfCard) {
  const { t } = useTranslation();
  const locale = useLocale();
  const query = useQuery(commandQueries.timeline('terminal', terminalId));
  return (
    <RecentCard
      query={query}
      rows={(query.data ?? []).slice(0, RECENT_LIMIT)}
      title={t('TERMINAL_PAGE_RECENT_COMMANDS')}
      emptyMessage={t('TERMINAL_PAGE_NO_COMMANDS')}
      testId="terminal-commands"
      log={{ kind: 'reboot', siteId, terminalNumber }}
      allLabel={t('TERMINAL_PAGE_ALL_REBOOTS')}
    >
      {(c) => (
        <>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text size="sm" fw={600}>
              {commandTitle(t, c)}
            </Text>
            <Text size="xs" c="dimmed">
              <time dateTime={c.created_at}>{formatLogTime(c.created_at, timeZone, locale)}</time>
              {c.requested_by ? ` · ${c.requested_by}` : ''}
            </Text>
          </Stack>
          <CommandStateBadge state={c.state} />
        </>
      )}
    </RecentCard>
  );
}
