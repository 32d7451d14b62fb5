import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { Scope } from '../../lib/scope.ts';
import { ALL_SCOPES, defineWidget } from '../../lib/widget-descriptor.ts';

/** Active alerts of the scope, worst first (docs/product.md#widgets). */
export const widgets = [
  defineWidget<Scope>({
    id: 'alerts',
    title: 'ALERTS',
    load: () => import('./components/alerts-widget.tsx').then((m) => ({ Widget: m.AlertsWidget })),
    reads: [{ root: QUERY_ROOTS.alerts, scopes: ALL_SCOPES, on: ['alert'] }],
    log: { kind: 'alert', on: ['alert'] },
    boards: {
      agent: { order: 40, rows: 2, firstView: 'code' },
      company: { order: 40, rows: 2, firstView: 'code' },
      site: { order: 90, rows: 2 },
    },
  }),
];
