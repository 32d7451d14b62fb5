import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { FleetScope } from '../../lib/scope.ts';
import { defineWidget, FLEET_SCOPES } from '../../lib/widget-descriptor.ts';

/** The local time of the fleet's time zones (docs/product.md#widgets). */
export const widgets = [
  defineWidget<FleetScope>({
    id: 'local-time',
    title: 'LOCAL_TIME',
    load: () =>
      Promise.all([import('./components/local-time-widget.tsx'), import('../../lib/api/time-zones.ts')]).then(
        ([m, q]) => ({
          Widget: m.LocalTimeWidget,
          firstReads: (scope: FleetScope) => [q.timeZoneQueries.list(scope)],
        }),
      ),
    reads: [{ root: QUERY_ROOTS.timeZones, scopes: FLEET_SCOPES, on: ['fleet'] }],
    boards: {
      agent: { order: 30, firstView: 'code' },
      company: { order: 30, firstView: 'code' },
    },
  }),
];
