import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { Scope } from '../../lib/scope.ts';
import { ALL_SCOPES, defineWidget } from '../../lib/widget-descriptor.ts';

/** Active hardware alerts of the scope's terminals (docs/product.md#widgets). */
export const widgets = [
  defineWidget<Scope>({
    id: 'hardware-issues',
    title: 'HARDWARE_ISSUES',
    load: () =>
      import('./components/hardware-issues-widget.tsx').then((m) => ({ Widget: m.HardwareIssuesWidget })),
    reads: [{ root: QUERY_ROOTS.alerts, scopes: ALL_SCOPES, on: ['alert'] }],
    log: { kind: 'hardware', on: ['alert'] },
    boards: {
      agent: { order: 60, span: 2, rows: 2, size2X: true },
      company: { order: 60, rows: 2, size2X: true },
      site: { order: 100, rows: 2, size2X: true },
    },
  }),
];
