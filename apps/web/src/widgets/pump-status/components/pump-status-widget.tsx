import { formatDateSafe, formatDayMonthYearTime } from '@forecourt/contract/formatters';
import { logPath } from '@forecourt/contract/log-paths';
import { isPumpStatusNormal, type PumpStatusEntry, type PumpStatusLog } from '@forecourt/contract/pumps';
import { Anchor, Stack, Text } from '@mantine/core';
import { IconAlertTriangleFilled } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
// The accordion group is a building block shared by design (docs/product.md#pump-status), not a data widget.
import { AccordionGroup } from '../../../components/accordion-group/accordion-group.tsx';
import { Link } from '../../../components/link.tsx';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { type DateWriter, useDateWriters } from '../../../i18n/format.ts';
import type { SiteScope } from '../../../lib/scope.ts';
import { pumpStatusQueries } from '../api/get-pump-status.ts';

/** Double-height box: size2X makes it 450 px (docs/product.md#pump-status). */
export const PUMP_STATUS_SIZE_2X = 450;

export interface PumpStatusWidgetProps {
  scope: SiteScope;
  /** Double height: 450 px instead of 300 px. @default false */
  size2X?: boolean;
}

export interface PumpPanelModel {
  key: string;
  /** The text of the first (newest) entry, or '-'. */
  subtitle: string;
  /** The first entry's status is not 4000 (normal). */
  alert: boolean;
  /** 'd/M/yyyy H:mm text' per entry. */
  lines: string[];
}

/** Pumps in key order (numeric keys numerically), each with subtitle, alert flag and lines. */
export function pumpPanels(
  log: PumpStatusLog | null | undefined,
  writeDate: DateWriter = formatDayMonthYearTime,
): PumpPanelModel[] {
  const entries = Object.entries(log ?? {});
  entries.sort(([a], [b]) => {
    const na = Number(a);
    const nb = Number(b);
    return Number.isFinite(na) && Number.isFinite(nb) ? na - nb : a.localeCompare(b);
  });
  return entries.map(([key, list]) => {
    const items: Partial<PumpStatusEntry>[] = Array.isArray(list) ? list : [];
    const first = items[0];
    return {
      key,
      subtitle: first?.text || '-',
      alert: first !== undefined && !isPumpStatusNormal(first.status),
      lines: items.map((e) => `${formatDateSafe(e.created_at, writeDate)} ${e.text ?? ''}`.trim()),
    };
  });
}

/** Pump status: an accordion per pump, the newest report as subtitle, an alert image when it is not normal. */
export function PumpStatusWidget({ scope, size2X = false }: PumpStatusWidgetProps) {
  const { t } = useTranslation();
  const query = useQuery(pumpStatusQueries.site(scope));
  const { dateTime } = useDateWriters();
  const panels = useMemo(() => pumpPanels(query.data, dateTime), [query.data, dateTime]);
  return (
    <WidgetCard
      title={t('PUMP_STATUS')}
      info={{ title: t('PUMP_STATUS'), description: t('PUMP_STATUS_INFO') }}
      {...widgetQueryState(query)}
      empty={panels.length === 0}
      emptyMessage={t('NO_PUMPS_DETECTED')}
      height={size2X ? PUMP_STATUS_SIZE_2X : 300}
      data-testid="pump-status"
      footer={
        <Anchor component={Link} to={logPath('pump-status', 'site', scope.id)} size="xs">
          {t('PUMP_STATUS_LOG')}
        </Anchor>
      }
    >
      <AccordionGroup
        label={t('PUMP_STATUS')}
        panels={panels.map((p) => ({
          value: p.key,
          title: t('PUMP_KEY', { key: p.key }),
          subtitle: p.subtitle,
          badge: p.alert ? (
            <IconAlertTriangleFilled
              role="img"
              aria-label={t('PUMP_ALERT')}
              size={20}
              color="var(--mantine-color-orange-6)"
              style={{ flex: 'none' }}
            />
          ) : undefined,
          content: (
            <Stack gap={2}>
              {p.lines.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id and never reorder within a poll
                <Text key={i} size="xs" ff="monospace">
                  {line}
                </Text>
              ))}
            </Stack>
          ),
        }))}
      />
    </WidgetCard>
  );
}
