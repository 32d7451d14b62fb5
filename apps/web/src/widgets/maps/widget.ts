import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { FleetScope, SiteScope } from '../../lib/scope.ts';
import { defineWidget, FLEET_SCOPES, SITE_SCOPES } from '../../lib/widget-descriptor.ts';

const load = () =>
  Promise.all([
    import('./components/map-widgets.tsx'),
    import('../../lib/api/map-terminals.ts'),
    import('../../lib/api/config.ts'),
  ]);

/** The fleet's terminals on a road map, and one site's on an aerial view (docs/product.md#widgets). */
export const widgets = [
  defineWidget<FleetScope>({
    id: 'company-map',
    title: 'COMPANY_MAP',
    load: () =>
      load().then(([m, terminals, config]) => ({
        Widget: m.CompanyMapWidget,
        firstReads: (scope: FleetScope) => [
          terminals.mapTerminalQueries.fleet(scope),
          config.configQueries.web(),
        ],
      })),
    reads: [{ root: QUERY_ROOTS.mapTerminals, scopes: FLEET_SCOPES, on: ['connectivity', 'fleet'] }],
    boards: {
      agent: { order: 10, span: 2, rows: 2, firstView: 'render' },
      company: { order: 10, span: 2, rows: 2, firstView: 'render' },
    },
  }),
  defineWidget<SiteScope>({
    id: 'aerial-map',
    title: 'AERIAL_MAP',
    load: () =>
      load().then(([m, terminals, config]) => ({
        Widget: m.AerialMapWidget,
        firstReads: (scope: SiteScope) => [
          terminals.mapTerminalQueries.site(scope),
          config.configQueries.web(),
        ],
      })),
    reads: [{ root: QUERY_ROOTS.mapTerminals, scopes: SITE_SCOPES, on: ['connectivity', 'fleet'] }],
    boards: { site: { order: 10, span: 2, firstView: 'render' } },
  }),
];
