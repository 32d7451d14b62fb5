import { logPath } from '@forecourt/contract/log-paths';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { widgetQueryState } from '../../../components/widget-card.tsx';
import type { SiteScope } from '../../../lib/scope.ts';
import { batteryQueries } from '../api/get-battery.ts';
import { TerminalLevelWidget } from './terminal-level-widget.tsx';

export interface TerminalBatteryWidgetProps {
  scope: SiteScope;
  height?: number;
}

/** Terminal battery: life in percent per terminal, one at a time. */
export function TerminalBatteryWidget({ scope, height }: TerminalBatteryWidgetProps) {
  const { t } = useTranslation();
  const query = useQuery(batteryQueries.site(scope));
  const items = useMemo(
    () =>
      (query.data ?? []).map((b) => ({
        percent: typeof b.life === 'number' ? b.life : null,
        terminalId: b.terminal?.terminal_id ?? '',
        terminalRowId: b.terminal?.id,
        siteId: scope.id,
        customer: b.customer ?? '',
        siteNumber: b.site_number ?? '',
      })),
    [query.data, scope.id],
  );
  return (
    <TerminalLevelWidget
      title={t('TERMINAL_BATTERY')}
      info={{ title: t('TERMINAL_BATTERY'), description: t('TERMINAL_BATTERY_INFO') }}
      lifeLabel={t('BATTERY_LIFE')}
      items={items}
      state={widgetQueryState(query)}
      logPath={logPath('battery', 'site', scope.id)}
      logLabel={t('BATTERY_LOG')}
      height={height}
      testId="terminal-battery"
    />
  );
}
