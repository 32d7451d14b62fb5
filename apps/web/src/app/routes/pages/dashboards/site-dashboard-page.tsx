import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, startTransition, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { siteQueries } from '../../../../lib/api/sites.ts';
import type { Scope } from '../../../../lib/scope.ts';
import { whenFirstViewDrawn } from '../../../../lib/when-first-view-drawn.ts';
import { Board } from './board.tsx';
import { DashboardHeader } from './dashboard-grid.tsx';
import { useRouteIds } from './dashboard-ids.ts';
import { DashboardNotFound } from './dashboard-not-found.tsx';

// Fetched and drawn only once the dashboard's first view is on screen: not part of its first load.
const SiteAvailability = lazy(() => import('./site-availability.tsx'));
const MaintenanceButton = lazy(() =>
  import('../maintenance/maintenance-button.tsx').then((m) => ({ default: m.MaintenanceButton })),
);

/** The heading's read, asked for by the boot with the widgets' first reads (app/boot/dashboards.ts). */
export const firstReads = (scope: Scope) => [siteQueries.detail(scope.id)];

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
  const [drawn, setDrawn] = useState(false);
  // A transition: React draws them in slices, not in the one long task that also starts the map and the stream.
  useEffect(() => whenFirstViewDrawn(() => startTransition(() => setDrawn(true))), []);
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
      <DashboardHeader
        title={t('DASHBOARD')}
        subtitle={subtitle}
        extra={
          drawn && (
            <Suspense fallback={null}>
              <SiteAvailability siteId={siteId} />
            </Suspense>
          )
        }
        actions={
          drawn && (
            <Suspense fallback={null}>
              <MaintenanceButton target={{ scope: { kind: 'site', id: siteId }, tags: [] }} />
            </Suspense>
          )
        }
      />
      <Board board="site" scope={scope} />
    </>
  );
}
