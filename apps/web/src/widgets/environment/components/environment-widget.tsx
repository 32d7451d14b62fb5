import { logPath } from '@forecourt/contract/log-paths';
import type { Environment } from '@forecourt/contract/terminals';
import { ActionIcon, Anchor, Group, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from '../../../components/link.tsx';
import { TerminalLink } from '../../../components/terminal-link.tsx';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import type { SiteScope } from '../../../lib/scope.ts';
import { useCarousel } from '../../../lib/use-carousel.ts';
import { environmentQueries } from '../api/get-environment.ts';

type Reading = 'temperature_main_board' | 'humidity_inside_cabinet' | 'temperature_inside_cabinet';

const KINDS: Record<Reading, { title: string; info: string; unit: string; testId: string }> = {
  temperature_main_board: {
    title: 'BOARD_TEMPERATURE',
    info: 'BOARD_TEMPERATURE_INFO',
    unit: '°C',
    testId: 'board-temperature',
  },
  humidity_inside_cabinet: { title: 'HUMIDITY', info: 'HUMIDITY_INFO', unit: '%', testId: 'humidity' },
  temperature_inside_cabinet: {
    title: 'INTERNAL_TEMPERATURE',
    info: 'INTERNAL_TEMPERATURE_INFO',
    unit: '°C',
    testId: 'internal-temperature',
  },
};

export interface EnvironmentWidgetProps {
  scope: SiteScope;
  /** Box height in px. @default 220 */
  height?: number;
}

function formatReading(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '-';
  return String(Math.round(value * 10) / 10);
}

/**
 * One environment reading per terminal with previous/next arrows. The three widgets read the same
 * query (one request per poll for all three).
 */
function EnvironmentWidget({ scope, height = 220, reading }: EnvironmentWidgetProps & { reading: Reading }) {
  const { t } = useTranslation();
  const kind = KINDS[reading];
  const query = useQuery(environmentQueries.latest(scope));
  const list: Partial<Environment>[] = query.data ?? [];
  const carousel = useCarousel(list.map((e, i) => e.terminal?.terminal_id ?? `#${i}`));
  const item = list[carousel.index];
  const value = formatReading(item?.[reading]);
  return (
    <WidgetCard
      title={t(kind.title)}
      info={{ title: t(kind.title), description: t(kind.info) }}
      {...widgetQueryState(query)}
      empty={list.length === 0}
      emptyMessage={t('NO_TERMINAL_INFORMATION')}
      height={height}
      data-testid={kind.testId}
      footer={
        <Anchor component={Link} to={logPath('environment', 'site', scope.id)} size="xs">
          {t('ENVIRONMENT_LOG')}
        </Anchor>
      }
    >
      {item && (
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <ActionIcon variant="subtle" size="lg" aria-label={t('PREVIOUS_TERMINAL')} onClick={carousel.prev}>
            <IconChevronLeft className="mantine-rotate-rtl" />
          </ActionIcon>
          <Stack gap={2} align="center">
            <Text fz={34} fw={700} lh={1.1} data-testid="reading" dir="ltr">
              {value}
              {value !== '-' && (
                <Text component="span" fz={20} fw={500} c="dimmed" ms={2}>
                  {kind.unit}
                </Text>
              )}
            </Text>
            <Text size="xs" c="dimmed">
              {t('TERMINAL_ID')}
            </Text>
            <Text size="sm" fw={500} data-testid="terminal-id">
              {item.terminal?.terminal_id ? (
                <TerminalLink siteId={scope.id} terminalId={item.terminal.id} fw={500}>
                  {item.terminal.terminal_id}
                </TerminalLink>
              ) : (
                '-'
              )}
            </Text>
          </Stack>
          <ActionIcon variant="subtle" size="lg" aria-label={t('NEXT_TERMINAL')} onClick={carousel.next}>
            <IconChevronRight className="mantine-rotate-rtl" />
          </ActionIcon>
        </Group>
      )}
    </WidgetCard>
  );
}

/** Board temperature: temperature_main_board in °C. */
export function BoardTemperatureWidget(props: EnvironmentWidgetProps) {
  return <EnvironmentWidget {...props} reading="temperature_main_board" />;
}

/** Humidity: humidity_inside_cabinet in %. */
export function HumidityWidget(props: EnvironmentWidgetProps) {
  return <EnvironmentWidget {...props} reading="humidity_inside_cabinet" />;
}

/** Internal temperature: temperature_inside_cabinet in °C. */
export function InternalTemperatureWidget(props: EnvironmentWidgetProps) {
  return <EnvironmentWidget {...props} reading="temperature_inside_cabinet" />;
}
