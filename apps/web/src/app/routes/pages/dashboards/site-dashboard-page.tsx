import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { siteQueries } from '../../../../lib/api/sites.ts';
import { AlertsWidget } from '../../../../widgets/alerts/components/alerts-widget.tsx';
import {
  BoardTemperatureWidget,
  HumidityWidget,
  InternalTemperatureWidget,
} from '../../../../widgets/environment/components/environment-widget.tsx';
import { AerialMapWidget } from '../../../../widgets/maps/components/map-widgets.tsx';
import { PumpStatusWidget } from '../../../../widgets/pump-status/components/pump-status-widget.tsx';
import { PumpActivation } from '../../../../widgets/pumps/components/pump-activation.tsx';
import { FlashDriveWidget } from '../../../../widgets/terminal-info/components/flash-drive-widget.tsx';
import { TerminalBatteryWidget } from '../../../../widgets/terminal-info/components/terminal-battery-widget.tsx';
import { Cell, DashboardGrid, DashboardHeader } from './dashboard-grid.tsx';
import { useRouteIds } from './dashboard-ids.ts';
import { DashboardNotFound } from './dashboard-not-found.tsx';
import {
  HardwareIssuesWidget,
  ShockWidget,
  Support,
  TerminalReboot,
  TransactionActivityWidget,
  WeatherWidget,
} from './lazy-widgets.ts';

/** `#/company/{companyId}/site/{siteId}/dashboard`: one site's pumps, terminals and activity. */
export default function SiteDashboardPage() {
  const { companyId, siteId } = useRouteIds();
  if (!companyId || !siteId) return <DashboardNotFound />;
  return <SiteDashboard siteId={siteId} />;
}

/** The company in the path only leads here: widgets read the site's own company from its detail. */
function SiteDashboard({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const site = useQuery(siteQueries.detail(siteId));
  const scope = { kind: 'site', id: siteId } as const;
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
          <AerialMapWidget scope={scope} />
        </Cell>
        <Cell span={2} lazy>
          <PumpActivation scope={scope} />
        </Cell>
        {/* Monitoring widgets */}
        <Cell rows={2} lazy>
          <PumpStatusWidget scope={scope} size2X />
        </Cell>
        <Cell lazy>
          <TerminalBatteryWidget scope={scope} />
        </Cell>
        <Cell lazy>
          <FlashDriveWidget scope={scope} />
        </Cell>
        <Cell lazy>
          <BoardTemperatureWidget scope={scope} />
        </Cell>
        <Cell lazy>
          <HumidityWidget scope={scope} />
        </Cell>
        <Cell lazy>
          <InternalTemperatureWidget scope={scope} />
        </Cell>
        <Cell rows={2} lazy>
          <AlertsWidget scope={scope} />
        </Cell>
        <Cell rows={2} lazy>
          <HardwareIssuesWidget scope={scope} size2X />
        </Cell>
        <Cell rows={2} lazy>
          <ShockWidget scope={scope} />
        </Cell>
        <Cell rows={2} lazy>
          <TransactionActivityWidget scope={scope} timeZone={site.data?.timezone} />
        </Cell>
        <Cell lazy>
          <WeatherWidget scope={scope} />
        </Cell>
        <Cell lazy>
          <TerminalReboot scope={scope} />
        </Cell>
        <Cell lazy>
          <Support />
        </Cell>
      </DashboardGrid>
    </>
  );
}
