import { pad3 } from '@forecourt/contract/formatters';
import { Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { siteQueries } from '../../../lib/api/sites.ts';
import { type FleetScope, isValidScope } from '../../../lib/scope.ts';

export interface SitesOnlineWidgetProps {
  scope: FleetScope;
  /** Box height in px. @default 220 */
  height?: number;
}

/** Both readings (docs/product.md#sites-online) from one list: status 0 counted as offline, the rest online. */
export function countSites(sites: readonly { status?: number | null }[] | null | undefined) {
  const list = sites ?? [];
  const offline = list.filter((s) => s?.status === 0).length;
  return { total: list.length, offline, online: list.length - offline };
}

/**
 * Sites online. Status 0 is read two ways, and both stand (docs/product.md#sites-online): the count of sites with
 * status 0 is shown under SITES_OFFLINE_TOTAL, and the online count (status other than 0) beside it,
 * each over the total, zero-padded to 3 digits and greyed at 0 or when there are no sites.
 */
export function SitesOnlineWidget({ scope, height = 220 }: SitesOnlineWidgetProps) {
  const { t } = useTranslation();
  const query = useQuery({ ...siteQueries.list(scope), enabled: isValidScope(scope) });
  const { total, offline, online } = countSites(query.data);
  return (
    <WidgetCard
      title={t('SITES_ONLINE')}
      info={{ title: t('SITES_ONLINE'), description: t('SITES_ONLINE_INFO') }}
      {...widgetQueryState(query)}
      height={height}
    >
      <Group grow align="flex-start" gap="sm" wrap="nowrap" pt="xs">
        <Counter label={t('SITES_OFFLINE_TOTAL')} value={offline} total={total} testId="sites-offline" />
        <Counter label={t('SITES_ONLINE_TOTAL')} value={online} total={total} testId="sites-online" />
      </Group>
      {total === 0 && (
        <Text size="xs" c="dimmed" ta="center" mt="xs">
          {t('NO_SITES')}
        </Text>
      )}
    </WidgetCard>
  );
}

function Counter({
  label,
  value,
  total,
  testId,
}: {
  label: string;
  value: number;
  total: number;
  testId: string;
}) {
  const greyed = value === 0 || total === 0;
  const text = `${pad3(value)}/${pad3(total)}`;
  return (
    <Stack gap={4} align="center" role="group" aria-label={`${label}: ${text}`} data-testid={testId}>
      <Text
        // Two counters of seven monospace digits side by side: sized to the card.
        fz="clamp(1.1rem, 9cqi, 2rem)"
        fw={700}
        lh={1.1}
        ff="monospace"
        c={greyed ? 'dimmed' : undefined}
        data-greyed={greyed}
        style={greyed ? { opacity: 0.55 } : undefined}
      >
        {text}
      </Text>
      <Text size="xs" c="dimmed" ta="center">
        {label}
      </Text>
    </Stack>
  );
}
