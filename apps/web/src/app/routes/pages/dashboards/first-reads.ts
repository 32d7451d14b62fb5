import { configQueries } from '../../../../lib/api/config.ts';
import { mapTerminalQueries } from '../../../../lib/api/map-terminals.ts';
import { siteQueries } from '../../../../lib/api/sites.ts';
import { timeZoneQueries } from '../../../../lib/api/time-zones.ts';
import { queryClient } from '../../../../lib/query-client.ts';
import type { FleetScope } from '../../../../lib/scope.ts';

/**
 * The reads of a fleet dashboard's first view (the company map, its tile settings, sites online, local times),
 * asked for as soon as their code is here (app/preload.ts) rather than once the frame and the page have
 * rendered: the widgets then find them in the query cache, answered or on their way. The same queries as the
 * widgets', the contract's schemas checking the answers.
 */
export function prefetchFleetDashboard(scope: FleetScope) {
  void queryClient.prefetchQuery(mapTerminalQueries.fleet(scope));
  void queryClient.prefetchQuery(configQueries.web());
  void queryClient.prefetchQuery(siteQueries.list(scope));
  void queryClient.prefetchQuery(timeZoneQueries.list(scope));
}
