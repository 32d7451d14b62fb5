import { logPath } from '@forecourt/contract/log-paths';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { widgetQueryState } from '../../../components/widget-card.tsx';
import type { SiteScope } from '../../../lib/scope.ts';
import { flashDriveQueries } from '../api/get-flash-drives.ts';
import { TerminalLevelWidget } from './terminal-level-widget.tsx';

export interface FlashDriveWidgetProps {
  scope: SiteScope;
  height?: number;
}

/** Flash drive: like the battery, with the space left in percent and the label FLASDRIVE_LIFE. */
export function FlashDriveWidget({ scope, height }: FlashDriveWidgetProps) {
  const { t } = useTranslation();
  const query = useQuery(flashDriveQueries.site(scope));
  const items = useMemo(
    () =>
      (query.data ?? []).map((f) => ({
        percent: typeof f.left === 'number' ? f.left : null,
        terminalId: f.terminal?.terminal_id ?? '',
        terminalRowId: f.terminal?.id,
        siteId: scope.id,
        customer: f.customer ?? '',
        siteNumber: f.site_number ?? '',
      })),
    [query.data, scope.id],
  );
  return (
    <TerminalLevelWidget
      title={t('FLASH_DRIVE')}
      info={{ title: t('FLASH_DRIVE'), description: t('FLASH_DRIVE_INFO') }}
      lifeLabel={t('FLASDRIVE_LIFE')}
      items={items}
      state={widgetQueryState(query)}
      logPath={logPath('flashdrive', 'site', scope.id)}
      logLabel={t('FLASH_DRIVE_LOG')}
      height={height}
      testId="flash-drive"
    />
  );
}
