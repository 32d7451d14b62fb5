import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { siteDetailQuery } from '../../../../lib/api/fleet.ts';
import { AlertsWidget } from '../../../../widgets/alerts/components/alerts-widget.tsx';
import {
  BoardTemperatureWidget,
  HumidityWidget,
  InternalTemperatureWidget,
} from '../../../../widgets/environment/components/environment-widget.tsx';
import { HardwareIssuesWidget } from '../../../../widgets/hardware-issues/components/hardware-issues-widget.tsx';
import { AerialMapWidget } from '../../../../widgets/maps/components/map-widgets.tsx';
import { PumpStatusWidget } from '../../../../widgets/pump-status/components/pump-status-widget.tsx';
import { PumpActivation } from '../../../../widgets/pumps/components/pump-activation.tsx';
import { TerminalReboot } from '../../../../widgets/reboot/components/terminal-reboot.tsx';
import { ShockWidget } from '../../../../widgets/shock/components/shock-widget.tsx';
import { Support } from '../../../../widgets/support/components/support.tsx';
import { FlashDriveWidget } from '../../../../widgets/terminal-info/components/flash-drive-widget.tsx';
import { TerminalBatteryWidget } from '../../../../widgets/terminal-info/components/terminal-battery-widget.tsx';
import { TransactionActivityWidget } from '../../../../widgets/transactions/components/transaction-activity.tsx';
import { WeatherWidget } from '../../../../widgets/weather/components/weather.tsx';
import { Cell, DashboardGrid, DashboardHeader } from './dashboard-grid.tsx';
import { useRouteIds } from './dashboard-ids.ts';
import { DashboardNotFound } from './dashboard-not-found.tsx';

/** `#/company/{companyId}/site/{siteId}/dashboard`: one site's pumps, terminals and activity. */
export default function SiteDashboardPage() {
  const { companyId, siteId } = useRouteIds();
  if (!companyId || !siteId) return <DashboardNotFound />;
  return <SiteDashboard companyId={companyId} siteId={siteId} />;
}

function SiteDashboard({ companyId, siteId }: { companyId: number; siteId: number }) {
  const { t } = useTranslation();
  const site = useQuery(siteDetailQuery(siteId));
  const subtitle = site.data
    ? [
        site.data.title,
        site.data.company_name,
        site.data.number && t('SITE_NUMBER_VALUE', { number: site.data.number }),
      ]
        .filter(Boolean)
        .join(' · ')
    : t('SITE_NUMBER_ID', { id: siteId });
  return (
    <>
      <DashboardHeader title={t('DASHBOARD')} subtitle={subtitle} />
      <DashboardGrid>
        <Cell span={2}>
          <AerialMapWidget siteId={siteId} />
        </Cell>
        <Cell span={2}>
          <PumpActivation siteId={siteId} />
        </Cell>
        {/* Monitoring widgets */}
        <Cell rows={2}>
          <PumpStatusWidget siteId={siteId} size2X />
        </Cell>
        <Cell>
          <TerminalBatteryWidget siteId={siteId} />
        </Cell>
        <Cell>
          <FlashDriveWidget siteId={siteId} />
        </Cell>
        <Cell>
          <BoardTemperatureWidget siteId={siteId} />
        </Cell>
        <Cell>
          <HumidityWidget siteId={siteId} />
        </Cell>
        <Cell>
          <InternalTemperatureWidget siteId={siteId} />
        </Cell>
        <Cell rows={2}>
          <AlertsWidget siteId={siteId} />
        </Cell>
        <Cell rows={2}>
          <HardwareIssuesWidget companyId={companyId} siteId={siteId} size2X />
        </Cell>
        <Cell rows={2}>
          <ShockWidget companyId={companyId} siteId={siteId} />
        </Cell>
        <Cell rows={2}>
          <TransactionActivityWidget siteId={siteId} timeZone={site.data?.timezone} />
        </Cell>
        <Cell>
          <WeatherWidget source={{ type: 'site', id: siteId }} />
        </Cell>
        <Cell>
          <TerminalReboot companyId={companyId} siteId={siteId} />
        </Cell>
        <Cell>
          <Support />
        </Cell>
      </DashboardGrid>
    </>
  );
}
