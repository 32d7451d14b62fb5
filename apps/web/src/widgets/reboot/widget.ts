import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { Scope } from '../../lib/scope.ts';
import { defineWidget, SITE_SCOPES } from '../../lib/widget-descriptor.ts';

/** Reboot a terminal, picked company → site → terminal (docs/product.md#widgets). */
export const widgets = [
  defineWidget<Scope>({
    id: 'terminal-reboot',
    title: 'TERMINAL_REBOOT',
    load: () => import('./components/terminal-reboot.tsx').then((m) => ({ Widget: m.TerminalReboot })),
    reads: [{ root: QUERY_ROOTS.terminals, scopes: SITE_SCOPES, on: ['connectivity', 'fleet'] }],
    log: { kind: 'reboot', on: ['reboot'] },
    boards: { agent: { order: 90 }, company: { order: 90 }, site: { order: 140 } },
  }),
];
