import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { companyQueries } from '../../../../lib/api/companies.ts';
import type { Scope } from '../../../../lib/scope.ts';
import { Board } from './board.tsx';
import { DashboardHeader } from './dashboard-grid.tsx';
import { useRouteIds } from './dashboard-ids.ts';
import { DashboardNotFound } from './dashboard-not-found.tsx';

/** The heading's read, asked for by the boot with the widgets' first reads (app/boot/dashboards.ts). */
export const firstReads = (scope: Scope) => [companyQueries.detail(scope.id)];

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
      <Board board="company" scope={scope} />
    </>
  );
}
