import type { TimeZone } from '@forecourt/contract/fleet';
import { formatClock, utcOffsetHours } from '@forecourt/contract/formatters';
import { ActionIcon, Group, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { timeZoneQueries } from '../../../lib/api/time-zones.ts';
import { type FleetScope, isValidScope } from '../../../lib/scope.ts';
import { useCarousel } from '../../../lib/use-carousel.ts';

export interface LocalTimeWidgetProps {
  scope: FleetScope;
  /** Start at the zone at `pos mod count` when pos > 0, else at the first. @default 0 */
  pos?: number;
  /** Box height in px. @default 220 */
  height?: number;
}

/** The clock refreshes every second (docs/product.md#local-time). */
export const CLOCK_TICK_MS = 1000;

/** HH:mm:ss in the zone: through its IANA name (daylight saving included), else from its fixed offset. */
export function zoneClock(zone: Partial<TimeZone>, now: Date): { time: string; offset: number } {
  if (zone.iana) {
    try {
      return { time: formatClock(now, zone.iana), offset: utcOffsetHours(zone.iana, now) };
    } catch {
      // An unknown zone name falls back to the offset the server computed.
    }
  }
  const offset = typeof zone.tz === 'number' && Number.isFinite(zone.tz) ? zone.tz : 0;
  return { time: formatClock(new Date(now.getTime() + offset * 3_600_000), 'UTC'), offset };
}

function formatOffset(hours: number): string {
  if (!hours) return '';
  const sign = hours < 0 ? '-' : '+';
  const abs = Math.abs(hours);
  const h = Math.floor(abs);
  const m = Math.round((abs - h) * 60);
  return `${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

function useNow(intervalMs: number) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Local time: a clock ticking every second in one of the fleet's zones, with circular previous/next. */
export function LocalTimeWidget({ scope, pos = 0, height = 220 }: LocalTimeWidgetProps) {
  const { t } = useTranslation();
  const query = useQuery({ ...timeZoneQueries.list(scope), enabled: isValidScope(scope) });
  const zones = query.data ?? [];
  const count = zones.length;
  const carousel = useCarousel(
    zones.map((z) => `${z.iana}|${z.title}`),
    pos,
  );
  const zone = zones[carousel.index];
  const now = useNow(CLOCK_TICK_MS);
  const clock = zone ? zoneClock(zone, now) : null;

  return (
    <WidgetCard
      title={t('LOCAL_TIME')}
      info={{ title: t('LOCAL_TIME'), description: t('LOCAL_TIME_INFO') }}
      {...widgetQueryState(query)}
      empty={count === 0}
      emptyMessage={t('NO_TIME_ZONES')}
      height={height}
    >
      {zone && clock && (
        <Group justify="space-between" wrap="nowrap" gap="xs" h="100%">
          <ActionIcon variant="subtle" size="lg" aria-label={t('PREVIOUS_ZONE')} onClick={carousel.prev}>
            <IconChevronLeft className="mantine-rotate-rtl" />
          </ActionIcon>
          <Stack gap={2} align="center" style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} ta="center" lineClamp={1} data-testid="zone-title">
              {zone.title}
            </Text>
            <Text
              component="time"
              // Eight monospace characters between the two arrows: sized to the card.
              fz="clamp(1.25rem, calc((100cqi - 96px) / 5), 2.4rem)"
              fw={700}
              ff="monospace"
              lh={1.1}
              role="timer"
              aria-label={`${zone.title} ${clock.time}`}
              data-testid="clock"
            >
              {clock.time}
            </Text>
            <Text size="xs" c="dimmed" ta="center" lineClamp={1}>
              {[zone.area, zone.tz_title, t('UTC_OFFSET', { offset: formatOffset(clock.offset) })]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          </Stack>
          <ActionIcon variant="subtle" size="lg" aria-label={t('NEXT_ZONE')} onClick={carousel.next}>
            <IconChevronRight className="mantine-rotate-rtl" />
          </ActionIcon>
        </Group>
      )}
    </WidgetCard>
  );
}
