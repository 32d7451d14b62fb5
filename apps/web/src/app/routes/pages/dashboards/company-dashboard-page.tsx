import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { companyQueries } from '../../../../lib/api/companies.ts';
import { AlertsWidget } from '../../../../widgets/alerts/components/alerts-widget.tsx';
import { LocalTimeWidget } from '../../../../widgets/local-time/components/local-time-widget.tsx';
import { CompanyMapWidget } from '../../../../widgets/maps/components/map-widgets.tsx';
import { SitesOnlineWidget } from '../../../../widgets/sites-online/components/sites-online-widget.tsx';
import { Cell, DashboardGrid, DashboardHeader } from './dashboard-grid.tsx';
import { useRouteIds } from './dashboard-ids.ts';
import { DashboardNotFound } from './dashboard-not-found.tsx';
import {
  ConnectivityWidget,
  HardwareIssuesWidget,
  ShockWidget,
  Support,
  TerminalReboot,
  WeatherWidget,
} from './lazy-widgets.ts';

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
        <Cell lazy>
          <SitesOnlineWidget scope={scope} />
        </Cell>
        <Cell lazy>
          <LocalTimeWidget scope={scope} />
        </Cell>
        <Cell rows={2} lazy>
          <AlertsWidget scope={scope} />
        </Cell>
        <Cell span={2} rows={2} lazy>
          <ConnectivityWidget scope={scope} />
        </Cell>
        <Cell rows={2} lazy>
          <HardwareIssuesWidget scope={scope} size2X />
        </Cell>
        <Cell rows={2} lazy>
          <ShockWidget scope={scope} />
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
