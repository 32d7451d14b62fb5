import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { Scope } from '../../lib/scope.ts';
import { ALL_SCOPES, defineWidget } from '../../lib/widget-descriptor.ts';

/** Shocks the terminals felt lately (docs/product.md#widgets). */
export const widgets = [
  defineWidget<Scope>({
    id: 'shock',
    title: 'SHOCK_ALERT',
    load: () => import('./components/shock-widget.tsx').then((m) => ({ Widget: m.ShockWidget })),
    reads: [{ root: QUERY_ROOTS.shocks, scopes: ALL_SCOPES, on: ['shock'] }],
    log: { kind: 'shock', on: ['shock'] },
    boards: {
      agent: { order: 70, rows: 2 },
      company: { order: 70, rows: 2 },
      site: { order: 110, rows: 2 },
    },
  }),
];
