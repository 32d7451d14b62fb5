import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { widgetQueryState } from '../../../components/widget-card.tsx';
import { batteryQuery } from '../../../lib/api/fleet.ts';
import { TerminalLevelWidget } from './terminal-level-widget.tsx';

export interface TerminalBatteryWidgetProps {
  siteId: number;
  height?: number;
}

/** Terminal battery: life in percent per terminal, one at a time. */
export function TerminalBatteryWidget({ siteId, height }: TerminalBatteryWidgetProps) {
  const { t } = useTranslation();
  const query = useQuery(batteryQuery(siteId));
  const items = useMemo(
    () =>
      (query.data ?? []).map((b) => ({
        percent: typeof b.life === 'number' ? b.life : null,
        terminalId: b.terminal?.terminal_id ?? '',
        customer: b.customer ?? '',
        siteNumber: b.site_number ?? '',
      })),
    [query.data],
  );
  return (
    <TerminalLevelWidget
      title={t('TERMINAL_BATTERY')}
      info={{ title: t('TERMINAL_BATTERY'), description: t('TERMINAL_BATTERY_INFO') }}
      lifeLabel={t('BATTERY_LIFE')}
      items={items}
      state={widgetQueryState(query)}
      logPath={`/site/${siteId}/terminal/battery/log`}
      logLabel={t('BATTERY_LOG')}
      height={height}
      testId="terminal-battery"
    />
  );
}
