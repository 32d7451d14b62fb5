import { userKind } from '@forecourt/contract/users';
import { Alert, Center, Loader, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../../../../config/paths.ts';
import { siteQueries } from '../../../../lib/api/sites.ts';
import { useSession } from '../../../../lib/auth/session.ts';
import { Board } from './board.tsx';
import { DashboardHeader } from './dashboard-grid.tsx';
import { useRouteIds } from './dashboard-ids.ts';
import { DashboardNotFound } from './dashboard-not-found.tsx';

/**
 * `#/agent/dashboard` and `#/agent/{agentId}/dashboard`. On the bare path an agent sees its own
 * dashboard, a company user is sent to its company's dashboard and a site user to its site's.
 */
export default function AgentDashboardPage() {
  const { agentId, raw } = useRouteIds();
  const { user } = useSession();
  // The query goes along (a wall screen's ?kiosk=1&rotate=N).
  const { search } = useLocation();
  if (raw.agentId !== undefined) {
    return agentId ? <AgentDashboard agentId={agentId} /> : <DashboardNotFound />;
  }
  const kind = userKind(user);
  if (kind === 'agent' && user?.agent) return <AgentDashboard agentId={user.agent} />;
  if (kind === 'company' && user)
    return <Navigate to={{ pathname: paths.companyDashboard(user.companies[0].id), search }} replace />;
  if (kind === 'site' && user) return <SiteLanding siteId={user.sites[0].id} search={search} />;
  return <NoFleet />;
}

/** A site user's site dashboard needs the site's company: read it from the site detail. */
function SiteLanding({ siteId, search }: { siteId: number; search: string }) {
  const { t } = useTranslation();
  const detail = useQuery(siteQueries.detail(siteId));
  if (detail.data)
    return (
      <Navigate to={{ pathname: paths.siteDashboard(detail.data.company_id, siteId), search }} replace />
    );
  return (
    <>
      <DashboardHeader title={t('DASHBOARD')} />
      {detail.isError ? (
        <Text c="red" role="alert">
          {t('WIDGET_ERROR')}
        </Text>
      ) : (
        <Center mih={240} role="status" aria-label={t('LOADING')}>
          <Loader />
        </Center>
      )}
    </>
  );
}

/** A user without a role (self-registered): nothing to show until an agent grants access (docs/product.md). */
function NoFleet() {
  const { t } = useTranslation();
  return (
    <>
      <DashboardHeader title={t('DASHBOARD')} />
      <Alert variant="light" color="blue" icon={<IconLock />} title={t('KIND_NONE')} data-testid="no-access">
        {t('NO_ACCESS_GRANT')}
      </Alert>
    </>
  );
}

function AgentDashboard({ agentId }: { agentId: number }) {
  const { t } = useTranslation();
  const scope = { kind: 'agent', id: agentId } as const;
  return (
    <>
      <DashboardHeader title={t('DASHBOARD')} subtitle={t('AGENT_NUMBER', { id: agentId })} />
      <Board board="agent" scope={scope} />
    </>
  );
}
