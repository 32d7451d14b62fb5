import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { SiteScope } from '../../lib/scope.ts';
import { defineWidget, SITE_SCOPES } from '../../lib/widget-descriptor.ts';

/** The latest status report of each pump of a site (docs/product.md#widgets). */
export const widgets = [
  defineWidget<SiteScope>({
    id: 'pump-status',
    title: 'PUMP_STATUS',
    load: () => import('./components/pump-status-widget.tsx').then((m) => ({ Widget: m.PumpStatusWidget })),
    reads: [{ root: QUERY_ROOTS.pumpStatus, scopes: SITE_SCOPES, on: ['pump'] }],
    log: { kind: 'pump-status', on: ['pump'] },
    boards: { site: { order: 30, rows: 2, size2X: true } },
  }),
];
