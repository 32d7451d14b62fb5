import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { FleetScope } from '../../lib/scope.ts';
import { defineWidget, FLEET_SCOPES } from '../../lib/widget-descriptor.ts';

/** How many of the fleet's sites are on line (docs/product.md#widgets). */
export const widgets = [
  defineWidget<FleetScope>({
    id: 'sites-online',
    title: 'SITES_ONLINE',
    load: () =>
      Promise.all([import('./components/sites-online-widget.tsx'), import('../../lib/api/sites.ts')]).then(
        ([m, q]) => ({
          Widget: m.SitesOnlineWidget,
          firstReads: (scope: FleetScope) => [q.siteQueries.list(scope)],
        }),
      ),
    reads: [{ root: QUERY_ROOTS.sites, scopes: FLEET_SCOPES, on: ['connectivity', 'fleet'] }],
    boards: {
      agent: { order: 20, firstView: 'code' },
      company: { order: 20, firstView: 'code' },
    },
  }),
];
