import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { widgetQueryState } from '../../../components/widget-card.tsx';
import { flashDriveQuery } from '../../../lib/api/fleet.ts';
import { TerminalLevelWidget } from './terminal-level-widget.tsx';

export interface FlashDriveWidgetProps {
  siteId: number;
  height?: number;
}

/** Flash drive: like the battery, with the space left in percent and the label FLASDRIVE_LIFE. */
export function FlashDriveWidget({ siteId, height }: FlashDriveWidgetProps) {
  const { t } = useTranslation();
  const query = useQuery(flashDriveQuery(siteId));
  const items = useMemo(
    () =>
      (query.data ?? []).map((f) => ({
        percent: typeof f.left === 'number' ? f.left : null,
        terminalId: f.terminal?.terminal_id ?? '',
        customer: f.customer ?? '',
        siteNumber: f.site_number ?? '',
      })),
    [query.data],
  );
  return (
    <TerminalLevelWidget
      title={t('FLASH_DRIVE')}
      info={{ title: t('FLASH_DRIVE'), description: t('FLASH_DRIVE_INFO') }}
      lifeLabel={t('FLASDRIVE_LIFE')}
      items={items}
      state={widgetQueryState(query)}
      logPath={`/site/${siteId}/terminal/flashdrive/log`}
      logLabel={t('FLASH_DRIVE_LOG')}
      height={height}
      testId="flash-drive"
    />
  );
}
