import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { companyQueries } from '../../../../lib/api/companies.ts';
import { AlertsWidget } from '../../../../widgets/alerts/components/alerts-widget.tsx';
import { ConnectivityWidget } from '../../../../widgets/connectivity/components/connectivity-widget.tsx';
import { HardwareIssuesWidget } from '../../../../widgets/hardware-issues/components/hardware-issues-widget.tsx';
import { LocalTimeWidget } from '../../../../widgets/local-time/components/local-time-widget.tsx';
import { CompanyMapWidget } from '../../../../widgets/maps/components/map-widgets.tsx';
import { TerminalReboot } from '../../../../widgets/reboot/components/terminal-reboot.tsx';
import { ShockWidget } from '../../../../widgets/shock/components/shock-widget.tsx';
import { SitesOnlineWidget } from '../../../../widgets/sites-online/components/sites-online-widget.tsx';
import { Support } from '../../../../widgets/support/components/support.tsx';
import { WeatherWidget } from '../../../../widgets/weather/components/weather.tsx';
import { Cell, DashboardGrid, DashboardHeader } from './dashboard-grid.tsx';
import { useRouteIds } from './dashboard-ids.ts';
import { DashboardNotFound } from './dashboard-not-found.tsx';

/** `#/company/{companyId}/dashboard`: what a company user watches over all its sites. */
export default function CompanyDashboardPage() {
  const { companyId } = useRouteIds();
  if (!companyId) return <DashboardNotFound />;
  return <CompanyDashboard companyId={companyId} />;
}

function CompanyDashboard({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const company = useQuery(companyQueries.detail(companyId));
  const scope = { kind: 'company', id: companyId } as const;
  return (
    <>
      <DashboardHeader
        title={t('DASHBOARD')}
        subtitle={company.data?.name ?? t('COMPANY_NUMBER', { id: companyId })}
      />
      <DashboardGrid>
        <Cell span={2} rows={2}>
          <CompanyMapWidget scope={scope} />
        </Cell>
        {/* Monitoring widgets */}
        <Cell>
          <SitesOnlineWidget scope={scope} />
        </Cell>
        <Cell>
          <LocalTimeWidget scope={scope} />
        </Cell>
        <Cell rows={2}>
          <AlertsWidget scope={scope} />
        </Cell>
        <Cell span={2} rows={2}>
          <ConnectivityWidget scope={scope} />
        </Cell>
        <Cell rows={2}>
          <HardwareIssuesWidget scope={scope} size2X />
        </Cell>
        <Cell rows={2}>
          <ShockWidget scope={scope} />
        </Cell>
        <Cell>
          <WeatherWidget scope={scope} />
        </Cell>
        <Cell>
          <TerminalReboot scope={scope} />
        </Cell>
        <Cell>
          <Support />
        </Cell>
      </DashboardGrid>
    </>
  );
}
