import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { FleetScope } from '../../lib/scope.ts';
import { defineWidget, FLEET_SCOPES } from '../../lib/widget-descriptor.ts';

/** Terminals that went off line lately, per site (docs/product.md#widgets). */
export const widgets = [
  defineWidget<FleetScope>({
    id: 'connectivity',
    title: 'CONNECTIVITY',
    load: () =>
      import('./components/connectivity-widget.tsx').then((m) => ({ Widget: m.ConnectivityWidget })),
    reads: [{ root: QUERY_ROOTS.connectivity, scopes: FLEET_SCOPES, on: ['connectivity', 'fleet'] }],
    log: { kind: 'connectivity', on: ['connectivity'] },
    boards: {
      agent: { order: 50, span: 2, rows: 2 },
      company: { order: 50, span: 2, rows: 2 },
    },
  }),
];
